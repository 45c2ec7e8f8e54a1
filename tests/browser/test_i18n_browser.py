"""A German browser gets the room in German, switches to English on the page, and plays on."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from browser_rooms import play_count21_to_the_end, press
from support import ServerProcess


async def test_a_german_browser_sees_the_room_in_german_switches_to_english_and_plays(
    server: ServerProcess, browser: Browser
) -> None:
    host_ctx = await browser.new_context(locale="de-DE")
    guest_ctx = await browser.new_context()  # Playwright's default: an English browser
    host = await host_ctx.new_page()
    guest = await guest_ctx.new_page()

    await host.goto(server.base + "/")
    await expect(host.locator("html")).to_have_attribute("lang", "de")
    await expect(host.get_by_test_id("create-room")).to_have_text("Raum eröffnen")
    await host.get_by_test_id("game-count21").check(force=True)
    await host.get_by_test_id("host-name").fill("Ada")
    await press(host.get_by_test_id("create-room"))
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    # the chrome is German, from the first render and from the scripts
    await expect(host.get_by_test_id("start")).to_have_text("Spiel starten")
    await expect(host.get_by_test_id("add-bot")).to_have_text("Bot hinzufügen")
    await expect(host.get_by_test_id("room-status")).to_contain_text("Warten auf Mitspieler")
    await expect(host.get_by_test_id("connection")).to_contain_text("live")
    await expect(host.get_by_test_id("tab-chat")).to_have_text("Chat")
    await expect(host.get_by_test_id("copy-invite")).to_have_text("Einladung kopieren")

    invite = await host.get_by_test_id("invite-url").input_value()
    await guest.goto(invite)
    await expect(guest.locator("html")).to_have_attribute("lang", "en")
    await expect(guest.get_by_test_id("join-title")).to_contain_text("Join Ada’s game")
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(guest.get_by_test_id("start")).to_be_hidden()
    await expect(guest.get_by_test_id("guest-note")).to_have_text("Waiting for Ada to start the game.")
    # a name is shown as typed, in either language
    await expect(host.get_by_test_id("seats")).to_contain_text("Grace")
    await expect(host.get_by_test_id("seats")).to_contain_text("du")

    # the switch: the page comes back in English, and stays so on the next visit
    await expect(host.get_by_test_id("lang-de")).to_have_attribute("aria-pressed", "true")
    await press(host.get_by_test_id("lang-en"))
    await expect(host.locator("html")).to_have_attribute("lang", "en")
    await expect(host.get_by_test_id("start")).to_have_text("Start game")
    await expect(host.get_by_test_id("room-status")).to_contain_text("Waiting for players")
    await expect(host.get_by_test_id("lang-en")).to_have_attribute("aria-pressed", "true")
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")

    await press(host.get_by_test_id("start"))
    for page in (host, guest):
        await expect(page.get_by_test_id("room-status")).to_contain_text("Playing")
    await play_count21_to_the_end([host, guest])
    await expect(host.get_by_test_id("room-status")).to_contain_text("Game over")

    await host.goto(server.base + "/")
    await expect(host.get_by_test_id("create-room")).to_have_text("Create room")
    await host_ctx.close()
    await guest_ctx.close()


async def test_a_german_browser_sees_the_game_board_in_german_and_names_as_typed(
    server: ServerProcess, browser: Browser
) -> None:
    ctx = await browser.new_context(locale="de-DE")
    page = await ctx.new_page()
    await page.goto(server.base + "/")
    await page.get_by_test_id("game-ingenious").check(force=True)
    await expect(page.get_by_test_id("game-ingenious").locator("..")).to_contain_text("Einfach Genial")
    await page.get_by_test_id("host-name").fill("Grace the Great")
    await press(page.get_by_test_id("create-room"))
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await press(page.get_by_test_id("add-bot"))
    await expect(page.get_by_test_id("seats").locator("li")).to_have_count(2)
    await press(page.get_by_test_id("start"))
    await expect(page.get_by_test_id("room-status")).to_contain_text("Im Spiel")
    await expect(page.get_by_test_id("ingenious-status")).to_contain_text("Du bist dran")
    await expect(page.get_by_test_id("ingenious-confirm")).to_have_text("Legen")
    await expect(page.get_by_test_id("seats")).to_contain_text("Grace the Great")
    await ctx.close()
