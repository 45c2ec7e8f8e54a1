"""Room snapshots between processes: the process that announces a room change reads the room
once and passes it with the event; each room counts its versions, so that a process keeps
the newest snapshot whatever order events arrive in, and says who is online as it knows it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from geniusnight.server.play.connection import Connection
from geniusnight.server.play.events import RoomEvent, RoomSnapshot
from geniusnight.server.play.hub import ROOM_FRAME_GAP, Hub
from geniusnight.server.rooms import statements
from geniusnight.storage.models import Member, Room
from support import seated_room, start_game


async def version_of(app: Any, room_id: str) -> int:
    async with app.state.db.sessions() as s:
        return int(await s.scalar(select(Room.version).where(Room.id == room_id)))


async def room_of_game(app: Any, game_id: int) -> str:
    return (await app.state.games.get(game_id)).room_id


async def test_every_change_a_room_frame_shows_counts_a_new_room_version(app: Any, client: httpx.AsyncClient) -> None:
    body = {"game": "count21", "name": "Ada", "options": {"target": 5}}
    host = (await client.post("/api/rooms", json=body)).json()
    room_id = host["room_id"]
    auth = {"Authorization": f"Bearer {host['token']}"}
    made = await version_of(app, room_id)
    client.cookies.clear()
    await client.post(f"/api/join/{host['invite_url'].rsplit('/', 1)[1]}", json={"name": "Grace"})
    client.cookies.clear()
    joined = await version_of(app, room_id)
    assert joined > made
    game_id = (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
    started = await version_of(app, room_id)
    assert started > joined
    games = app.state.games
    moved = None
    while not (live := await games.get(game_id)).over:
        seat = min(live.engine.to_act(live.state))
        assert (await games.submit(game_id, seat, {"type": "add", "n": 1})).ok
        moved = moved if moved is not None else await version_of(app, room_id)
    assert moved == started  # a move that does not end the game leaves the room as it was
    assert await version_of(app, room_id) > started  # the room became "finished"


async def test_one_transaction_counts_one_room_version_however_often_it_flushes(
    app: Any, client: httpx.AsyncClient
) -> None:
    game_id = await start_game(client)
    room_id = await room_of_game(app, game_id)
    before = await version_of(app, room_id)
    async with app.state.db.sessions() as s, s.begin():
        members = list((await s.execute(select(Member).where(Member.room_id == room_id))).scalars())
        members[0].name = "Ada L."
        await s.flush()
        members[1].name = "Grace H."
        await s.flush()
    assert await version_of(app, room_id) == before + 1
    async with app.state.db.sessions() as s, s.begin():
        (await s.get(Member, members[0].id)).name = "Ada"  # type: ignore[union-attr]
    assert await version_of(app, room_id) == before + 2


class Socket:
    """A websocket's ASGI send that keeps the text frames it was sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self.sent.append(message["text"])


def snapshot(version: int, members: list[int | None], bots: tuple[int, ...] = ()) -> RoomSnapshot:
    seats = [{"seat": i, "name": f"P{i}", "online": i in bots} for i in range(len(members))]
    return RoomSnapshot({"id": "r", "seats": seats}, version, members)


async def frames_after(hub: Hub, socket: Socket, *events: RoomEvent) -> list[dict[str, Any]]:
    import json

    for event in events:
        await hub.handle(event)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return [json.loads(text) for text in socket.sent]


class Reads:
    """The hub's reads of a room: ``snapshot`` if given, else nothing (no such room)."""

    def __init__(self) -> None:
        self.snapshot: Any = None

    async def read_snapshot(self, room_id: str) -> RoomSnapshot | None:
        return await self.snapshot(room_id) if self.snapshot is not None else None

    async def identities(self, room_id: str) -> dict[int, dict[str, Any]]:
        return {}


def connected_hub(member_id: int = 1) -> tuple[Hub, Socket]:
    hub = Hub(games=None, reads=Reads())  # type: ignore[arg-type]
    socket = Socket()
    hub.add(Connection(send=socket.send, room_id="r", member_id=member_id, seat=0, name="P0"))
    return hub, socket


async def test_a_room_snapshot_older_than_the_last_one_sent_is_dropped() -> None:
    hub, socket = connected_hub()
    frames = await frames_after(hub, socket, RoomEvent("r", snapshot(5, [1, 2])), RoomEvent("r", snapshot(4, [1])))
    assert [len(f["room"]["seats"]) for f in frames] == [2]
    # the same version again (someone came online, nothing else changed) still goes out, once
    # the room's frames are ROOM_FRAME_GAP apart
    await asyncio.sleep(ROOM_FRAME_GAP)
    frames = await frames_after(hub, socket, RoomEvent("r", snapshot(5, [1, 2])))
    assert len(frames) == 2


async def test_who_is_online_in_a_passed_snapshot_is_as_the_receiving_process_knows_it() -> None:
    hub, socket = connected_hub(member_id=1)
    hub.set_remote_online("r", {3})  # connected through another process
    frames = await frames_after(hub, socket, RoomEvent("r", snapshot(0, [1, 2, 3, None], bots=(3,))))
    assert [s["online"] for s in frames[0]["room"]["seats"]] == [True, False, True, True]


async def test_a_room_event_without_a_snapshot_reads_the_room() -> None:
    hub, socket = connected_hub()
    reads: list[str] = []

    async def read(room_id: str) -> RoomSnapshot:
        reads.append(room_id)
        return snapshot(2, [1])

    hub.reads.snapshot = read  # type: ignore[attr-defined]
    frames = await frames_after(hub, socket, RoomEvent("r"))
    assert reads == ["r"] and frames[0]["room"]["seats"][0]["online"] is True


async def test_a_start_tells_the_room_as_a_fresh_read_of_it_shows(app: Any, client: httpx.AsyncClient) -> None:
    """A game start builds the room's snapshot from the rows it read and wrote, not by
    reading the room again: it must be the very snapshot a read after the start gives, here
    a rematch with a bot's seat and a stand-in for a member who went away."""
    room_id, auth = await seated_room(client, target=5)
    assert (await client.post(f"/api/rooms/{room_id}/bots", headers=auth, json={})).status_code == 200
    invite = (await client.get(f"/api/rooms/{room_id}", headers=auth)).json()["invite_path"].rsplit("/", 1)[1]
    client.cookies.clear()
    linus = (await client.post(f"/api/join/{invite}", json={"name": "Linus"})).json()["token"]
    client.cookies.clear()
    game_id = (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
    away = await client.post(f"/api/rooms/{room_id}/away", headers={"Authorization": f"Bearer {linus}"})
    assert away.status_code == 200, away.text
    assert (await app.state.games.submit(game_id, 0, {"type": "add", "n": 3})).ok
    assert (await app.state.games.submit(game_id, 1, {"type": "add", "n": 2})).ok  # 5 reached: over
    token_hash = app.state.rooms.room_services.token_hash(auth["Authorization"].removeprefix("Bearer "))

    def start_then_read(conn: Any) -> tuple[RoomSnapshot | None, RoomSnapshot | None]:
        _, told = statements.start_game(conn, room_id, token_hash, rematch=True, snapshot=True)
        return told, statements.read_snapshot(conn, room_id)

    told, read = await app.state.db.write(start_then_read)
    assert told is not None and read is not None
    assert told.room["status"] == "playing" and told.room["game_id"] not in (None, game_id)
    seats = [(seat["name"], seat["bot"] is not None, seat["away"]) for seat in told.room["seats"]]
    assert seats == [("Ada", False, False), ("Grace", False, False), (seats[2][0], True, False), ("Linus", True, True)]
    assert (told.room, told.version, told.members) == (read.room, read.version, read.members)
