"""The keyboard never falls off the game: Genius Idea and Brainiac rebuild their controls on
every update, and the focus stays on the same control or lands on the next useful one."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from browser_rooms import close_all, open_room
from support import ServerProcess


async def focus_in_game(page: Page) -> str:
    """The data-testid (or word) of the focused element inside the game; fails outside it."""
    await page.wait_for_function("() => !!document.activeElement && !!document.activeElement.closest('.game-root')")
    return str(
        await page.evaluate(
            "() => { const e = document.activeElement; "
            "return e.getAttribute('data-testid') || e.getAttribute('data-word'); }"
        )
    )


async def test_genius_idea_picking_a_riddle_by_keyboard_keeps_the_focus_and_sending_it_lands_on_the_prompt(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(browser, server.base, "genius-idea", ["Ada", "Grace"], phone_first=False)
    riddler = None
    for page in pages:
        await expect(page.get_by_test_id("gi-phase")).to_have_attribute("data-phase", "prepare")
        if await page.get_by_test_id("gi-prepare-submit").count():
            riddler = page
    assert riddler is not None
    cards = riddler.get_by_test_id("gi-prepare").locator("[data-word]")
    await cards.first.focus()
    for i in range(6):  # Enter picks (the answer, then five hints), Tab goes to the next card
        word = await cards.nth(i).get_attribute("data-word")
        await riddler.keyboard.press("Enter")
        # the view was rebuilt; the keyboard is still on the card it picked
        assert await focus_in_game(riddler) == word
        await expect(cards.nth(i)).to_have_attribute("aria-pressed", "true")
        await riddler.keyboard.press("Tab")
    await riddler.get_by_test_id("gi-prepare-submit").focus()
    await riddler.keyboard.press("Enter")
    await expect(riddler.get_by_test_id("gi-prepare-submit")).to_be_hidden()
    # nothing left to do: the keyboard waits on the prompt, not on the page's start
    assert await focus_in_game(riddler) == "gi-prompt"
    await close_all(pages)


async def test_brainiac_keeping_the_card_by_keyboard_lands_on_the_next_control(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(browser, server.base, "brainiac", ["Ada", "Grace", "Linus"], phone_first=False)
    page = pages[0]
    await page.get_by_test_id("bq-keep").focus()
    await page.keyboard.press("Enter")
    await expect(page.get_by_test_id("bq-trade-done")).to_be_visible()
    assert await focus_in_game(page) != "bq-keep"
    await close_all(pages)
