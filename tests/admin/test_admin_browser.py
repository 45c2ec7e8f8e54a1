"""The admin console and the replay player in real Chromium against ``geniusnight serve``.

A toy game (count21) is played to the end over HTTP and the websocket, then an admin logs
in, opens the finished game and steps through its replay; a player opens the same replay
from their seat cookie. The first server has no board module for count21, so the replay
falls back to its readable JSON view; the second serves the tests' count21.js board.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from support import TESTS, ServerProcess
from wsclient import Player, host_post, join, make_room

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("GENIUSNIGHT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOKEN = "t" * 32  # support.ServerProcess's admin token


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        await browser.close()


def serve(db_url: str, board: bool) -> Iterator[ServerProcess]:
    static = json.dumps([str(TESTS / "static")] if board else [])
    srv = ServerProcess(db_url, env={"GENIUSNIGHT_EXTRA_STATIC": static}).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def bare_server(db_url: str) -> Iterator[ServerProcess]:
    yield from serve(db_url, board=False)


@pytest.fixture
def board_server(db_url: str) -> Iterator[ServerProcess]:
    yield from serve(db_url, board=True)


async def play_finished_game(server: ServerProcess) -> dict[str, Any]:
    """Host and guest add 3 each turn over the websocket: 21 after 7 moves, the host wins."""
    room_id, token, invite = await make_room(server.base, options={"secrets": [4, 7]})
    guest = await join(server.base, invite, "Grace <b>")
    start = await host_post(server.base, room_id, token, "/start")
    assert start.status_code == 200, start.text
    players = [
        await Player(server.ws_base, room_id, token).connect(),
        await Player(server.ws_base, room_id, guest["token"]).connect(),
    ]
    for i in range(7):
        ack = await players[i % 2].act({"type": "add", "n": 3})
        assert ack["type"] == "ack" and ack["seq"] == i + 1, ack
    for p in players:
        await p.close()
    return {"room_id": room_id, "game_id": start.json()["game_id"], "tokens": [token, guest["token"]]}


async def login(page: Any, server: ServerProcess) -> None:
    await page.goto(f"{server.base}/admin")
    await page.get_by_test_id("admin-token").fill("wrong-token")
    await page.get_by_test_id("admin-login").click()
    await page.get_by_test_id("login-error").filter(has_text="not the admin token").wait_for()
    await page.get_by_test_id("admin-token").fill(TOKEN)
    await page.get_by_test_id("admin-login").click()
    await page.get_by_test_id("rooms-table").wait_for()


async def raw(page: Any) -> Any:
    return json.loads(await page.get_by_test_id("replay-raw").text_content())


async def test_admin_logs_in_and_steps_through_a_finished_games_replay(
    chromium: Any, bare_server: ServerProcess
) -> None:
    from playwright.async_api import expect

    game = await play_finished_game(bare_server)
    context = await chromium.new_context(viewport={"width": 390, "height": 800})  # a phone
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await login(page, bare_server)

    row = page.locator(f'tr[data-room-id="{game["room_id"]}"]')
    await expect(row).to_contain_text("finished")
    await expect(row).to_contain_text("Grace <b>")  # untrusted names stay text
    await page.get_by_test_id("filter-q").fill("grace")
    await expect(page.locator("#rooms-body tr")).to_have_count(1)
    await page.get_by_test_id("filter-q").fill("nobody-has-this-name")
    await expect(page.locator("#rooms-body tr")).to_have_count(0)
    await page.get_by_test_id("filter-q").fill("")
    await row.get_by_test_id("game-link").click()

    await expect(page).to_have_url(re.compile(rf"/admin/games/{game['game_id']}$"))
    await expect(page.locator("#log-body tr")).to_have_count(7)
    await expect(page.locator("#refused-body tr")).to_have_count(0)
    seq = page.get_by_test_id("replay-seq")
    await expect(seq).to_have_text("Move 0 of 7")
    # no count21.js here: the readable JSON view stands in for the board
    await expect(page.get_by_test_id("replay-fallback")).to_be_visible()
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"counter": 0')  # drawn after the note
    assert (await raw(page))["counter"] == 0 and "secret" not in await raw(page)

    await page.get_by_test_id("replay-next").click()
    await expect(seq).to_have_text("Move 1 of 7")
    await expect(page.get_by_test_id("replay-move")).to_contain_text("Host")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"counter": 3')
    await page.get_by_test_id("replay-next").click()
    await expect(seq).to_have_text("Move 2 of 7")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"counter": 6')
    await page.get_by_test_id("replay-prev").click()
    await expect(seq).to_have_text("Move 1 of 7")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"counter": 3')

    # view as each seat, then everything
    await page.get_by_test_id("replay-view-as").select_option("seat:1")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"secret": 7')
    await page.get_by_test_id("replay-view-as").select_option("seat:0")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"secret": 4')
    await page.get_by_test_id("replay-view-as").select_option("full")
    await expect(page.get_by_test_id("replay-board")).to_contain_text("hidden parts included")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"secrets"')
    full = await raw(page)
    assert full["secrets"] == [4, 7] and "rng" in full and full["counter"] == 3
    # the 64-bit PRNG state is shown exactly as stored, not rounded to a double
    state_url = f"{bare_server.base}/api/admin/games/{game['game_id']}/state?seq=1"
    stored = await (await page.request.get(state_url)).json()
    assert full["rng"] == stored["state"]["rng"]

    await page.get_by_test_id("replay-jump").fill("5")
    await page.get_by_test_id("replay-jump").press("Enter")
    await expect(seq).to_have_text("Move 5 of 7")
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"counter": 15')
    await page.get_by_test_id("replay-play").click()
    await expect(seq).to_have_text("Move 7 of 7", timeout=10_000)
    await expect(page.get_by_test_id("replay-raw")).to_contain_text('"winner": 0')
    await expect(page.get_by_test_id("replay-next")).to_be_disabled()

    # clicking a seq in the log jumps the replay there
    await page.locator('#log-body tr[data-seq="2"] a').click()
    await expect(seq).to_have_text("Move 2 of 7")

    await page.get_by_test_id("admin-logout").click()
    await page.get_by_test_id("admin-token").wait_for()
    await page.goto(f"{bare_server.base}/admin/games/{game['game_id']}")
    await expect(page.get_by_test_id("admin-token")).to_be_visible()
    assert errors == []
    await context.close()


async def test_a_player_replays_the_finished_game_on_the_board(chromium: Any, board_server: ServerProcess) -> None:
    from playwright.async_api import expect

    game = await play_finished_game(board_server)
    context = await chromium.new_context()
    await context.add_cookies(
        [{"name": f"gn_seat_{game['room_id']}", "value": game["tokens"][1], "url": board_server.base}]
    )
    page = await context.new_page()
    await page.goto(f"{board_server.base}/r/{game['room_id']}")
    link = page.get_by_test_id("replay-link")
    await expect(link).to_be_visible()
    await link.click()
    await expect(page).to_have_url(re.compile(rf"/r/{game['room_id']}/replay/{game['game_id']}$"))
    seq = page.get_by_test_id("replay-seq")
    await expect(seq).to_have_text("Move 0 of 7")
    board = page.get_by_test_id("replay-board")
    await expect(board.get_by_test_id("counter")).to_have_text("0")
    await page.get_by_test_id("replay-next").click()
    await expect(seq).to_have_text("Move 1 of 7")
    await expect(board.get_by_test_id("counter")).to_have_text("3")
    await expect(board.get_by_test_id("add-1")).to_be_disabled()  # replay is read-only
    # the raw engine state stays the admin's; every seat's view is there
    await expect(page.locator('[data-testid="replay-view-as"] option[value="full"]')).to_have_count(0)
    # after the end every seat's hidden number may be shown
    await page.get_by_test_id("replay-view-as").select_option("seat:0")
    await expect(board.get_by_test_id("secret")).to_have_text("secret 4")
    await page.get_by_test_id("replay-last").click()
    await expect(board.get_by_test_id("turn")).to_contain_text("seat 0 wins")
    await context.close()
