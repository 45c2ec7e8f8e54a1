"""Seat changes, starts and joins racing on the real PostgreSQL (runs when
GENIUSNIGHT_TEST_POSTGRES_URL is set): every use case that touches a room's seats, members or
games locks the room's row first, so races never deadlock, and a lost race answers 409
``seats_busy`` (docs/protocol.md), never a 500. Two apps on one database stand in for two
processes."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import httpx
import pytest

from support import TOY

PG = os.environ.get("GENIUSNIGHT_TEST_POSTGRES_URL")
pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not PG, reason="GENIUSNIGHT_TEST_POSTGRES_URL not set"),
    pytest.mark.parametrize("any_db_url", ["postgres"], indirect=True),  # conftest's, PostgreSQL only
]


@asynccontextmanager
async def processes(url: str, count: int, **settings: Any) -> AsyncIterator[list[httpx.AsyncClient]]:
    """``count`` apps on one database, running, each with a client of its own."""
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    async with AsyncExitStack() as stack:
        clients = []
        for _ in range(count):
            app = create_app(
                Settings(env="test", database_url=url, extra_engines=[TOY], bot_delay_ms=10_000, **settings)
            )
            await stack.enter_async_context(app.router.lifespan_context(app))
            transport = httpx.ASGITransport(app=app)
            headers = {"Origin": "http://t"}
            clients.append(
                await stack.enter_async_context(
                    httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers)
                )
            )
        yield clients


async def _room(c: httpx.AsyncClient, people: int) -> tuple[str, str, dict[str, str]]:
    """A toy room with the host and ``people - 1`` more seated: its id, invite and host's header."""
    host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
    invite = host["invite_url"].rsplit("/", 1)[1]
    for i in range(people - 1):
        c.cookies.clear()
        assert (await c.post(f"/api/join/{invite}", json={"name": f"P{i}"})).status_code == 200
    c.cookies.clear()
    return host["room_id"], invite, {"Authorization": f"Bearer {host['token']}"}


async def test_starts_kicks_joins_and_bots_racing_never_answer_500(any_db_url: str) -> None:
    """One process, then two: a start racing a kick, a join, a bot and a leave, many times."""
    statuses: Counter[tuple[str, int]] = Counter()
    for count in (1, 2):
        async with processes(any_db_url, count) as clients:
            for i in range(12):
                a, b = clients[0], clients[-1]
                room_id, invite, auth = await _room(a, 3)
                leaver = (await b.post(f"/api/join/{invite}", json={"name": "Lee"})).json()
                b.cookies.clear()
                if leaver["seat"] is None:  # the room is full: make a seat for the race's join
                    await a.delete(f"/api/rooms/{room_id}/seats/2", headers=auth)
                lee = {"Authorization": f"Bearer {leaver['token']}"}

                async def call(name: str, c: httpx.AsyncClient, method: str, path: str, **kw: Any) -> None:
                    r = await c.request(method, path, **kw)
                    statuses[(name, r.status_code)] += 1
                    assert r.status_code < 500, (name, r.status_code, r.text)
                    if r.status_code == 409:
                        assert r.json()["code"] in {
                            "seats_busy",
                            "not_in_lobby",
                            "room_full",
                            "player_count",
                            "no_seat",
                        }, r.text

                kick_seat = 1 + i % 2
                await asyncio.gather(
                    call("start", a, "POST", f"/api/rooms/{room_id}/start", headers=auth),
                    call("kick", b, "DELETE", f"/api/rooms/{room_id}/seats/{kick_seat}", headers=auth),
                    call("join", b, "POST", f"/api/join/{invite}", json={"name": f"Late{i}"}),
                    call("bot", a, "POST", f"/api/rooms/{room_id}/bots", json={}, headers=auth),
                    call("leave", a, "POST", f"/api/rooms/{room_id}/leave", headers=lee),
                )
                a.cookies.clear()
                b.cookies.clear()
    assert statuses[("start", 200)] > 0, statuses


async def test_the_member_cap_holds_under_concurrent_joins(any_db_url: str) -> None:
    """GENIUSNIGHT_ROOM_MEMBERS_MAX counts everyone in the room; 30 joins at once on two
    processes into a room of 5 (cap 12) leave 12 members, the others told ``room_crowded``."""
    async with processes(any_db_url, 2, room_members_max=12) as clients:
        room_id, invite, auth = await _room(clients[0], 5)

        async def join(i: int) -> httpx.Response:
            c = clients[i % 2]
            r = await c.post(f"/api/join/{invite}", json={"name": f"Crowd{i}"}, headers={"Cookie": ""})
            c.cookies.clear()
            return r

        answers = await asyncio.gather(*(join(i) for i in range(30)))
        codes = Counter(r.status_code for r in answers)
        assert codes[200] == 7 and codes[409] == 23, codes
        assert all(r.json()["code"] == "room_crowded" for r in answers if r.status_code == 409)
        room = (await clients[0].get(f"/api/rooms/{room_id}", headers=auth)).json()
        assert len(room["seats"]) + room["spectators"] == 12
