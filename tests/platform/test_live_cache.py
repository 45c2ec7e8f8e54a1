"""The live-game cache is bounded: finished and idle games leave it, a finished one as soon as
its room's rematch starts, the least recently used go first when it is full, and a game that
left comes back from its log unchanged."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from geniusnight.server.play.games import CacheLimits, GameService
from support import seated_room, start_game


def service(app: Any) -> GameService:
    return app.state.games  # type: ignore[no-any-return]


async def test_an_idle_game_leaves_the_cache_and_comes_back_from_its_log(app: Any, client: httpx.AsyncClient) -> None:
    games = service(app)
    games.limits = CacheLimits(max_games=100, idle_seconds=60, finished_seconds=5)
    game_id = await start_game(client)
    assert (await games.submit(game_id, 0, {"type": "add", "n": 2})).ok
    live = await games.get(game_id)
    seq, view = live.seq, live.view(0)
    assert games.prune(time.monotonic() + 30) == 0  # not idle long enough
    assert games.prune(time.monotonic() + 61) >= 1
    assert game_id not in games.live
    back = await games.get(game_id)
    assert back is not live and back.seq == seq and back.view(0) == view
    assert (await games.submit(game_id, 1, {"type": "add", "n": 1})).seq == seq + 1


async def test_a_finished_game_leaves_sooner_than_a_running_one(app: Any, client: httpx.AsyncClient) -> None:
    games = service(app)
    games.limits = CacheLimits(max_games=100, idle_seconds=600, finished_seconds=5)
    running, finished = await start_game(client), await start_game(client, target=5)
    for seat in (0, 1, 0):
        assert (await games.submit(finished, seat, {"type": "add", "n": 2})).ok
    assert (await games.get(finished)).over
    later = time.monotonic() + 10
    games.prune(later)
    assert finished not in games.live and running in games.live


async def test_a_rematch_retires_the_rooms_finished_game_from_the_cache(app: Any, client: httpx.AsyncClient) -> None:
    """The room's sockets follow the new game; the finished one would only wait out its
    ``finished_seconds`` in memory. Read again, it comes back from its log as it ended."""
    games = service(app)
    other = await start_game(client, target=5)  # another room's finished game stays
    for seat in (0, 1, 0):
        assert (await games.submit(other, seat, {"type": "add", "n": 2})).ok
    room_id, auth = await seated_room(client, target=5)
    first = (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
    for seat in (0, 1, 0):
        assert (await games.submit(first, seat, {"type": "add", "n": 2})).ok
    ended = await games.get(first)
    assert ended.over
    rematch = await client.post(f"/api/rooms/{room_id}/rematch", headers=auth)
    assert rematch.status_code == 200
    second = rematch.json()["game_id"]
    assert first not in games.live and second in games.live and other in games.live
    back = await games.get(first)
    assert back is not ended and back.over and back.seq == ended.seq and back.view(0) == ended.view(0)


async def test_a_full_cache_drops_the_least_recently_used_game(app: Any, client: httpx.AsyncClient) -> None:
    games = service(app)
    games.limits = CacheLimits(max_games=2)
    a, b = await start_game(client), await start_game(client)
    await games.get(a)  # a is now the most recently used
    c = await start_game(client)
    assert set(games.live) == {a, c}
    assert (await games.get(b)).seq == 0  # back from the log
    assert set(games.live) == {c, b}


async def test_a_game_with_a_move_on_its_way_in_never_leaves(app: Any, client: httpx.AsyncClient) -> None:
    games = service(app)
    games.limits = CacheLimits(max_games=1, idle_seconds=0, finished_seconds=0)
    a = await start_game(client)
    live = await games.get(a)
    async with live.lock:  # a move is being committed; another waits for the lock
        waiting = asyncio.create_task(games.submit(a, 0, {"type": "add", "n": 1}))
        await asyncio.sleep(0.01)
        assert games.prune(time.monotonic() + 1) == 0
        await start_game(client)
        assert games.live.get(a) is live  # over the limit for a moment rather than copy the game
    assert (await waiting).seq == 1
    assert games.prune(time.monotonic() + 1) >= 1
    assert (await games.get(a)).seq == 1


async def test_a_rematch_finds_the_rooms_game_by_room_and_a_room_whose_games_left_leaves_no_trace(
    app: Any, client: httpx.AsyncClient
) -> None:
    """The finished game is looked up by its room, not searched for among every cached game
    (other rooms' games used since it ended come first in the cache); and once a room's
    games have all left the cache, nothing of the room stays in it."""
    games = service(app)
    games.limits = CacheLimits(max_games=100, idle_seconds=60, finished_seconds=60)
    room_id, auth = await seated_room(client, target=5)
    first = (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
    for seat in (0, 1, 0):
        assert (await games.submit(first, seat, {"type": "add", "n": 2})).ok
    others = [await start_game(client) for _ in range(3)]
    for other in others:
        await games.get(other)  # used after the room's game ended
    second = (await client.post(f"/api/rooms/{room_id}/rematch", headers=auth)).json()["game_id"]
    assert first not in games.live and games.newest[room_id] == second
    assert all(other in games.live for other in others)
    assert games.prune(time.monotonic() + 61) == 4
    assert games.live == {} and games.newest == {}
