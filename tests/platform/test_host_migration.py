"""The host role passes on when its host is gone for good: at once when they leave the room,
after ``host_away_seconds`` when all their sockets closed; to the longest-standing connected
person, with everyone told and the new host's controls working. Time moves by hand (the
services' clock), on SQLite and on PostgreSQL (when configured)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from inprocess import Served, serve
from support import TLS, FakeClock, until
from wsclient import Player

AWAY = 60.0


async def call(srv: Served, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as c:
        r = await c.request(method, path, json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code < 500, r.text
    return r


async def room_with(srv: Served, names: list[str]) -> tuple[str, str, list[dict[str, Any]]]:
    async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as c:
        made = (await c.post("/api/rooms", json={"game": "count21", "name": "Host"})).json()
    invite = made["invite_url"].rsplit("/", 1)[1]
    joined = []
    for name in names:
        async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as c:
            joined.append((await c.post(f"/api/join/{invite}", json={"name": name})).json())
    return made["room_id"], made["token"], joined


async def host_of(srv: Served, rid: str, token: str) -> bool:
    return bool((await call(srv, "GET", f"/api/rooms/{rid}", token)).json()["you"]["host"])


async def test_a_host_who_leaves_hands_the_role_to_the_longest_standing_connected_member(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, (ann, bea, cy) = await room_with(srv, ["Ann", "Bea", "Cy"])
        # Ann joined first but is not connected: Bea is the longest-standing one here
        host = await Player(srv.ws_base, rid, host_token).connect()
        b = await Player(srv.ws_base, rid, bea["token"]).connect()
        c = await Player(srv.ws_base, rid, cy["token"]).connect()
        r = await call(srv, "POST", f"/api/rooms/{rid}/leave", host_token)
        assert r.status_code == 200 and r.json()["host_member_id"] == bea["member_id"]
        assert (await host.expect("kicked"))["message"] == "You left the room."
        for p in (b, c):
            told = await p.expect("host")
            assert told["member_id"] == bea["member_id"] and "Bea is the host now" in told["message"]
        assert told_host(b)
        room = (await call(srv, "GET", f"/api/rooms/{rid}", cy["token"])).json()
        assert [s["name"] for s in room["seats"]] == ["Ann", "Bea", "Cy"]  # the seats moved up
        assert [s["host"] for s in room["seats"]] == [False, True, False]
        # the new host's controls work, the old host's token does not
        assert (await call(srv, "POST", f"/api/rooms/{rid}/start", bea["token"])).status_code == 200
        assert (await call(srv, "GET", f"/api/rooms/{rid}/view", host_token)).status_code == 401
        assert (await call(srv, "POST", f"/api/rooms/{rid}/leave", ann["token"])).json()["host_member_id"] == (
            bea["member_id"]
        )
        for p in (host, b, c):
            await p.close()


async def test_a_host_gone_longer_than_the_setting_hands_the_role_on(any_db_url: str) -> None:
    clock = FakeClock()
    async with serve(any_db_url, clock=clock, host_away_seconds=AWAY) as srv:
        rid, host_token, (_ann, bea) = await room_with(srv, ["Ann", "Bea"])
        # Ann joined before Bea but never connects: the role goes to Bea, who is here
        host = await Player(srv.ws_base, rid, host_token).connect()
        b = await Player(srv.ws_base, rid, bea["token"]).connect()
        await host.close()
        await until(lambda: _gone(srv, rid))
        clock.advance(AWAY - 1)
        await asyncio.sleep(0.05)
        assert await host_of(srv, rid, host_token)  # a reload or a short drop is not leaving
        # back in time: the clock starts again from the next time they go
        host = await Player(srv.ws_base, rid, host_token).connect()
        clock.advance(2)
        await asyncio.sleep(0.05)
        assert await host_of(srv, rid, host_token)
        await host.close()
        await until(lambda: _gone(srv, rid))
        clock.advance(AWAY + 1)
        told = await b.expect("host")
        assert told["member_id"] == bea["member_id"] and "Host has been away" in told["message"]
        assert told_host(b)
        assert not await host_of(srv, rid, host_token)  # still a member, no longer the host
        assert (await call(srv, "POST", f"/api/rooms/{rid}/bots", bea["token"], {})).status_code == 200
        assert (await call(srv, "POST", f"/api/rooms/{rid}/bots", host_token, {})).status_code == 403
        await b.close()


async def test_a_host_who_went_while_nobody_was_there_hands_the_role_to_the_next_to_come(any_db_url: str) -> None:
    clock = FakeClock()
    async with serve(any_db_url, clock=clock, host_away_seconds=AWAY) as srv:
        rid, host_token, (ann,) = await room_with(srv, ["Ann"])
        host = await Player(srv.ws_base, rid, host_token).connect()
        await host.close()
        await until(lambda: _gone(srv, rid))
        clock.advance(AWAY + 1)
        await asyncio.sleep(0.05)
        assert await host_of(srv, rid, host_token)  # nobody to hand it to
        a = await Player(srv.ws_base, rid, ann["token"]).connect()
        assert (await a.expect("you"))["you"]["host"] is True
        await a.close()


def told_host(p: Player) -> bool:
    """The player's sockets were told they are the host now (a ``you`` frame)."""
    return any(f["type"] == "you" and f["you"]["host"] for f in p.frames)


async def _gone(srv: Served, rid: str) -> bool:
    return rid in srv.state.hosts.gone
