"""Brainiac or IDIOT! played whole by three people in real Chromium."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest
from playwright.async_api import Browser, Page, expect
from playwright.async_api import Error as PlaywrightError

from browser_rooms import (
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
from wsclient import host_post, join, make_room


async def step(page: Page, n: int) -> bool:
    try:
        if await can_use(page, '[data-testid="bq-keep"]'):
            await press(page.get_by_test_id("bq-trade" if n == 0 else "bq-keep"))
            return True
        asks = page.locator('[data-testid^="bq-ask-"]:not([disabled])')
        if await asks.count() and await asks.first.is_visible():
            await press(asks.first)
            return True
        if await can_use(page, '[data-testid="bq-answer-input"]'):
            identity = await page.get_by_test_id("bq-identity").get_attribute("data-identity")
            # an IDIOT must answer wrong; a Brainiac tries (we type a guess, not the answer)
            text = "definitely not it" if identity == "idiot" else f"my best guess {n}"
            await page.get_by_test_id("bq-answer-input").fill(text)
            await press(page.get_by_test_id("bq-answer-submit"))
            await expect(page.get_by_test_id("bq-answer-input")).to_be_hidden()
            return True
        if await can_use(page, '[data-testid="bq-judge-confirm"]'):
            overrides = page.locator('[data-testid^="bq-override-"]')
            if n % 2 == 0 and await overrides.count():
                await press(overrides.first)  # the Genius overrules one verdict
            await press(page.get_by_test_id("bq-judge-confirm"))
            return True
        if await can_use(page, '[data-testid="bq-accuse-none"]'):
            targets = page.locator('[data-testid^="bq-accuse-"]:not([data-testid="bq-accuse-none"]):not([disabled])')
            if n % 2 == 1 and await targets.count():
                await press(targets.first)
            else:
                await press(page.get_by_test_id("bq-accuse-none"))
            return True
    except PlaywrightError:
        return False
    return False


@pytest.mark.parametrize("device", ["desktop", "phone"])
async def test_three_players_play_a_whole_game_to_the_result(
    server: ServerProcess, browser: Browser, device: str
) -> None:
    phone = device == "phone"
    names = ["Ada", "Grace", "Linus"]
    pages = await open_room(browser, server.base, "brainiac", names, phone_first=phone)
    if phone:
        await no_sideways_scroll(pages[0])
        await chat_by_tab(pages[0], "who is the IDIOT?")
    # each player's identity is their own secret
    for page in pages:
        await expect(page.get_by_test_id("bq-card")).to_be_visible()
    # the card names its four levels in words, easy to very hard
    await expect(pages[0].get_by_test_id("bq-card").locator(".bq-level")).to_have_text(
        ["easy", "medium", "hard", "very hard"], ignore_case=True
    )
    reveals = 0
    for n in range(800):
        if await pages[0].get_by_test_id("bq-result").is_visible():
            break
        acted = False
        if phone and n % 10 == 0:
            await no_sideways_scroll(pages[0])
        if reveals == 0 and await can_use(pages[0], '[data-testid="reveal-continue"]'):
            # round 1's reveal stops the table until all three have pressed Continue
            await expect(pages[0].get_by_test_id("bq-reveal-screen")).to_contain_text("Answer:")
            await reveal_waits_for_everyone(pages, names)
            for page in pages:
                await expect(page.get_by_test_id("bq-round")).to_contain_text("Round 2 of")
            reveals = 3
            continue
        for page in pages:
            if reveals and await continue_reveal(page):  # a round's reveal screen stops the table
                reveals += 1
                acted = True
            acted = await step(page, n) or acted
        if not acted:
            await pages[0].wait_for_timeout(50)
    assert reveals >= 3 * 5  # every finished round, for each of the three (at least 5 rounds)
    for page in pages:
        await expect(page.get_by_test_id("bq-result")).to_be_visible()
        await expect(page.get_by_test_id("bq-reveal")).to_be_visible()
        # once the game is over nobody is the Genius any more in the score list
        await expect(page.locator(".bq-player .bq-tag-genius")).to_have_count(0)
        # a screen reader heard the questions, verdicts, accusations and results in words
        said = page.get_by_test_id("announcer")
        await expect(said).to_contain_text(re.compile(r"Round \d+( \(tie-break\))? result: .* asked “"))
        await expect(said).to_contain_text(re.compile(r"(wins!|Shared win: .*)$"))
    if phone:
        await no_sideways_scroll(pages[0])
    await close_all(pages)


async def test_the_replay_steps_through_a_rounds_reveal_without_a_continue_button(
    server: ServerProcess, browser: Browser
) -> None:
    # the host and two bots; the host steps away, so bots play the whole game (and continue at once)
    room_id, token, _ = await make_room(server.base, game="brainiac")
    for _ in range(2):
        assert (await host_post(server.base, room_id, token, "/bots", {})).status_code == 200
    start = await host_post(server.base, room_id, token, "/start")
    assert start.status_code == 200, start.text
    assert (await host_post(server.base, room_id, token, "/away")).status_code == 200
    async with httpx.AsyncClient(base_url=server.base) as c:
        for _ in range(600):
            room = (await c.get(f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {token}"})).json()
            if room["status"] == "finished":
                break
            await asyncio.sleep(0.05)
    assert room["status"] == "finished"
    context = await browser.new_context()
    await context.add_cookies([{"name": f"gn_seat_{room_id}", "value": token, "url": server.base}])
    page = await context.new_page()
    await page.goto(f"{server.base}/r/{room_id}/replay/{start.json()['game_id']}")
    board = page.get_by_test_id("replay-board")
    await expect(board.get_by_test_id("bq-status")).to_contain_text("keep or trade")
    for _ in range(40):  # step on to round 1's reveal: everyone still to continue
        if await board.get_by_test_id("reveal").is_visible():
            break
        await page.get_by_test_id("replay-next").click()
    await expect(board.get_by_test_id("reveal-title")).to_have_text("Round 1: the reveal")
    await expect(board.get_by_test_id("bq-reveal-screen")).to_contain_text("Answer:")
    await expect(board.get_by_test_id("reveal-waiting")).to_contain_text("Waiting for Host")
    await expect(board.get_by_test_id("reveal-continue")).to_have_count(0)
    await expect(board.get_by_test_id("reveal-count")).to_have_count(0)  # no clock in a replay
    for _ in range(3):  # the three Continues, then round 2
        await page.get_by_test_id("replay-next").click()
    await expect(page.get_by_test_id("replay-move")).to_contain_text("ready")
    await expect(board.get_by_test_id("reveal")).to_be_hidden()
    await expect(board.get_by_test_id("bq-round")).to_contain_text("Round 2 of")
    await context.close()

    # the admin's replay of the same game steps through the same reveal, seen as any seat
    admin = await browser.new_page()
    await admin.goto(f"{server.base}/admin")
    await admin.get_by_test_id("admin-token").fill("t" * 32)  # support.ServerProcess's admin token
    await admin.get_by_test_id("admin-login").click()
    await admin.get_by_test_id("rooms-table").wait_for()
    await admin.goto(f"{server.base}/admin/games/{start.json()['game_id']}")
    board = admin.get_by_test_id("replay-board")
    await admin.get_by_test_id("replay-view-as").select_option("seat:0")
    for _ in range(40):
        if await board.get_by_test_id("reveal").is_visible():
            break
        await admin.get_by_test_id("replay-next").click()
    await expect(board.get_by_test_id("reveal-title")).to_have_text("Round 1: the reveal")
    await expect(board.get_by_test_id("reveal-continue")).to_have_count(0)
    for _ in range(3):
        await admin.get_by_test_id("replay-next").click()
    await expect(board.get_by_test_id("reveal")).to_be_hidden()
    await expect(board.get_by_test_id("bq-round")).to_contain_text("Round 2 of")
    await admin.context.close()


async def test_two_people_overturn_a_bot_geniuses_verdict_before_the_accusations(
    server: ServerProcess, browser: Browser
) -> None:
    """Host and Grace play with a bot Genius (seat 2). The bot's judge rules Host's "the calm
    eye" wrong; Grace disputes it, which is a majority of the people other than Host, so it
    is overturned: right, +2, and the reveal says who disputed and that the table overturned it."""
    hurricane = {"q": "What is the calm centre of a hurricane called?", "a": ["Eye", "The eye"]}
    cards = [[{**hurricane, "q": f"{hurricane['q']} ({c}.{j})"} for j in range(4)] for c in range(6)]
    options = {"cards": cards, "shuffle": False, "whoami": ["brainiac"] * 12, "first_genius": 2}
    room_id, token, invite = await make_room(server.base, game="brainiac", options=options)
    grace = (await join(server.base, invite, "Grace"))["token"]
    assert (await host_post(server.base, room_id, token, "/bots", {})).status_code == 200
    start = await host_post(server.base, room_id, token, "/start")
    assert start.status_code == 200, start.text
    pages: list[Page] = []
    for seat_token in (token, grace):
        context = await browser.new_context()
        await context.add_cookies([{"name": f"gn_seat_{room_id}", "value": seat_token, "url": server.base}])
        pages.append(await context.new_page())
        await pages[-1].goto(f"{server.base}/r/{room_id}")
    host, guest = pages
    for page in pages:
        await press(page.get_by_test_id("bq-keep"))
    for page, text in ((host, "the calm eye"), (guest, "no idea")):
        await page.get_by_test_id("bq-answer-input").fill(text)
        await press(page.get_by_test_id("bq-answer-submit"))
    # the bot Genius has judged: both people may dispute the other's verdict, never their own
    for page, other, own in ((host, 1, 0), (guest, 0, 1)):
        await expect(page.get_by_test_id("bq-status")).to_contain_text("dispute any verdict")
        await expect(page.get_by_test_id(f"bq-dispute-{other}")).to_be_visible()
        await expect(page.get_by_test_id(f"bq-dispute-{own}")).to_have_count(0)
        await expect(page.get_by_test_id("bq-answer-0")).to_contain_text("✗ wrong")
    await press(guest.get_by_test_id("bq-dispute-0"))
    # Grace has disputed all she can; Host is asked to finish
    await expect(host.get_by_test_id("bq-disputed-0")).to_have_text("disputed by Grace")
    await expect(guest.get_by_test_id("bq-dispute-done")).to_have_count(0)
    await press(host.get_by_test_id("bq-dispute-done"))
    for page in pages:
        await expect(page.get_by_test_id("bq-answer-0")).to_contain_text("✓ right (overturned by the table)")
        await expect(page.get_by_test_id("bq-score-0")).to_have_text("2")
    # the accusations: the bot first, then Host (Grace has nobody wrong to accuse)
    await press(host.get_by_test_id("bq-accuse-none"))
    for page in pages:
        await expect(page.get_by_test_id("bq-reveal-screen")).to_be_visible()
        await expect(page.get_by_test_id("bq-overturned-0")).to_have_text("overturned by the table")
        await expect(page.get_by_test_id("bq-reveal-0")).to_contain_text("disputed by Grace")
    await close_all(pages)
