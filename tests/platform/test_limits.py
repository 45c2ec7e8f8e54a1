"""The limits a public server needs (README, "Settings"; docs/protocol.md, "Limits"): each
refusal has a stable code and stores nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text

from geniusnight.server.admin.service import purge_old_rooms
from geniusnight.server.limits import SocketCount, WindowLimit
from support import ServerProcess
from wsclient import Player


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(c: httpx.AsyncClient, **body: Any) -> httpx.Response:
    r = await c.post("/api/rooms", json={"game": "count21", "name": "Ada", **body})
    c.cookies.clear()
    return r


async def test_one_address_creates_at_most_rooms_per_minute(app: Any, client: httpx.AsyncClient) -> None:
    app.state.services.room_rate = WindowLimit(3, 60)
    for _ in range(3):
        assert (await create(client)).status_code == 200
    r = await create(client)
    assert r.status_code == 429 and r.json()["code"] == "too_many_rooms"
    assert (await client.get("/api/admin/rooms", headers=bearer("a" * 32))).json()["total"] == 3


def test_a_window_limit_frees_up_as_its_minute_passes() -> None:
    limit = WindowLimit(2, 60)
    assert limit.hit("a", now=0) and limit.hit("a", now=1)
    assert not limit.hit("a", now=59) and limit.hit("b", now=59)
    assert limit.hit("a", now=60.5)


async def test_a_room_holds_at_most_room_members_max_people(app: Any, client: httpx.AsyncClient) -> None:
    app.state.services.settings.room_members_max = 4
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
    app.state.services.chat_rate = WindowLimit(2, 60)
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
    async with app.state.services.db.sessions() as s:
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
