"""Browser helpers: people opening a room the way they do (home page, invite link)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.async_api import Browser, FloatRect, Locator, Page, expect
from playwright.async_api import Error as PlaywrightError

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 3}
# pages opened as a touch phone: the person there taps rather than clicks
PHONES: set[Page] = set()


async def press(loc: Locator, timeout: float | None = None) -> None:
    """Tap on a phone, click on a laptop."""
    if loc.page in PHONES:
        await loc.tap(timeout=timeout)
    else:
        await loc.click(timeout=timeout)


async def drawn_box(loc: Locator) -> FloatRect | None:
    """Where the element is on the screen. The games draw their board anew on every update
    (another player's move): an element measured just as it is replaced has no box, so
    measure its replacement."""
    for _ in range(20):
        await expect(loc).to_be_visible()
        box = await loc.bounding_box()
        if box is not None:
            return box
    return None


async def no_sideways_scroll(page: Page) -> None:
    """Nothing sticks out to the right: the page never scrolls sideways."""
    width, inner = await page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


async def chat_by_tab(page: Page, text: str) -> None:
    """On a phone: open the Chat tab, send a message, see it, and go back to the game."""
    await press(page.get_by_test_id("tab-chat"))
    await page.get_by_test_id("chat-input").fill(text)
    await page.get_by_test_id("chat-input").press("Enter")
    await expect(page.get_by_test_id("chat-log")).to_contain_text(text)
    await no_sideways_scroll(page)
    await press(page.get_by_test_id("tab-game"))
    await expect(page.get_by_test_id("tab-game")).to_have_attribute("aria-selected", "true")


async def can_use(page: Page, selector: str) -> bool:
    """Is the first element matching ``selector`` on screen and enabled right now (no waiting)?"""
    loc = page.locator(selector).first
    try:
        return await loc.is_visible() and await loc.is_enabled()
    except PlaywrightError:
        return False


async def continue_reveal(page: Page) -> bool:
    """Press Continue on a round's reveal screen if it is up, as a player does."""
    if not await can_use(page, '[data-testid="reveal-continue"]'):
        return False
    try:
        await press(page.get_by_test_id("reveal-continue"), timeout=1000)
    except PlaywrightError:
        return False
    return True


async def reveal_waits_for_everyone(pages: list[Page], names: list[str]) -> None:
    """A round's reveal screen is up for everyone (``pages`` in seat order, named ``names``).
    The keyboard is on Continue; each person in turn continues (the second by pressing Enter)
    and sees whom the table still waits for; once the last has, the next round starts."""
    for page in pages:
        await expect(page.get_by_test_id("reveal-continue")).to_be_visible()
        await expect(page.get_by_test_id("reveal-count")).to_contain_text(re.compile(r"Next round in \d+ s"))
    await expect(pages[1].get_by_test_id("reveal-continue")).to_be_focused()
    for i, page in enumerate(pages[:-1]):
        if i == 1:
            await page.keyboard.press("Enter")
        else:
            await press(page.get_by_test_id("reveal-continue"))
        waiting = ", ".join(names[i + 1 :])
        await expect(page.get_by_test_id("reveal-waiting")).to_have_text(f"Waiting for {waiting}…")
        await expect(page.get_by_test_id("reveal-continue")).to_be_hidden()
    await press(pages[-1].get_by_test_id("reveal-continue"))
    for page in pages:
        await expect(page.get_by_test_id("reveal")).to_be_hidden()


async def open_room(
    browser: Browser,
    base: str,
    game: str,
    names: list[str],
    options: dict[str, Any] | None = None,
    bots: list[str] | None = None,
    phone_first: bool = True,
    start: bool = True,
    langs: list[str] | None = None,
) -> list[Page]:
    """The first person creates the room on the home page, the others join by its invite
    link in their own browser contexts; the host adds ``bots`` and starts. Returns the pages
    in seat order (people first, then bots take the next seats). With ``phone_first`` the
    host is on a 390 px touch phone, everyone else on a 1280 px laptop. ``langs`` gives each
    person's page language (the language switch's cookie)."""
    pages: list[Page] = []
    for i, _ in enumerate(names):
        phone = phone_first and i == 0
        ctx = await browser.new_context(**(PHONE if phone else DESKTOP))  # type: ignore[arg-type]
        if langs:
            await ctx.add_cookies([{"name": "lang", "value": langs[i], "url": base}])
        pages.append(await ctx.new_page())
        if phone:
            PHONES.add(pages[-1])
    host = pages[0]
    await host.goto(base + "/")
    await host.get_by_test_id(f"game-{game}").check(force=True)
    for name, value in (options or {}).items():
        field = host.get_by_test_id(f"opt-{name}")
        await field.wait_for(state="attached")
        if not await field.is_visible():  # an advanced option: open "Advanced" once
            await host.locator("details.advanced summary", has_text="Advanced").first.click()
        kind = await field.evaluate("e => e.tagName + ':' + (e.type || '')")
        if kind.startswith("SELECT"):
            await field.select_option(str(value))
        elif kind == "INPUT:checkbox":
            await field.set_checked(bool(value))
        elif kind.startswith("TEXTAREA"):
            await field.fill(json.dumps(value))
        else:
            await field.fill(str(value))
    await host.get_by_test_id("host-name").fill(names[0])
    await press(host.get_by_test_id("create-room"))
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    invite = await host.get_by_test_id("invite-url").input_value()
    for page, name in zip(pages[1:], names[1:], strict=True):
        await page.goto(invite)
        await page.get_by_test_id("join-name").fill(name)
        await page.get_by_test_id("join-room").click()
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(host.get_by_test_id("seats").locator("li")).to_have_count(len(names))
    for bot in bots or []:
        count = await host.get_by_test_id("seats").locator("li").count()
        await host.get_by_test_id("bot-kind").select_option(bot)
        await press(host.get_by_test_id("add-bot"))
        await expect(host.get_by_test_id("seats").locator("li")).to_have_count(count + 1)
    if not start:
        return pages
    await press(host.get_by_test_id("start"))
    for page in pages:
        await expect(page.locator("#room")).to_have_attribute("data-status", "playing")  # in any language
    return pages


async def screen_path(host: Page) -> str:
    """The shared screen's link on the host's room page, once the page has fetched it."""
    link = host.get_by_test_id("open-screen")
    await expect(link).to_have_attribute("href", re.compile(r"/screen#"))
    return await link.get_attribute("href") or ""


async def close_all(pages: list[Page]) -> None:
    for page in pages:
        PHONES.discard(page)
        await page.context.close()


async def play_count21_to_the_end(pages: list[Page]) -> None:
    """Whoever's turn it is adds 3 until the toy game is over.

    After each click the player waits until the server's answer has turned their page away
    from "your turn": under load a page can still show the turn it just played, and a click
    on a button that the late answer then disables would wait for ever.
    """
    for _ in range(20):
        for page in pages:
            turn = page.get_by_test_id("turn")
            if await turn.text_content() == "your turn" and await page.get_by_test_id("add-3").is_enabled():
                await page.get_by_test_id("add-3").click()
                await expect(turn).not_to_have_text("your turn", timeout=15000)
        if "over" in (await pages[0].get_by_test_id("turn").text_content() or ""):
            return
