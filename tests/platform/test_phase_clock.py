"""Phase clocks and bot delays run on the server's clock (``geniusnight.clock``), so these
tests move time by hand: a 5-second phase limit takes milliseconds, not 5 seconds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import httpx

from geniusnight.server.app import create_app
from geniusnight.settings import Settings
from support import TOY, FakeClock


@asynccontextmanager
async def served(db_url: str, clock: FakeClock, bot_delay_ms: int = 0) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(
        env="test", database_url=db_url, extra_engines=[TOY], bot_delay_ms=bot_delay_ms, admin_token="a" * 32
    )
    app = create_app(settings, clock=clock)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            client.services = app.state  # type: ignore[attr-defined]
            yield client


def services(client: httpx.AsyncClient) -> Any:
    return client.services  # type: ignore[attr-defined, no-any-return]


async def two_player_game(client: httpx.AsyncClient, **room: Any) -> tuple[str, str, int]:
    """A started count21 game of two humans; returns (room id, host token, game id)."""
    r = await client.post("/api/rooms", json={"game": "count21", "options": {}, "name": "Ada", **room})
    assert r.status_code == 200, r.text
    room_id, token = r.json()["room_id"], r.json()["token"]
    invite = r.json()["invite_url"].rsplit("/", 1)[-1]
    client.cookies.clear()  # the guest is someone else (the host goes on by bearer token)
    assert (await client.post(f"/api/join/{invite}", json={"name": "Bea"})).status_code == 200
    started = await client.post(f"/api/rooms/{room_id}/start", headers={"Authorization": f"Bearer {token}"})
    assert started.status_code == 200, started.text
    room_now = (await client.get(f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {token}"})).json()
    return room_id, token, int(room_now["game_id"])


async def view(client: httpx.AsyncClient, room_id: str, token: str) -> dict[str, Any]:
    r = await client.get(f"/api/rooms/{room_id}/view", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def until_seq(client: httpx.AsyncClient, room_id: str, token: str, seq: int) -> dict[str, Any]:
    """The view once the game reached ``seq`` (the woken timer's commit takes real time)."""
    for _ in range(500):
        current = await view(client, room_id, token)
        if current["seq"] >= seq:
            return current
        await asyncio.sleep(0.01)
    raise AssertionError(f"seq {seq} not reached: {current}")


async def idle() -> None:
    """Let every task that could run now run (nothing is due on the clock meanwhile)."""
    await asyncio.sleep(0.05)


async def test_a_phase_limit_applies_the_timeout_action_once_its_deadline_passes(db_url: str) -> None:
    clock = FakeClock()
    async with served(db_url, clock) as client:
        room_id, token, game_id = await two_player_game(client, time_limits={"play": 5})
        live = await services(client).games.get(game_id)
        assert live.deadline_at == clock.now() + timedelta(seconds=5)
        clock.advance(4.9)
        await idle()
        assert (await view(client, room_id, token))["seq"] == 0  # not a moment early
        clock.advance(0.1)
        after = await until_seq(client, room_id, token, 1)
        assert after["view"]["counter"] == 1 and after["view"]["to_act"] == [1]  # the system added 1 for seat 0
        # the next seat's clock starts from the timeout
        assert live.deadline_at == clock.now() + timedelta(seconds=5)


async def test_a_deadline_survives_a_restart(db_url: str) -> None:
    clock = FakeClock()
    async with served(db_url, clock) as client:
        room_id, token, game_id = await two_player_game(client, time_limits={"play": 8})
        deadline = (await services(client).games.get(game_id)).deadline_at
        clock.advance(3)
    async with served(db_url, clock) as client:  # a new process on the same database
        live = await services(client).games.get(game_id)
        assert live.seq == 0 and live.deadline_at == deadline  # the clock kept its deadline
        clock.advance(5)
        after = await until_seq(client, room_id, token, 1)  # the restarted server applied the timeout
        assert after["seq"] == 1 and after["view"]["to_act"] == [1]


async def test_a_bot_moves_after_its_thinking_delay(db_url: str) -> None:
    clock = FakeClock()
    async with served(db_url, clock, bot_delay_ms=700) as client:
        r = await client.post("/api/rooms", json={"game": "count21", "options": {}, "name": "Ada"})
        room_id, token = r.json()["room_id"], r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert (await client.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth)).status_code == 200
        assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).status_code == 200
        game_id = (await view(client, room_id, token))["game_id"]
        outcome = await services(client).games.submit(game_id, 0, {"type": "add", "n": 1}, ref="r1")
        assert outcome.ok
        await idle()  # the bot's turn has begun to think
        clock.advance(0.6)
        await idle()
        assert (await view(client, room_id, token))["seq"] == 1  # the bot is still thinking
        clock.advance(0.1)
        after = await until_seq(client, room_id, token, 2)
        assert after["view"]["to_act"] == [0]


async def test_a_game_that_ends_stops_its_clock_and_is_not_loaded_again(db_url: str) -> None:
    """The timer sleeping toward a finished game's last deadline is cancelled when the game
    ends: woken, it would find nothing to do, but would first load the game again (its
    whole log, read and replayed) if the cache had let it go meanwhile."""
    clock = FakeClock()
    async with served(db_url, clock) as client:
        _room, _token, game_id = await two_player_game(client, time_limits={"play": 5}, options={"target": 5})
        games, driver = services(client).games, services(client).driver
        live = await games.get(game_id)
        for seat, n in ((0, 3), (1, 2)):
            assert (await games.submit(game_id, seat, {"type": "add", "n": n}, ref=f"m{seat}")).ok
        assert live.over
        await idle()
        assert game_id not in driver._sleepers and game_id not in driver._timers
        games.forget(game_id)  # the cache let the finished game go
        loads = 0
        real_load = games._load

        async def counted_load(gid: int) -> Any:
            nonlocal loads
            loads += 1
            return await real_load(gid)

        games._load = counted_load  # type: ignore[method-assign]
        clock.advance(60)
        await idle()
        assert loads == 0
