"""Ingenious played with the keyboard only: the rack and the board are one tab stop each, the
arrows move a cursor over the hexes, Enter lays the first colour and then the tile, and the
keyboard always lands on the next useful control (docs/rules/ingenious.md, "Keyboard")."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, expect

from browser_rooms import close_all, open_room
from support import ServerProcess

FOCUS_IS = "sel => !!document.activeElement && document.activeElement.matches(sel)"
NEXT_CONTROL = '[data-rack-index], [data-testid="ingenious-swap-yes"], [data-testid="ingenious-ranking"]'


async def focused_matches(page: Page, selector: str) -> bool:
    return bool(await page.evaluate(FOCUS_IS, selector))


async def tab_to(page: Page, selector: str, limit: int = 40) -> None:
    for _ in range(limit):
        if await focused_matches(page, selector):
            return
        await page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


async def keyboard_turn(page: Page, move: int) -> None:
    """One turn from the rack (or the swap question) with keys only."""
    await page.wait_for_function(FOCUS_IS, arg=NEXT_CONTROL)
    if await focused_matches(page, '[data-testid="ingenious-swap-yes"]'):
        # swap now and then; Tab reaches "Keep them" otherwise
        if move % 2:
            await page.keyboard.press("Tab")
            assert await focused_matches(page, '[data-testid="ingenious-swap-no"]')
        await page.keyboard.press("Enter")
        return
    for _ in range(move % 6):
        await page.keyboard.press("ArrowRight")  # along the rack
    assert await focused_matches(page, "[data-rack-index]")
    await page.keyboard.press("Enter")
    # the keyboard went to the board, on a cell where the tile may start
    cell = page.locator("[data-cell]:focus")
    await expect(cell).to_have_attribute("aria-label", re.compile(r"^row \d+, column \d+, empty, you can place here$"))
    # wander down a little with the arrows; step back up from a cell that can't take the tile
    for _ in range(move % 4):
        here = await cell.get_attribute("data-cell")
        await page.keyboard.press("ArrowDown")
        if await cell.get_attribute("data-cell") == here:
            break  # the bottom row
        if await cell.get_attribute("data-target") != "1":
            await page.keyboard.press("ArrowUp")
            await expect(cell).to_have_attribute("data-cell", here or "")
            break
    await expect(cell).to_have_attribute("data-target", "1")
    await page.keyboard.press("Enter")
    # the first colour is down; the preview says where the second goes and what it scores
    await expect(page.get_by_test_id("ingenious-preview")).to_have_attribute("data-gain", re.compile(r"^\{.*\}$"))
    if move % 3 == 0:
        await page.keyboard.press("ArrowUp")  # another direction, if one is free that way
    if move % 5 == 0:
        await page.keyboard.press("f")  # the colours swap places
    await page.keyboard.press("Enter")
    await page.wait_for_function(FOCUS_IS, arg=NEXT_CONTROL)


async def test_a_solo_game_is_played_to_the_end_with_the_keyboard_alone(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(browser, server.base, "ingenious", ["Ada"], options={"variant": "solo"}, phone_first=False)
    page = pages[0]
    await expect(page.get_by_test_id("ingenious-rack").locator("[data-rack-index]")).to_have_count(6)
    # from the top of the page, Tab reaches the board (one stop) and then the rack (one stop)
    await page.locator("body").focus()
    await tab_to(page, "[data-cell]")
    await page.keyboard.press("Tab")
    assert await focused_matches(page, "[data-rack-index]")
    status = page.get_by_test_id("ingenious-status")
    for move in range(200):
        if await page.get_by_test_id("ingenious-ranking").locator("li").count():
            break
        await keyboard_turn(page, move)
    else:
        raise AssertionError("the game did not end")
    await expect(status).to_contain_text("lowest colour is")
    # the game's end left the keyboard on the ranking, not the page's start
    assert await focused_matches(page, '[data-testid="ingenious-ranking"]')
    await close_all(pages)


async def test_escape_steps_back_from_the_second_colour_to_the_cursor_and_then_to_the_rack(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(browser, server.base, "ingenious", ["Ada"], options={"variant": "solo"}, phone_first=False)
    page = pages[0]
    first = page.get_by_test_id("ingenious-rack").locator("[data-rack-index]").first
    await first.focus()
    await page.keyboard.press("Enter")
    cell = page.locator("[data-cell]:focus")
    name = await cell.get_attribute("data-cell")
    await page.keyboard.press("Enter")
    await expect(page.locator(".ingenious-ghost")).to_have_count(2)
    await page.keyboard.press("Escape")
    await expect(page.locator(".ingenious-ghost")).to_have_count(0)
    await expect(cell).to_have_attribute("data-cell", name or "")
    # exactly one cell is in the tab order: the cursor
    await expect(page.locator('[data-cell][tabindex="0"]')).to_have_count(1)
    await page.keyboard.press("Escape")
    await expect(first).to_be_focused()
    await expect(first).to_have_attribute("aria-selected", "false")
    await close_all(pages)


async def test_a_screen_reader_hears_each_move_in_words_and_whose_turn_it_is(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(browser, server.base, "ingenious", ["Ada"], bots=["greedy"], phone_first=False)
    page = pages[0]
    bot = await page.get_by_test_id("seats").locator("li[data-seat='1'] .name").text_content()
    announcer = page.get_by_test_id("announcer")
    # the room has one polite live region for the game's news, and the game none of its own
    await expect(announcer).to_have_attribute("aria-live", "polite")
    assert await page.locator(".game-root [aria-live], .game-root [role=status]").count() == 0
    await expect(announcer).to_contain_text("Your turn: your first tile must touch a free start symbol.")
    await page.get_by_test_id("ingenious-rack").locator("[data-rack-index]").first.focus()
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    # the first colour is down: the keys to go on, and where the second colour would go
    await expect(announcer).to_contain_text(
        re.compile(r"\w+ on row \d+, column \d+, \w+ right: .*Enter places the tile\.")
    )
    await page.keyboard.press("Enter")
    gain = r"(no points|\+\d+ \w+(, \+\d+ \w+)*)"
    said = re.compile(
        rf"Ada placed \w+–\w+, {gain}.*{re.escape(bot or '')} placed \w+–\w+, {gain}Your turn: place a tile\.$"
    )
    await expect(announcer).to_have_text(said)
    await close_all(pages)
