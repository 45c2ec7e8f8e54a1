"""Every game explains itself: a rules page linked from the home page, and a "How to play"
overlay in the room naming the game's roles."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from browser_rooms import close_all, open_room
from support import ServerProcess

ROLES = {
    "genius-idea": ["Riddler", "Disruptor", "Solver"],
    "brainiac": ["Genius", "WHOAMI", "Brainiac", "IDIOT!"],
    "ingenious": ["lowest", "Ingenious!", "start symbol"],
}


async def test_the_home_page_links_a_rules_page_for_each_game(server: ServerProcess, browser: Browser) -> None:
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    for game, words in ROLES.items():
        await page.goto(server.base + "/")
        await page.get_by_test_id(f"rules-{game}").click()
        await expect(page).to_have_url(server.base + f"/rules/{game}")
        for word in words:
            await expect(page.get_by_test_id("rules")).to_contain_text(word)
    response = await page.goto(server.base + "/rules/no-such-game")
    assert response is not None and response.status == 404
    await page.context.close()


async def test_the_room_has_a_how_to_play_overlay(server: ServerProcess, browser: Browser) -> None:
    pages = await open_room(browser, server.base, "genius-idea", ["Ada"], bots=["sharp", "sharp"], start=False)
    page = pages[0]
    await expect(page.get_by_test_id("rules-dialog")).to_be_hidden()
    await page.get_by_test_id("how-to-play").click()
    dialog = page.get_by_test_id("rules-dialog")
    await expect(dialog).to_be_visible()
    for word in ROLES["genius-idea"]:
        await expect(dialog).to_contain_text(word)
    await page.get_by_test_id("rules-close").click()
    await expect(dialog).to_be_hidden()
    await close_all(pages)
