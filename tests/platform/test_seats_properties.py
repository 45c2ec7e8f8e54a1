"""Property: whatever joins, kicks, host passes, bots standing in for players (handed over by
the host or asked for, and taken back, by the control or by reconnecting), leaves, starts,
rematches and moves several clients make at once, every socket and every ``/view`` shows only
the seat its own member holds, and every logged move belongs to the member who sent it, or
to a bot while one plays that seat. On SQLite and on PostgreSQL (when configured); a few
examples, each a room of its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from geniusnight.storage.models import Game, GameSeat, Member, Move, Room
from inprocess import Served, serve
from support import FakeClock

SECRETS = [10, 11, 12, 13]  # seat i's secret is 10 + i


@dataclass
class Client:
    name: str
    token: str
    member_id: int
    ws: Any = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    acks: list[int] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    def last_state(self) -> dict[str, Any] | None:
        return next((f for f in reversed(self.frames) if f["type"] == "state"), None)

    async def read(self, ws: Any) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                frame = json.loads(text)
                self.frames.append(frame)
                if frame["type"] == "ack" and not frame["duplicate"]:
                    self.acks.append(frame["seq"])


@dataclass
class Checkpoint:
    """Each game's seq and the seats a bot played then."""

    seq: dict[int, int]
    bots: dict[int, set[int]]


MOVE = st.tuples(st.just("move"), st.integers(0, 5))
CLIENT = st.integers(0, 5)
OPS = st.one_of(
    st.just(("join",)),
    st.just(("join",)),
    st.just(("bot",)),
    st.just(("start",)),
    st.just(("start",)),
    st.just(("rematch",)),
    st.just(("rematch",)),
    st.tuples(st.just("kick"), st.integers(1, 3)),
    st.tuples(st.just("pass"), st.integers(0, 3)),
    st.tuples(st.just("hand"), st.integers(0, 3)),
    st.tuples(st.just("hand"), st.integers(0, 3)),
    st.tuples(st.just("away"), CLIENT),
    st.tuples(st.just("back"), CLIENT),
    st.tuples(st.just("back"), CLIENT),
    st.tuples(st.just("reconnect"), CLIENT),
    st.tuples(st.just("leave"), st.integers(1, 5)),
    MOVE,
    MOVE,
    st.just(("move", 0)),
    st.just(("move", 0)),
    st.just(("move", 0)),
    st.just(("move", 0)),
    st.just(("tick",)),
    st.just(("tick",)),
)
BATCHES = st.lists(st.lists(OPS, min_size=1, max_size=3), min_size=4, max_size=10)


class Table:
    def __init__(self, srv: Served, http: httpx.AsyncClient, clock: FakeClock) -> None:
        self.srv, self.http, self.clock = srv, http, clock
        self.clients: list[Client] = []
        self.room_id = ""
        self.invite = ""
        self.checkpoints: list[Checkpoint] = []
        # per batch: the seat numbers its ops may have handed to a bot or back
        self.touched: list[set[int]] = []

    async def request(self, method: str, path: str, token: str | None = None, body: Any = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = await self.http.request(method, path, json=body, headers=headers)
        assert r.status_code < 500, (method, path, r.text)
        return r

    async def add(self, joined: dict[str, Any], name: str) -> None:
        client = Client(name, joined["token"], joined["member_id"])
        self.clients.append(client)
        await self.connect(client)

    async def connect(self, client: Client) -> None:
        """A socket for the client, once its welcome came (or it was refused)."""
        client.ws = await websockets.connect(f"{self.srv.ws_base}/ws/{self.room_id}")
        await client.ws.send(json.dumps({"type": "hello", "token": client.token}))
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                frame = json.loads(await asyncio.wait_for(client.ws.recv(), 10))
                client.frames.append(frame)
                if frame["type"] in ("welcome", "error"):
                    break
        client.reader = asyncio.create_task(client.read(client.ws))

    async def host(self) -> Client | None:
        async with self.srv.state.db.sessions() as s:
            room = await s.get(Room, self.room_id)
            assert room is not None
            return next((c for c in self.clients if c.member_id == room.host_member_id), None)

    async def seats_of(self, client: Client) -> set[int]:
        """Every seat number the client's member holds in any of the room's games."""
        async with self.srv.state.db.sessions() as s:
            return set((await s.execute(select(GameSeat.seat).where(GameSeat.member_id == client.member_id))).scalars())

    def client(self, i: int) -> Client | None:
        return self.clients[i] if i < len(self.clients) else None

    async def run(self, op: tuple[Any, ...], touched: set[int]) -> None:
        kind = op[0]
        if kind == "join":
            r = await self.request("POST", f"/api/join/{self.invite}", body={"name": f"P{len(self.clients)}"})
            if r.status_code == 200:
                await self.add(r.json(), f"P{len(self.clients)}")
            return
        if kind == "tick":  # the bots to act move
            self.clock.advance(1)
            await asyncio.sleep(0.02)
            return
        if kind == "move":  # 0: whoever is to act moves; else that client tries, in turn or not
            client = await self.to_act() if op[1] == 0 else self.client(op[1])
            if client is not None:
                with contextlib.suppress(Exception):
                    act = {"type": "act", "ref": f"m{len(client.frames)}", "action": {"type": "add", "n": 3}}
                    await client.ws.send(json.dumps(act))
            return
        if kind in ("away", "back", "reconnect", "leave"):
            client = self.client(op[1])
            if client is None:
                return
            touched |= await self.seats_of(client)
            if kind == "reconnect":  # comes back: ends a stand-in the host made
                await client.ws.close()
                if client.reader is not None:
                    await client.reader
                await self.connect(client)
            else:
                await self.request("POST", f"/api/rooms/{self.room_id}/{kind}", client.token)
            touched |= await self.seats_of(client)
            return
        host = await self.host()
        if host is None:
            return
        rid = self.room_id
        if kind == "bot":
            await self.request("POST", f"/api/rooms/{rid}/bots", host.token, {"bot": "smart"})
        elif kind in ("start", "rematch"):
            await self.request("POST", f"/api/rooms/{rid}/{kind}", host.token)
        elif kind == "kick":
            touched.add(op[1])
            await self.request("DELETE", f"/api/rooms/{rid}/seats/{op[1]}", host.token)
        elif kind == "hand":
            touched.add(op[1])
            await self.request("POST", f"/api/rooms/{rid}/seats/{op[1]}/bot", host.token)
        elif kind == "pass":
            await self.request("POST", f"/api/rooms/{rid}/host", host.token, {"seat": op[1]})

    async def batch(self, ops: list[tuple[Any, ...]]) -> None:
        await self.checkpoint()
        touched: set[int] = set()
        await asyncio.gather(*(self.run(op, touched) for op in ops))
        self.touched.append(touched)
        await self.checkpoint()

    async def checkpoint(self) -> None:
        """Each game's seq and bot seats as the database has them (not the server's cache)."""
        async with self.srv.state.db.sessions() as s:
            games = select(Game.id, Game.last_seq, Game.seats).where(Game.room_id == self.room_id)
            rows = (await s.execute(games)).all()
        seq = {game_id: last for game_id, last, _ in rows}
        bots = {game_id: {i for i, seat in enumerate(seats) if seat.get("bot")} for game_id, _, seats in rows}
        self.checkpoints.append(Checkpoint(seq, bots))

    def bot_played(self, game_id: int, seq: int) -> tuple[set[int], set[int]]:
        """The seats a bot may have played at ``seq`` of ``game_id``, and those it surely
        played (from the checkpoints around that seq)."""
        points = self.checkpoints
        for j in range(1, len(points)):
            if points[j].seq.get(game_id, 0) >= seq:
                before, after = points[j - 1].bots.get(game_id, set()), points[j].bots.get(game_id, set())
                touched = self.touched[j // 2] if j % 2 else set()  # checkpoints 2k and 2k+1 wrap batch k
                return before | after | touched, (before & after) - touched
        last = points[-1].bots.get(game_id, set())
        return last, last

    async def to_act(self) -> Client | None:
        async with self.srv.state.db.sessions() as s:
            room = await s.get(Room, self.room_id)
            assert room is not None
            game_id = room.current_game_id
        if game_id is None:
            return None
        live = await self.srv.state.games.get(game_id)
        if live.over:
            return None
        member = next((m for m, seat in live.holders.items() if seat == live.state.turn), None)
        return next((c for c in self.clients if c.member_id == member), None)

    async def settle(self) -> None:
        """Until the bots have moved and every open socket has the current state."""
        games = self.srv.state.games
        for _ in range(300):
            self.clock.advance(1)
            await asyncio.sleep(0.01)
            async with self.srv.state.db.sessions() as s:
                room = await s.get(Room, self.room_id)
                assert room is not None
                game_id = room.current_game_id
            if game_id is None:
                return
            live = await games.get(game_id)
            bots_to_act = not live.over and any(seat in live.engine.to_act(live.state) for seat in live.bot_seats())
            behind = [
                c
                for c in await self.seated_now()
                if (c.last_state() or {}).get("game_id") != game_id or c.last_state()["seq"] != live.seq  # type: ignore[index]
            ]
            if not bots_to_act and not behind:
                return
        raise AssertionError("the room did not settle")

    async def seated_now(self) -> list[Client]:
        async with self.srv.state.db.sessions() as s:
            gone = set((await s.execute(select(Member.id).where(Member.kicked.is_(True)))).scalars())
        return [c for c in self.clients if c.member_id not in gone]

    async def check(self) -> None:
        await self.checkpoint()
        async with self.srv.state.db.sessions() as s:
            room = await s.get(Room, self.room_id)
            assert room is not None
            games = {g.id: g for g in (await s.execute(select(Game).where(Game.room_id == self.room_id))).scalars()}
            held = {
                (r.game_id, r.member_id): r.seat
                for r in (await s.execute(select(GameSeat).where(GameSeat.game_id.in_(games)))).scalars()
            }
            moves = list((await s.execute(select(Move).where(Move.game_id.in_(games)))).scalars())
        # who started each game at which seat (a kick or a stand-in leaves the history as it was)
        first = {(g.id, seat["member_id"]): i for g in games.values() for i, seat in enumerate(g.seats)}
        for move in moves:
            if move.seat is None:
                continue  # the system's (a timeout)
            may, surely = self.bot_played(move.game_id, move.seq)
            if move.member_id is None:
                assert move.seat in may, f"a bot moved for seat {move.seat} at seq {move.seq}, which no bot played"
            else:
                assert first[(move.game_id, move.member_id)] == move.seat, "a move logged at someone else's seat"
                assert move.seat not in surely, f"a member moved at seq {move.seq} while a bot played the seat"
        sent = {(m.seq, m.member_id) for m in moves}
        for client in self.clients:
            for seq in client.acks:
                assert (seq, client.member_id) in sent, "an acked move logged as someone else's"
            for frame in client.frames:
                if frame["type"] == "state" and "secret" in frame["view"]:
                    seat = first.get((frame["game_id"], client.member_id))
                    assert seat is not None and frame["view"]["secret"] == SECRETS[seat]
        game_id = room.current_game_id
        if game_id is None:
            return
        for client in await self.seated_now():
            seat = held.get((game_id, client.member_id))
            view = (await self.request("GET", f"/api/rooms/{self.room_id}/view", client.token)).json()
            assert view["view"].get("secret") == (SECRETS[seat] if seat is not None else None)
            state = client.last_state()
            assert state is not None and state["view"].get("secret") == view["view"].get("secret")

    async def close(self) -> None:
        for client in self.clients:
            with contextlib.suppress(Exception):
                await client.ws.close()
            if client.reader is not None:
                client.reader.cancel()


@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(start=st.booleans(), batches=BATCHES)
async def test_every_socket_and_view_shows_only_its_own_members_seat(
    any_db_url: str, start: bool, batches: list[list[tuple[Any, ...]]]
) -> None:
    # bots think for a second of the test's clock: they move when a "tick" or the settling
    # moves it, so a player's move meets the bot that plays their seat
    clock = FakeClock()
    async with (
        serve(any_db_url, clock=clock, bot_delay_ms=1000) as srv,
        httpx.AsyncClient(base_url=srv.base) as http,
    ):
        table = Table(srv, http, clock)
        body = {"game": "count21", "name": "Host", "options": {"secrets": SECRETS, "target": 7}}
        made = (await table.request("POST", "/api/rooms", body=body)).json()
        table.room_id, table.invite = made["room_id"], made["invite_url"].rsplit("/", 1)[1]
        await table.add(made, "Host")
        http.cookies.clear()
        for _ in range(2):  # a table to play at: the host and two more
            await table.run(("join",), set())
            http.cookies.clear()
        try:
            if start:  # else the lobby sees the first batches
                await table.run(("start",), set())
            for ops in batches:
                await table.batch(ops)
                http.cookies.clear()
            await table.settle()
            await table.check()
        finally:
            await table.close()
