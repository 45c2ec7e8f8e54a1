"""The limits a public server needs (README, "Settings"; docs/protocol.md, "Limits"): each
refusal has a stable code and stores nothing."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text

from geniusnight.server.admin.service import purge_old_rooms
from geniusnight.server.limits import RedisWindowLimit, SocketCount, WindowLimit
from inprocess import serve
from support import ServerProcess
from wsclient import Player, room_frames


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(c: httpx.AsyncClient, **body: Any) -> httpx.Response:
    r = await c.post("/api/rooms", json={"game": "count21", "name": "Ada", **body})
    c.cookies.clear()
    return r


async def test_one_address_creates_at_most_rooms_per_minute(app: Any, client: httpx.AsyncClient) -> None:
    app.state.rooms.room_rate = WindowLimit(3, 60)
    for _ in range(3):
        assert (await create(client)).status_code == 200
    r = await create(client)
    assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
    assert (await client.get("/api/admin/rooms", headers=bearer("a" * 32))).json()["total"] == 3


def test_a_window_limit_frees_up_as_its_minute_passes() -> None:
    limit = WindowLimit(2, 60)
    assert limit.count("a", now=0) and limit.count("a", now=1)
    assert limit.over("a", now=59) and not limit.count("a", now=59) and limit.count("b", now=59)
    assert not limit.over("a", now=60.5) and limit.count("a", now=60.5)


async def test_a_room_holds_at_most_room_members_max_people(app: Any, client: httpx.AsyncClient) -> None:
    rooms = app.state.rooms
    rooms.room_services = replace(rooms.room_services, room_members_max=4)  # ROOM_MEMBERS_MAX
    host = (await create(client)).json()
    invite = host["invite_url"].rsplit("/", 1)[1]
    for i in range(3):  # two more seats, then a spectator
        assert (await client.post(f"/api/join/{invite}", json={"name": f"P{i}"})).status_code == 200
        client.cookies.clear()
    r = await client.post(f"/api/join/{invite}", json={"name": "One too many"})
    assert r.status_code == 409 and r.json()["code"] == "room_crowded"
    room = (await client.get(f"/api/rooms/{host['room_id']}")).json()
    assert len(room["seats"]) + room["spectators"] == 4


async def test_a_member_chats_at_most_chat_per_minute(app: Any, client: httpx.AsyncClient) -> None:
    app.state.rooms.chat_rate = WindowLimit(2, 60)
    host = (await create(client)).json()
    url = f"/api/rooms/{host['room_id']}/chat"
    for i in range(2):
        assert (await client.post(url, json={"text": f"hi {i}"}, headers=bearer(host["token"]))).status_code == 200
    r = await client.post(url, json={"text": "spam"}, headers=bearer(host["token"]))
    assert r.status_code == 429 and r.json()["code"] == "chat_rate"
    chat = (await client.get(url, headers=bearer(host["token"]))).json()
    assert [m["text"] for m in chat] == ["hi 0", "hi 1"]


def test_sockets_are_counted_per_address_and_in_total() -> None:
    count = SocketCount(per_address=2, total=3)
    assert count.open("a") is None and count.open("a") is None
    assert count.open("a") == "too_many_sockets"
    assert count.open("b") is None
    assert count.open("c") == "server_full"
    count.close("a")
    assert count.open("c") is None and count.count == 3


async def finished_room(client: httpx.AsyncClient) -> dict[str, Any]:
    host = (await create(client, options={"target": 5})).json()
    await client.post(f"/api/rooms/{host['room_id']}/bots", headers=bearer(host["token"]))
    started = (await client.post(f"/api/rooms/{host['room_id']}/start", headers=bearer(host["token"]))).json()
    return {**host, "game_id": started["game_id"]}


async def test_old_finished_rooms_are_purged_after_the_retention_and_can_be_exported_before(
    app: Any, client: httpx.AsyncClient, db_url: str
) -> None:
    admin = bearer("a" * 32)
    old, recent = await finished_room(client), await finished_room(client)
    lobby = (await create(client)).json()
    engine = create_engine(db_url.replace("+aiosqlite", ""))
    long_ago = datetime.now(UTC) - timedelta(days=40)
    with engine.begin() as conn:
        conn.execute(
            text("update rooms set status = 'finished', updated_at = :t where id = :id"),
            {"t": long_ago, "id": old["room_id"]},
        )
        conn.execute(text("update rooms set updated_at = :t where id = :id"), {"t": long_ago, "id": lobby["room_id"]})
    exported = await client.get(f"/api/admin/games/{old['game_id']}/export", headers=admin)
    assert exported.status_code == 200
    async with app.state.db.sessions() as s:
        assert await purge_old_rooms(s, days=30) == 1
    assert (await client.get(f"/api/admin/rooms/{old['room_id']}", headers=admin)).status_code == 404
    assert (await client.get(f"/api/admin/games/{old['game_id']}/log", headers=admin)).status_code == 404
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from moves where game_id = :g"), {"g": old["game_id"]}).scalar() == 0
    for kept in (recent, lobby):  # a recent room, and an old one that never finished
        assert (await client.get(f"/api/admin/rooms/{kept['room_id']}", headers=admin)).status_code == 200


@pytest.fixture(scope="module")
def tight_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    from geniusnight.cli import db_upgrade

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('limits') / 'limits.db'}"
    db_upgrade(url)
    env = {"GENIUSNIGHT_WS_PER_ADDRESS": "3", "GENIUSNIGHT_HELLO_SECONDS": "1", "GENIUSNIGHT_CHAT_PER_MINUTE": "2"}
    srv = ServerProcess(url, env=env).start()
    yield srv
    srv.stop()


async def room_of(srv: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=srv.base) as c:
        return (await create(c)).json()


async def test_one_address_holds_at_most_ws_per_address_sockets(tight_server: ServerProcess) -> None:
    room = await room_of(tight_server)
    players = [await Player(tight_server.ws_base, room["room_id"], room["token"]).connect() for _ in range(3)]
    async with websockets.connect(f"{tight_server.ws_base}/ws/{room['room_id']}") as extra:
        frame = json.loads(await asyncio.wait_for(extra.recv(), 5))
        assert frame["type"] == "error" and frame["code"] == "too_many_sockets"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(extra.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    await players[0].close()
    await asyncio.sleep(0.2)  # the server sees the close
    again = await Player(tight_server.ws_base, room["room_id"], room["token"]).connect()
    for p in (*players[1:], again):
        await p.close()
    await asyncio.sleep(0.2)


async def test_a_socket_that_does_not_say_hello_in_time_is_closed(tight_server: ServerProcess) -> None:
    room = await room_of(tight_server)
    async with websockets.connect(f"{tight_server.ws_base}/ws/{room['room_id']}") as slow:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await slow.send(json.dumps({"type": "ping"}))  # not a hello: no more time is given
        assert json.loads(await asyncio.wait_for(slow.recv(), 5))["code"] == "hello_first"
        assert json.loads(await asyncio.wait_for(slow.recv(), 5))["code"] == "hello_timeout"
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(slow.recv(), 5)
        assert loop.time() - start < 3
    await asyncio.sleep(0.2)


async def test_websocket_chat_is_rate_limited_per_member(tight_server: ServerProcess) -> None:
    room = await room_of(tight_server)
    player = await Player(tight_server.ws_base, room["room_id"], room["token"]).connect()
    for i in range(2):
        await player.send({"type": "chat", "text": f"hi {i}"})
        assert (await player.expect("chat"))["text"] == f"hi {i}"
    await player.send({"type": "chat", "text": "spam"})
    assert (await player.expect("error"))["code"] == "chat_rate"
    await player.close()
    await asyncio.sleep(0.2)


# --- abuse limits of the transport (docs/deploy.md, "Abuse limits", "Transport and edge") ---


async def test_wrong_admin_tokens_are_throttled_per_address_and_the_right_one_too_while_throttled(
    app: Any, client: httpx.AsyncClient
) -> None:
    app.state.admin_rate = WindowLimit(3, 60)
    for _ in range(3):
        assert (await client.get("/api/admin/rooms", headers=bearer("b" * 32))).status_code == 401
    for headers in (bearer("b" * 32), bearer("a" * 32)):  # a guess, then the right token
        r = await client.get("/api/admin/rooms", headers=headers)
        assert r.status_code == 429 and r.json()["code"] == "admin_throttled"
    r = await client.post("/api/admin/login", json={"token": "a" * 32})
    assert r.status_code == 429 and r.json()["code"] == "admin_throttled"
    elsewhere = httpx.ASGITransport(app=app, client=("192.0.2.7", 4000))
    async with httpx.AsyncClient(transport=elsewhere, base_url="http://testserver") as other:
        assert (await other.get("/api/admin/rooms", headers=bearer("a" * 32))).status_code == 200


async def test_a_wrong_admin_login_counts_as_a_wrong_token(app: Any, client: httpx.AsyncClient) -> None:
    app.state.admin_rate = WindowLimit(2, 60)
    for _ in range(2):
        assert (await client.post("/api/admin/login", json={"token": "b" * 32})).status_code == 401
    r = await client.post("/api/admin/login", json={"token": "b" * 32})
    assert r.status_code == 429 and r.json()["code"] == "admin_throttled"


async def test_the_right_admin_token_is_never_counted(app: Any, client: httpx.AsyncClient) -> None:
    app.state.admin_rate = WindowLimit(2, 60)
    for _ in range(5):
        assert (await client.get("/api/admin/rooms", headers=bearer("a" * 32))).status_code == 200


async def seated_pair(base: str) -> tuple[str, str, str]:
    """A toy room with Ada (host) and Grace seated: its id and their tokens."""
    async with httpx.AsyncClient(base_url=base) as c:
        host = (await create(c)).json()
        invite = host["invite_url"].rsplit("/", 1)[1]
        grace = (await c.post(f"/api/join/{invite}", json={"name": "Grace"})).json()
    return host["room_id"], host["token"], grace["token"]


async def refusal(url: str) -> tuple[str, int | None]:
    """The error code a socket gets right after it opens, and its close code."""
    async with websockets.connect(url) as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
    return frame.get("code", frame["type"]), closed.value.rcvd.code if closed.value.rcvd else None


async def test_one_address_opens_at_most_ws_connects_per_minute_sockets(db_url: str) -> None:
    async with serve(db_url, ws_connects_per_minute=3) as srv:
        room_id, host, _ = await seated_pair(srv.base)
        for _ in range(3):  # opened and closed: each counts
            await (await Player(srv.ws_base, room_id, host).connect()).close()
        assert await refusal(f"{srv.ws_base}/ws/{room_id}") == ("too_many_connects", 4429)


async def test_one_member_holds_at_most_ws_per_member_sockets_in_a_room(db_url: str) -> None:
    async with serve(db_url, ws_per_member=2) as srv:
        room_id, host, grace = await seated_pair(srv.base)
        tabs = [await Player(srv.ws_base, room_id, grace).connect() for _ in range(2)]
        extra = Player(srv.ws_base, room_id, grace)
        extra.ws = await websockets.connect(extra.url)
        await extra.send({"type": "hello", "token": grace})
        assert (await extra.expect("error"))["code"] == "too_many_tabs"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await extra.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        ada = await Player(srv.ws_base, room_id, host).connect()  # another member is not held back
        await tabs[0].close()
        await asyncio.sleep(0.2)  # the server sees the close
        again = await Player(srv.ws_base, room_id, grace).connect()
        for p in (tabs[1], ada, again):
            await p.close()


async def test_a_members_second_socket_opening_and_closing_sends_nobody_a_room_frame(db_url: str) -> None:
    """Who is online changes only when a member's first socket opens or last one closes."""
    async with serve(db_url) as srv:
        room_id, host, grace = await seated_pair(srv.base)
        ada = await Player(srv.ws_base, room_id, host).connect()
        first = await Player(srv.ws_base, room_id, grace).connect()
        seen = await room_frames(ada, 0.5)
        assert seen and seen[-1]["room"]["seats"][1]["online"] is True
        for _ in range(10):
            await (await Player(srv.ws_base, room_id, grace).connect()).close()
        assert await room_frames(ada, 0.6) == []
        await first.close()
        gone = await room_frames(ada, 1.0)
        assert len(gone) == 1 and gone[0]["room"]["seats"][1]["online"] is False
        await ada.close()


async def test_a_burst_of_room_changes_reaches_each_socket_as_few_room_frames(db_url: str) -> None:
    """A socket opened and closed in a loop sent every socket of its room two room frames a
    turn; now at most one goes out per ROOM_FRAME_GAP, showing the room as it is then."""
    from geniusnight.server.play.hub import ROOM_FRAME_GAP

    async with serve(db_url) as srv:
        room_id, host, grace = await seated_pair(srv.base)
        ada = await Player(srv.ws_base, room_id, host).connect()
        await room_frames(ada, 0.5)
        loop = asyncio.get_running_loop()
        start, turns = loop.time(), 20
        for _ in range(turns):
            await (await Player(srv.ws_base, room_id, grace).connect()).close()
        elapsed = loop.time() - start
        seen = await room_frames(ada, 1.0)
        assert 1 <= len(seen) <= elapsed / ROOM_FRAME_GAP + 2 < 2 * turns
        assert seen[-1]["room"]["seats"][1]["online"] is False  # the last frame shows the room as it is
        await ada.close()


REDIS = os.environ.get("GENIUSNIGHT_TEST_REDIS_URL")


@pytest.mark.skipif(not REDIS, reason="GENIUSNIGHT_TEST_REDIS_URL not set")
async def test_two_processes_share_one_count_in_redis() -> None:
    """Each process has its own limiter and Redis client; the count is the deployment's."""
    import redis.asyncio as redis

    assert REDIS is not None
    clients = [redis.Redis.from_url(REDIS) for _ in range(2)]
    name = f"test-{uuid.uuid4().hex}"
    first, second = (RedisWindowLimit(c, name, 3, 60) for c in clients)
    try:
        assert await first.hit("198.51.100.1") and await second.hit("198.51.100.1")
        assert not await second.full("198.51.100.1")
        assert await first.hit("198.51.100.1")
        assert await second.full("198.51.100.1") and not await second.hit("198.51.100.1")
        assert not await first.hit("198.51.100.1")
        assert await second.hit("198.51.100.2")  # another address counts apart
    finally:
        keys = [k async for k in clients[0].scan_iter(f"geniusnight:limit:{name}:*")]
        await clients[0].delete(*keys)
        for c in clients:
            await c.aclose()


@pytest.mark.skipif(not REDIS, reason="GENIUSNIGHT_TEST_REDIS_URL not set")
async def test_a_redis_limits_window_frees_up_as_it_passes() -> None:
    import redis.asyncio as redis

    assert REDIS is not None
    client = redis.Redis.from_url(REDIS)
    limit = RedisWindowLimit(client, f"test-{uuid.uuid4().hex}", 2, 0.3)
    try:
        assert await limit.hit("a") and await limit.hit("a") and not await limit.hit("a")
        await asyncio.sleep(0.35)
        assert await limit.hit("a")
    finally:
        await client.aclose()


async def test_without_redis_answering_each_process_still_counts_its_own() -> None:
    import redis.asyncio as redis

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.2)
    limit = RedisWindowLimit(client, "down", 2, 60)
    try:
        assert await limit.hit("a") and await limit.hit("a")
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert not await limit.hit("a") and await limit.full("a")
        assert loop.time() - start < 0.1  # Redis is not asked again at once: nothing waits for it
    finally:
        await client.aclose()


@pytest.mark.skipif(not REDIS, reason="GENIUSNIGHT_TEST_REDIS_URL not set")
async def test_with_redis_configured_the_servers_limits_are_counted_there(db_url: str) -> None:
    """Two apps on one Redis (two processes' worth of services) share the rooms an address
    may create a minute."""
    async with serve(db_url, redis_url=REDIS, rooms_per_minute=2) as one, serve(db_url, redis_url=REDIS) as two:
        for srv in (one, two):
            assert isinstance(srv.state.rooms.room_rate, RedisWindowLimit)
        # a fresh name per run, so that earlier runs' counts don't matter
        name = f"rooms-{uuid.uuid4().hex}"
        for srv in (one, two):
            limit = srv.state.rooms.room_rate
            srv.state.rooms.room_rate = RedisWindowLimit(srv.state.bus.redis, name, 2, 60)
            assert limit.prefix == "geniusnight:limit:rooms:"
        async with httpx.AsyncClient(base_url=one.base) as a, httpx.AsyncClient(base_url=two.base) as b:
            assert (await create(a)).status_code == 200
            assert (await create(b)).status_code == 200
            r = await create(a)
            assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
            assert (await create(b)).status_code == 429
