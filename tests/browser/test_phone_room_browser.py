"""The room page on a 390 px touch phone: Game / Chat / Room tabs, a zoomable Ingenious board
big enough to tap, and the rack in a bar at the bottom of the screen, next to the board."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect
from test_ingenious_browser import take_turn

from support import ServerProcess


async def hex_width(page: Page) -> float:
    """A hex's width on screen in CSS px, corner to corner across its flat sides."""
    return float(await page.locator(".ingenious-hex").first.evaluate("e => e.getBoundingClientRect().width"))


async def test_on_a_phone_the_board_zooms_to_a_tappable_size_the_rack_stays_in_reach_and_chat_is_a_tab(
    server: ServerProcess, browser: Browser
) -> None:
    phone_ctx = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    laptop_ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    host = await phone_ctx.new_page()
    guest = await laptop_ctx.new_page()

    await host.goto(server.base + "/")
    await host.get_by_test_id("game-ingenious").check(force=True)
    await host.get_by_test_id("host-name").fill("Ada")
    await host.get_by_test_id("create-room").tap()
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    # the lobby opens on the room's details: the seats and the Start button
    await expect(host.get_by_test_id("tab-room")).to_have_attribute("aria-selected", "true")
    await expect(host.get_by_test_id("start")).to_be_visible()
    await guest.goto(await host.get_by_test_id("invite-url").input_value())
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(host.get_by_test_id("seats").locator("li")).to_have_count(2)
    # on a laptop there are no tabs: the chat and the room's details stay beside the game
    await expect(guest.get_by_test_id("room-tabs")).to_be_hidden()
    await host.get_by_test_id("start").tap()

    # the game opens on the board, the rest behind their tabs
    await expect(host.get_by_test_id("tab-game")).to_have_attribute("aria-selected", "true")
    board = host.get_by_test_id("ingenious-board")
    await expect(board).to_be_visible()
    await expect(host.get_by_test_id("chat-input")).to_be_hidden()
    await expect(host.get_by_test_id("seats")).to_be_hidden()
    await expect(guest.get_by_test_id("chat-input")).to_be_visible()

    # zoomed in, a hex is big enough for a fingertip
    before = await hex_width(host)
    await host.get_by_test_id("ingenious-zoom-in").tap()
    await expect(host.get_by_test_id("ingenious-zoom-level")).to_have_text("150%")
    assert await hex_width(host) >= 36 > before
    # the rack is on screen together with the board, with no scrolling
    rack = host.get_by_test_id("ingenious-rack")
    await expect(rack.locator("[data-rack-index]")).to_have_count(6)
    await expect(rack).to_be_in_viewport()
    await expect(host.get_by_test_id("ingenious-scores")).to_be_in_viewport()
    await expect(board).to_be_in_viewport()

    # a move by tapping: a tile, a highlighted cell, a neighbour, Place
    status = host.get_by_test_id("ingenious-status")
    for n in range(20):
        if (await status.text_content() or "").startswith("Your turn"):
            break
        await take_turn(guest, n)
        await host.wait_for_timeout(100)
    await expect(status).to_contain_text("Your turn")
    await rack.locator("[data-rack-index]").first.tap()
    await host.locator('[data-cell][data-target="1"]').first.tap()
    await host.locator('[data-cell][data-target="1"]').first.tap()
    await expect(host.get_by_test_id("ingenious-confirm")).to_be_in_viewport()
    await host.get_by_test_id("ingenious-confirm").tap()
    placed = host.get_by_test_id("ingenious-log").locator('[data-event="place"]')
    await expect(placed.first).to_contain_text("Ada placed")

    # a message from a friend: a badge on the Chat tab; the tab shows the chat instead of the board
    await guest.get_by_test_id("chat-input").fill("nice move")
    await guest.get_by_test_id("chat-input").press("Enter")
    await expect(host.get_by_test_id("chat-badge")).to_have_text("1")
    await host.get_by_test_id("tab-chat").tap()
    await expect(host.get_by_test_id("chat-log")).to_contain_text("nice move")
    await expect(host.get_by_test_id("chat-log")).to_be_visible()
    await expect(board).to_be_hidden()
    await expect(rack).to_be_hidden()
    await expect(host.get_by_test_id("chat-badge")).to_be_hidden()
    # and back to the board
    await host.get_by_test_id("tab-game").tap()
    await expect(board).to_be_visible()
    await phone_ctx.close()
    await laptop_ctx.close()
