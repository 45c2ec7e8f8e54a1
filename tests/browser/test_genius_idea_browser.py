"""Genius Idea played whole in real Chromium: riddles, reveals, re-ordering and the race."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect
from playwright.async_api import Error as PlaywrightError

from browser_rooms import (
    PHONES,
    can_use,
    chat_by_tab,
    close_all,
    continue_reveal,
    no_sideways_scroll,
    open_room,
    press,
    reveal_waits_for_everyone,
)
from support import ServerProcess


async def step(page: Page, n: int) -> bool:
    """Do whatever this person may do now, as a person would. True if they acted."""
    try:
        if (
            await can_use(page, '[data-testid="gi-prepare"]')
            and await page.locator('[data-testid="gi-prepare-submit"]').is_visible()
        ):
            cards = page.locator('[data-testid="gi-prepare"] [data-word]')
            await expect(cards).to_have_count(10)
            for i in range(6):  # the first tap picks the answer, the next five the hints
                await press(cards.nth(i))
            await press(page.get_by_test_id("gi-prepare-submit"))
            await expect(page.get_by_test_id("gi-prepare-submit")).to_be_hidden()
            return True
        if await can_use(page, '[data-testid="gi-reveal"]'):
            await press(page.get_by_test_id("gi-reveal").first)
            return True
        if await can_use(page, '[data-testid="gi-order-submit"]'):
            if await can_use(page, '[data-testid="gi-move-down"]'):
                await press(page.get_by_test_id("gi-move-down").first)  # re-order with a button
            await press(page.get_by_test_id("gi-order-submit"))
            return True
        if await page.get_by_test_id("gi-guess-confirm").is_visible():
            if n % 3 == 0 and await can_use(page, '[data-testid="gi-pass"]'):
                await press(page.get_by_test_id("gi-pass"))
                return True
            cards = page.locator("[data-public-word]:not([disabled])")
            count = await cards.count()
            if count == 0:
                return False
            await press(cards.nth(n % count))
            await press(page.get_by_test_id("gi-guess-confirm"), timeout=2000)
            return True
    except PlaywrightError:
        return False  # the view moved on under our fingers; look again
    return False


async def screen_name(page: Page) -> str:
    """Which of the game's screens this page shows now (for checking each once)."""
    for testid in (
        "reveal-continue",
        "gi-prepare-submit",
        "gi-reveal",
        "gi-order-submit",
        "gi-guess-confirm",
        "gi-result",
    ):
        if await can_use(page, f'[data-testid="{testid}"]'):
            return testid
    return "waiting"


async def play_to_the_end(pages: list[Page], limit: int = 600, first_reveal: list[str] | None = None) -> int:
    """Play on until the result shows; returns how many reveal screens were closed. A phone
    host is checked for sideways overflow on each screen they meet. With ``first_reveal`` (the
    players' names) round 1's reveal is checked to wait for everyone's Continue."""
    reveals = 0
    seen: set[str] = set()
    for n in range(limit):
        if pages[0] in PHONES:
            screen = await screen_name(pages[0])
            if screen not in seen:
                seen.add(screen)
                await no_sideways_scroll(pages[0])
        if await pages[0].get_by_test_id("gi-result").is_visible():
            return reveals
        if first_reveal and not reveals and await can_use(pages[0], '[data-testid="reveal-continue"]'):
            await expect(pages[0].get_by_test_id("gi-reveal-screen")).to_contain_text("answer was")
            await reveal_waits_for_everyone(pages, first_reveal)
            for page in pages:
                await expect(page.get_by_test_id("gi-round")).to_have_text(f"Round 2 of {len(pages)}")
            reveals = len(pages)
            continue
        acted = False
        for page in pages:
            # a finished riddle's reveal screen (round 1's is checked above, when asked to)
            if (reveals or not first_reveal) and await continue_reveal(page):
                reveals += 1
                acted = True
            acted = await step(page, n) or acted
        if not acted:
            await pages[0].wait_for_timeout(50)
    raise AssertionError("the game did not end")


async def test_three_players_play_a_whole_competitive_game(server: ServerProcess, browser: Browser) -> None:
    names = ["Ada", "Grace", "Linus"]
    pages = await open_room(browser, server.base, "genius-idea", names, phone_first=False)
    # everyone prepares a riddle from their own 10 cards
    for page in pages:
        await expect(page.get_by_test_id("gi-prepare").locator("[data-word]")).to_have_count(10)
    reveals = await play_to_the_end(pages, first_reveal=names)
    assert reveals >= 3 * 2  # the rounds before the last, for each of the three
    for page in pages:
        await expect(page.get_by_test_id("gi-result")).to_be_visible()
        await expect(page.get_by_test_id("gi-history").locator("[data-round]")).to_have_count(3)
    await close_all(pages)


@pytest.mark.parametrize("device", ["desktop", "phone"])
async def test_two_players_play_a_whole_coop_game(server: ServerProcess, browser: Browser, device: str) -> None:
    pages = await open_room(browser, server.base, "genius-idea", ["Ada", "Grace"], phone_first=device == "phone")
    if device == "phone":
        await chat_by_tab(pages[0], "ready?")
    await play_to_the_end(pages)
    for page in pages:
        await expect(page.get_by_test_id("gi-result")).to_be_visible()
        await expect(page.get_by_test_id("gi-history").locator("[data-round]")).to_have_count(4)
        # a screen reader heard the last round's result and the game's, in words
        said = page.get_by_test_id("announcer")
        await expect(said).to_contain_text(re.compile(r"Round 4: (unsolved|.* solved it)"))
        await expect(said).to_contain_text(re.compile(r"Game over\. (You win the challenge!|Challenge lost\.)"))
    await close_all(pages)
