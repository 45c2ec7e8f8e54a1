"""The Riddler re-orders the revealed hints in real Chromium: by dragging a hint's handle with
real pointer events, with the up/down buttons and with the keyboard. The order sent reaches
the server and comes back, in exactly that order, to every player's page."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Locator, Page, expect

from browser_rooms import close_all, open_room
from support import ServerProcess

DRAGGING = re.compile(r"\bgi-dragging\b")


def hint_items(page: Page) -> Locator:
    return page.get_by_test_id("gi-hint-list").locator("[data-revealed-word]")


async def expect_order(page: Page, words: list[str]) -> None:
    """The page's revealed-hint list shows exactly ``words``, in this order (auto-waiting)."""
    items = hint_items(page)
    await expect(items).to_have_count(len(words))
    await expect(page.get_by_test_id("gi-hint-list").locator(".gi-hint-word")).to_have_text(words)
    for i, word in enumerate(words):
        await expect(items.nth(i)).to_have_attribute("data-revealed-word", word)
        await expect(items.nth(i)).to_have_attribute("data-index", str(i))


async def expect_phase(pages: list[Page], phase: str) -> None:
    for page in pages:
        await expect(page.get_by_test_id("gi-phase")).to_have_attribute("data-phase", phase)


async def prepare(page: Page) -> None:
    cards = page.get_by_test_id("gi-prepare").locator("[data-word]")
    await expect(cards).to_have_count(10)
    for i in range(6):  # the first tap picks the answer, the next five the hints
        await cards.nth(i).click()
    await page.get_by_test_id("gi-prepare-submit").click()
    await expect(page.get_by_test_id("gi-prepare-submit")).to_be_hidden()


async def drag_to_top(page: Page, word: str, target: str) -> None:
    """Press the mouse on ``word``'s drag handle, move in small steps to above ``target``'s
    middle and let go: pointerdown, pointermove ... pointerup, as a person's mouse does."""
    item = page.locator(f'[data-testid="gi-hint-list"] [data-revealed-word="{word}"]')
    await page.get_by_test_id("gi-hint-list").scroll_into_view_if_needed()
    handle = await item.locator(".gi-drag").bounding_box()
    goal = await page.locator(f'[data-testid="gi-hint-list"] [data-revealed-word="{target}"]').bounding_box()
    assert handle is not None and goal is not None
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await expect(item).to_have_class(DRAGGING)
    await page.mouse.move(x, goal["y"] + goal["height"] * 0.2, steps=12)
    await page.mouse.up()
    await expect(item).not_to_have_class(DRAGGING)


async def test_riddler_reorders_by_drag_buttons_and_keys(server: ServerProcess, browser: Browser) -> None:
    # competitive, three people: seat 0 (Ada) is Riddler, seat 1 (Grace) Disruptor, seat 2 (Linus) Solver
    pages = await open_room(
        browser, server.base, "genius-idea", ["Ada", "Grace", "Linus"], options={"mode": "competitive"}
    )
    riddler, disruptor, solver = pages
    for page in pages:
        await prepare(page)
    await expect_phase(pages, "reveal")
    await expect(riddler.get_by_test_id("gi-role-0")).to_have_text("Riddler")
    await expect(disruptor.get_by_test_id("gi-role-1")).to_have_text("Disruptor")

    # three hints out: reveal, pass, reveal, (order as is), pass, reveal
    await disruptor.get_by_test_id("gi-reveal").first.click()
    await expect_phase(pages, "guess")
    await solver.get_by_test_id("gi-pass").click()
    await expect_phase(pages, "reveal")
    await disruptor.get_by_test_id("gi-reveal").first.click()
    await expect_phase(pages, "order")
    await riddler.get_by_test_id("gi-order-submit").click()
    await expect_phase(pages, "guess")
    await solver.get_by_test_id("gi-pass").click()
    await expect_phase(pages, "reveal")
    await disruptor.get_by_test_id("gi-reveal").first.click()
    await expect_phase(pages, "order")
    await expect(hint_items(riddler)).to_have_count(3)
    await expect(riddler.get_by_test_id("gi-order-submit")).to_be_enabled()
    a, b, c = await hint_items(riddler).evaluate_all("els => els.map(e => e.dataset.revealedWord)")
    for page in pages:
        await expect_order(page, [a, b, c])

    # 1. drag the last hint by its handle to the top
    await drag_to_top(riddler, c, a)
    await expect_order(riddler, [c, a, b])

    # 2. a button: b one up; the focus follows b's "up" button
    await riddler.locator(f'[data-testid="gi-move-up"][data-word="{b}"]').click()
    await expect_order(riddler, [c, b, a])
    up_b = riddler.locator(f'[data-testid="gi-move-up"][data-word="{b}"]')
    await expect(up_b).to_be_focused()

    # 3. the keyboard: Enter on the focused button moves b up once more
    await riddler.keyboard.press("Enter")
    await expect_order(riddler, [b, c, a])
    # the draft is local: nobody else has seen it yet
    for page in (disruptor, solver):
        await expect_order(page, [a, b, c])

    # send it: the server's order reaches every page, the Riddler's own included
    await riddler.get_by_test_id("gi-order-submit").click()
    await expect_phase(pages, "guess")
    await expect(riddler.get_by_test_id("gi-order-submit")).to_have_count(0)
    await expect(riddler.locator(".gi-drag")).to_have_count(0)
    for page in pages:
        await expect_order(page, [b, c, a])
    await close_all(pages)
