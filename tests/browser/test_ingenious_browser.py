"""Ingenious played whole in real Chromium, tile by tile, the way people do."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect
from playwright.async_api import Error as PlaywrightError

from browser_rooms import chat_by_tab, close_all, no_sideways_scroll, open_room, press
from support import ServerProcess


async def take_turn(page: Page, move: int) -> bool:
    """If it is this page's turn, place a tile (or answer the swap prompt). True if it acted."""
    try:
        return await _take_turn(page, move)
    except PlaywrightError:
        return False  # the board was locked or moved on under our fingers (e.g. a bonus turn): look again


async def _take_turn(page: Page, move: int) -> bool:
    status = await page.get_by_test_id("ingenious-status").text_content() or ""
    if not status.startswith("Your turn"):
        return False
    if "swap" in status:
        # swap now and then, keep the tiles otherwise
        await press(page.get_by_test_id("ingenious-swap-yes" if move % 3 == 0 else "ingenious-swap-no"), timeout=3000)
        return True
    rack = page.get_by_test_id("ingenious-rack").locator("[data-rack-index]")
    tiles = await rack.count()
    if not tiles:
        return False  # the view moved on (the game just ended)
    await press(rack.nth(move % tiles), timeout=3000)
    targets = page.locator('[data-cell][data-target="1"]')
    await expect(targets.first).to_be_attached(timeout=3000)
    await press(targets.nth(move % await targets.count()), timeout=3000)
    partners = page.locator('[data-cell][data-target="1"]')
    await expect(partners.first).to_be_attached(timeout=3000)
    await press(partners.first, timeout=3000)
    # the preview of the points shows before the tile is confirmed
    await expect(page.get_by_test_id("ingenious-preview")).to_have_attribute("data-gain", re.compile(r"^\{.*\}$"))
    await press(page.get_by_test_id("ingenious-confirm"), timeout=3000)
    return True


async def play_to_the_end(pages: list[Page], limit: int = 400) -> None:
    for move in range(limit):
        if await pages[0].get_by_test_id("ingenious-ranking").locator("li").count():
            return
        acted = False
        for page in pages:
            if await take_turn(page, move):
                acted = True
                await page.wait_for_timeout(30)
        if not acted:
            await pages[0].wait_for_timeout(60)
    raise AssertionError("the game did not end")


async def hex_width(page: Page) -> float:
    """A hex's width on screen in CSS px, corner to corner across its flat sides."""
    return float(await page.locator(".ingenious-hex").first.evaluate("e => e.getBoundingClientRect().width"))


@pytest.mark.parametrize("device", ["desktop", "phone"])
async def test_two_players_play_a_whole_game_to_the_ranking(
    server: ServerProcess, browser: Browser, device: str
) -> None:
    phone = device == "phone"
    pages = await open_room(browser, server.base, "ingenious", ["Ada", "Grace"], phone_first=phone)
    for page in pages:
        await expect(page.get_by_test_id("ingenious-board")).to_be_visible()
        await expect(page.get_by_test_id("ingenious-rack").locator("[data-rack-index]")).to_have_count(6)
    if phone:
        host = pages[0]
        await no_sideways_scroll(host)
        # zoomed in until a hex takes a fingertip; the game is then played by tapping at that size
        while await hex_width(host) < 40:
            await press(host.get_by_test_id("ingenious-zoom-in"))
        await no_sideways_scroll(host)
        await chat_by_tab(host, "good luck")
        await expect(pages[1].get_by_test_id("chat-log")).to_contain_text("good luck")
    await play_to_the_end(pages)
    for page in pages:
        await expect(page.get_by_test_id("ingenious-status")).to_contain_text("Game over")
        rows = page.get_by_test_id("ingenious-ranking").locator("li")
        await expect(rows).to_have_count(2)
        # each row says its place (a tie shares one) and the winner's row says so beside the name
        await expect(rows.first.locator(".ingenious-rank-place")).to_have_text("1.")
        await expect(rows.locator(".ingenious-rank-place").nth(1)).to_have_text(re.compile(r"^[12]\.$"))
        await expect(rows.first.locator(".ingenious-rank-badge")).to_have_text("wins")
    if phone:
        assert await hex_width(pages[0]) >= 40
        await no_sideways_scroll(pages[0])
    await close_all(pages)


async def test_solo_plays_against_the_board_to_the_end(server: ServerProcess, browser: Browser) -> None:
    pages = await open_room(browser, server.base, "ingenious", ["Ada"], options={"variant": "solo"})
    await play_to_the_end(pages)
    await expect(pages[0].get_by_test_id("ingenious-status")).to_contain_text("lowest colour is")
    await close_all(pages)
