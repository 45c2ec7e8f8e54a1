"""Each game's key screens as PNG files, on a 390 px phone and a 1280 px laptop.

    make screenshots          # writes var/screenshots/*.png

A real server on a throw-away SQLite database; people are driven through Chromium the way the
browser tests drive them (bots without delay fill the other seats).
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from playwright.async_api import Browser, Page, async_playwright  # noqa: E402
from test_action_bar_browser import BRAINIAC, GENIUS_IDEA, brainiac_with_disputes, play_checking_each_phase  # noqa: E402
from test_brainiac_browser import step as brainiac_step  # noqa: E402
from test_genius_idea_browser import step as genius_step  # noqa: E402
from test_ingenious_browser import take_turn as ingenious_turn  # noqa: E402

from browser_rooms import PHONE, close_all, continue_reveal, open_room  # noqa: E402
from support import ServerProcess  # noqa: E402

# the browser tests' own way to start Chromium (tests/browser/conftest.py)
_spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
assert _spec is not None and _spec.loader is not None
browser_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(browser_conftest)

OUT = ROOT / "var" / "screenshots"
Step = Callable[[Page, int], Awaitable[bool]]


async def shot(page: Page, name: str) -> None:
    await page.screenshot(path=str(OUT / f"{name}.png"), full_page=False)


async def play(pages: list[Page], step: Step, over: str, name: str, limit: int = 600) -> None:
    """Play on to the end, saving the first reveal screen and the first mid-game screen."""
    revealed = mid = False
    for n in range(limit):
        if await pages[0].get_by_test_id(over).count() and await pages[0].get_by_test_id(over).first.is_visible():
            break
        if not revealed and await pages[0].get_by_test_id("reveal").count():
            await shot(pages[0], f"{name}-reveal")
            revealed = True
        if not mid and n >= 6 and not await pages[0].get_by_test_id("reveal").count():
            await shot(pages[0], f"{name}-playing")
            mid = True
        acted = False
        for page in pages:
            acted = await continue_reveal(page) or acted
            acted = await step(page, n) or acted
        if not acted:
            await pages[0].wait_for_timeout(50)
    await pages[0].wait_for_timeout(300)
    await shot(pages[0], f"{name}-over")
    await continue_reveal(pages[0])
    await shot(pages[0], f"{name}-over-closed")


async def game(browser: Browser, base: str, game_id: str, step: Step, over: str, **kw: object) -> None:
    for device, phone in (("phone", True), ("laptop", False)):
        pages = await open_room(browser, base, game_id, ["Ada"], phone_first=phone, **kw)  # type: ignore[arg-type]
        # the game's module loads after the start: wait until its board has drawn the first state
        await pages[0].wait_for_function("() => document.querySelector('.game-root')?.innerText.trim()")
        await pages[0].wait_for_timeout(200)
        await shot(pages[0], f"{game_id}-{device}-start")
        await play(pages, step, over, f"{game_id}-{device}")
        await close_all(pages)


async def phone_phases(browser: Browser, base: str) -> None:
    """Every phase of Genius Idea and Brainiac as the phone acting in it sees it, on a 360x640
    and a 390x844 phone (action-bar-<game>-<size>-<phase>.png): the control needed now in the
    bar at the bottom of the screen (the same play as tests/browser/test_action_bar_browser.py)."""
    for width, height in ((360, 640), (390, 844)):
        for game_id, names, bots, controls, step, over in (
            ("genius-idea", ["Ada"], ["sharp", "sharp"], GENIUS_IDEA, genius_step, "gi-result"),
            ("brainiac", ["Ada", "Grace"], ["trivia"], BRAINIAC, brainiac_with_disputes, "bq-result"),
        ):
            pages = await open_room(browser, base, game_id, names, bots=bots)
            await pages[0].set_viewport_size({"width": width, "height": height})
            await play_checking_each_phase(pages, game_id, controls, step, over, shots=OUT)
            await close_all(pages)


async def party(browser: Browser, base: str) -> None:
    """The party night: the lobby's code and QR code, the home page's code box and "my rooms",
    and the shared screen on a TV-sized page: locked by the host, then through a game of
    Genius Idea to its result, and at last retired by a new invite link."""
    (host,) = await open_room(browser, base, "genius-idea", ["Ada"], bots=["sharp"], phone_first=False, start=False)
    await host.get_by_test_id("invite-qr").wait_for()
    await host.evaluate("scrollTo(0, 0)")
    await shot(host, "party-lobby-laptop")
    code = (await host.get_by_test_id("room-code").text_content() or "").strip()
    home = await host.context.new_page()  # the host's laptop: the code box, and the room under "My rooms"
    await home.goto(base + "/")
    await home.get_by_test_id("my-rooms-list").locator("li").first.wait_for()
    await shot(home, "party-home-laptop")
    await home.close()
    tv = await browser.new_page(viewport={"width": 1920, "height": 1080})
    await tv.goto(base + (await host.get_by_test_id("open-screen").get_attribute("href") or ""))
    await tv.get_by_test_id("screen-qr").wait_for()
    await shot(tv, "party-screen-lobby-tv")
    # the host locks the room: the screen shows no way in, only that it is locked
    await host.get_by_test_id("lock-switch").check()
    await tv.get_by_test_id("screen-locked").wait_for()
    await tv.wait_for_timeout(200)
    await shot(tv, "party-screen-locked-tv")
    await host.get_by_test_id("lock-switch").uncheck()
    await tv.get_by_test_id("screen-qr").wait_for()
    phone = await (await browser.new_context(**PHONE)).new_page()  # type: ignore[arg-type]
    await phone.goto(base + "/")
    await phone.get_by_test_id("code-input").fill(code.lower())
    await shot(phone, "party-home-code-phone")
    await phone.get_by_test_id("code-join").tap()
    await phone.get_by_test_id("join-name").fill("Grace")
    await shot(phone, "party-join-by-code-phone")
    await phone.get_by_test_id("join-room").tap()
    await phone.get_by_test_id("invite-qr").wait_for()
    await shot(phone, "party-lobby-phone")
    await host.get_by_test_id("invite-qr").wait_for()
    host_phone = await (await browser.new_context(**PHONE)).new_page()  # type: ignore[arg-type]
    await host_phone.context.add_cookies(await host.context.cookies())
    await host_phone.goto(host.url)
    await host_phone.get_by_test_id("open-screen").wait_for()
    await shot(host_phone, "party-lobby-host-phone")
    await host_phone.context.close()
    await host.get_by_test_id("start").click()
    await tv.wait_for_function("() => document.querySelector('.game-root')?.innerText.trim()")
    await shot(tv, "party-screen-start-tv")
    revealed = mid = False
    for n in range(600):
        if await tv.get_by_test_id("screen-result").is_visible():
            break
        if not revealed and await tv.get_by_test_id("reveal").count():
            await shot(tv, "party-screen-reveal-tv")
            await tv.set_viewport_size({"width": 1280, "height": 720})  # a 720p TV
            await shot(tv, "party-screen-reveal-720p")
            await tv.set_viewport_size({"width": 1920, "height": 1080})
            revealed = True
        if not mid and n == 8:
            await shot(tv, "party-screen-playing-tv")
            await phone.goto(base + "/")  # a lost tab: "my rooms" leads back
            await phone.get_by_test_id("my-rooms-list").locator("li").first.wait_for()
            await shot(phone, "party-home-my-rooms-phone")
            await phone.get_by_test_id("my-rooms-list").locator("a").first.tap()
            await phone.get_by_test_id("connection").wait_for()
            mid = True
        acted = False
        for page in (host, phone):
            acted = await continue_reveal(page) or acted
            acted = await genius_step(page, n) or acted
        if not acted:
            await host.wait_for_timeout(50)
    await tv.wait_for_timeout(300)
    await shot(tv, "party-screen-result-tv")
    await tv.set_viewport_size({"width": 1280, "height": 720})
    await shot(tv, "party-screen-result-720p")
    # a new invite link retires the screen's link: the TV says to open it again from the host's page
    await tv.set_viewport_size({"width": 1920, "height": 1080})
    host.once("dialog", lambda dialog: dialog.accept())
    await host.get_by_test_id("new-invite").click()
    await tv.locator('[data-testid="connection"][data-state="gone"]').wait_for()
    await tv.wait_for_timeout(200)
    await shot(tv, "party-screen-retired-tv")
    await tv.context.close()
    await phone.context.close()
    await close_all([host])


async def ingenious_step(page: Page, n: int) -> bool:
    return await ingenious_turn(page, n)


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        from geniusnight.cli import db_upgrade

        url = f"sqlite+aiosqlite:///{tmp}/screens.db"
        db_upgrade(url)
        srv = ServerProcess(url).start()
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(
                    executable_path=browser_conftest.CHROMIUM, args=browser_conftest.ARGS, headless=True
                )
                phone = await browser.new_page(viewport={"width": 390, "height": 844})
                for path, name in (("/", "home"), ("/rules/genius-idea", "rules-genius-idea"), ("/r/nope", "no-room")):
                    await phone.goto(srv.base + path)
                    await shot(phone, f"{name}-phone")
                await phone.context.close()
                # a friend opening the room's own address: asked for the invite link or the room code
                host = await open_room(browser, srv.base, "brainiac", ["Ada"], bots=["trivia", "trivia"], start=False)
                guest = await browser.new_page(viewport={"width": 390, "height": 844})
                await guest.goto(host[0].url)
                await shot(guest, "join-from-room-address-phone")
                await guest.context.close()
                await shot(host[0], "lobby-host-phone")
                await close_all(host)
                await party(browser, srv.base)
                await phone_phases(browser, srv.base)
                await game(browser, srv.base, "genius-idea", genius_step, "gi-result", bots=["sharp", "sharp"])
                await game(browser, srv.base, "brainiac", brainiac_step, "bq-result", bots=["trivia", "trivia"])
                await game(browser, srv.base, "ingenious", ingenious_step, "ingenious-ranking", bots=["greedy"])
                await browser.close()
        finally:
            srv.stop()
    print(f"screenshots in {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
