"""Every game explains itself: a rules page linked from the home page, and a "How to play"
overlay in the room naming the game's roles, in German on a German page."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from browser_rooms import DESKTOP, close_all, open_room
from support import ServerProcess
from wsclient import make_room

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


# From the German rules templates (templates/rules/_<game>.de.html): the heading and the roles
# in German, and the English heading that must not stand in for them.
GERMAN_ROLES = {
    "genius-idea": ("Genius Idea in einer Minute", ["Rätselsteller", "Störenfried", "Löser"], "in one minute"),
    "brainiac": ("Brainiac or IDIOT! in einer Minute", ["Genie", "WHOAMI-Karte", "Beschuldigen"], "in one minute"),
}


async def test_the_rooms_how_to_play_overlay_is_in_german_on_a_german_page(
    server: ServerProcess, browser: Browser
) -> None:
    context = await browser.new_context(**DESKTOP)
    await context.add_cookies([{"name": "lang", "value": "de", "url": server.base}])
    page = await context.new_page()
    for game, (heading, roles, english) in GERMAN_ROLES.items():
        room_id, token, _ = await make_room(server.base, game=game)
        await context.add_cookies([{"name": f"gn_seat_{room_id}", "value": token, "url": server.base}])
        await page.goto(f"{server.base}/r/{room_id}")
        await expect(page.locator("html")).to_have_attribute("lang", "de")
        await page.get_by_test_id("how-to-play").click()
        dialog = page.get_by_test_id("rules-dialog")
        await expect(dialog).to_be_visible()
        await expect(dialog.locator("h2")).to_have_text(heading)
        for word in roles:
            await expect(dialog).to_contain_text(word)
        await expect(dialog).not_to_contain_text(english)
        await expect(page.get_by_test_id("rules-close")).to_have_text("Schließen")
        await page.get_by_test_id("rules-close").click()
        await expect(dialog).to_be_hidden()
    await context.close()
