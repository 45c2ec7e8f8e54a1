"""Crash drill: ``kill -9`` the server in the middle of play, restart it on the same database,
and check that nothing the server acknowledged was lost (docs/deploy.md, "Crash drill").

One round:

1. a fresh database (a SQLite file, or a new PostgreSQL database with ``--postgres``) and one
   ``geniusnight serve`` process with bots that move at once;
2. ``--rooms`` rooms of the three games and the fixture game ``count21``, each seat either a
   ``random`` bot or a scripted websocket client; a client plays its turns with the
   engine's ``random`` policy on the state replayed from the game's log (read through the
   admin export), and the host starts a rematch when a game ends;
3. once play is under way (as many moves acked as there are rooms), at a random instant
   of ``--kill-min`` to ``--kill-max`` seconds later, with at least ``--min-live`` games
   running, the server gets SIGKILL: no shutdown handler runs;
4. the log as the crash left it is read straight from the database: every move a client got
   an ``ack`` for must be there (same seq, seat and ref), and no client saw a ``state``
   whose seq the log does not have;
5. the server starts again on the same database and port; every client reconnects with
   ``hello`` and its last ``seq``: the ``state`` it gets must be of the same game (or a newer
   one), not older than what it saw, and equal to that seat's view of the log replayed to
   that seq; it resends, with the same ``ref``, the moves it had no answer for;
6. every game that was running when the server died must move again (bots resume, clients
   play), and at the end every ``ack`` of the round is in the log.

    .venv/bin/python -m geniusnight.bench.drill --rounds 5         # make drill
    .venv/bin/python -m geniusnight.bench.drill --postgres postgresql://postgres@127.0.0.1/test

A round prints its figures and the problems it found; the exit status is 1 if any.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .load import ADMIN_TOKEN, Server, _register_extra, drop_postgres, free_port, fresh_postgres

TOY = "geniusnight.fixtures.count21:ENGINE"

# (game, options, scripted clients, random bots): every room has at least one client (the host)
ROOM_KINDS: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("count21", {"target": 99}, 2, 0),
    ("ingenious", {}, 1, 1),
    ("genius-idea", {}, 1, 2),
    ("brainiac", {}, 1, 2),
    ("count21", {"target": 99}, 1, 2),
    ("ingenious", {}, 2, 2),
    ("genius-idea", {}, 2, 1),
    ("brainiac", {}, 2, 2),
)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@dataclass
class Shadow:
    """A game replayed from its log on the client side."""

    engine: Any
    state: Any
    seq: int
    log: dict[int, dict[str, Any]] = field(default_factory=dict)


class Client:
    """One scripted websocket client on one seat of a room."""

    def __init__(self, drill: Drill, room: RoomPlan, token: str, host: bool) -> None:
        self.drill = drill
        self.room = room
        self.token = token
        self.host = host
        self.seat: int | None = None
        self.game_id: int | None = None
        self.seen: dict[int, int] = {}  # game id -> newest seq this client got a state of
        self.over: set[int] = set()
        self.acked: dict[str, tuple[int, int, int | None]] = {}  # ref -> (game, seq, seat)
        # ref -> {"frame": the act frame, "game_id", "seat", "at": seq it was chosen at, "resent"}
        self.unanswered: dict[str, dict[str, Any]] = {}
        self.answered_after_restart: dict[str, str] = {}  # resent ref -> "ack" or an error code
        self.acks_after_restart = 0
        self.resync: list[tuple[int, dict[str, Any], int, int | None]] = []  # (game, state, saw, seat)
        self.rematched: set[int] = set()
        self.ws: Any = None

    async def run(self) -> None:
        try:
            await self._run()
        except Exception as e:
            self.drill.problem(f"a client of room {self.room.room_id} failed: {e!r}")
            raise

    async def _run(self) -> None:
        import websockets

        first = True
        while not self.drill.stopping:
            if not first:
                await self.drill.up.wait()
                if self.drill.stopping:
                    return
            try:
                self.ws = await websockets.connect(
                    f"{self.drill.ws_base}/ws/{self.room.room_id}", max_size=1 << 22, compression=None
                )
            except OSError:
                await asyncio.sleep(0.1)
                continue
            try:
                await self._session(resync=not first)
            except (OSError, websockets.ConnectionClosed):
                pass  # the server died (or is stopping): connect again once it is up
            finally:
                with contextlib.suppress(Exception):
                    await self.ws.close()
            first = False

    async def _session(self, resync: bool) -> None:
        last = self.seen.get(self.game_id, 0) if self.game_id is not None else None
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "seq": last}))
        resent = False
        awaiting_resync = resync
        async for text in self.ws:
            frame = json.loads(text)
            kind = frame.get("type")
            if kind == "welcome":
                self.seat = frame["seat"]
            elif kind == "you":
                self.seat = frame["you"]["seat"]
            elif kind == "state":
                if awaiting_resync:
                    awaiting_resync = False
                    saw = self.seen.get(self.game_id, 0) if self.game_id is not None else 0
                    self.resync.append((self.game_id or 0, frame, saw, self.seat))
                await self._on_state(frame)
                if resync and not resent:
                    # moves without an answer are sent again with their ref; a move of an
                    # older game than the room's current one is dropped (the game is over)
                    resent = True
                    for ref, act in list(self.unanswered.items()):
                        if act["game_id"] != frame["game_id"]:
                            del self.unanswered[ref]
                            continue
                        self.drill.resent += 1
                        act["resent"] = True
                        await self.ws.send(json.dumps(act["frame"]))
            elif kind == "ack":
                sent = self.unanswered.pop(frame["ref"], None)
                if sent is None:
                    continue
                self.acked[frame["ref"]] = (sent["game_id"], frame["seq"], sent["seat"])
                if self.drill.restarted:
                    self.acks_after_restart += 1
                    if sent["resent"]:
                        self.answered_after_restart[frame["ref"]] = "ack"
            elif kind == "error" and frame.get("ref") in self.unanswered:
                act = self.unanswered.pop(frame["ref"])
                if act["resent"]:
                    self.answered_after_restart[frame["ref"]] = frame["code"]
            if self.drill.stopping:
                return

    async def _on_state(self, frame: dict[str, Any]) -> None:
        game_id, seq, view = frame["game_id"], frame["seq"], frame["view"]
        if self.game_id is None or game_id > self.game_id:
            self.game_id = game_id
        if game_id != self.game_id:
            return
        self.seen[game_id] = max(seq, self.seen.get(game_id, 0))
        if view.get("over"):
            self.over.add(game_id)
            if self.host and game_id not in self.rematched and not self.drill.stopping:
                self.rematched.add(game_id)
                self.drill.spawn(self._rematch(game_id))
            return
        if self.seat is None or self.seat not in view.get("to_act", ()) or self.drill.stopping:
            return
        if any(a["game_id"] == game_id and a["at"] == seq for a in self.unanswered.values()):
            return
        action = await self._choose(game_id, seq)
        if action is None:
            return
        ref = f"d{self.seat}-{game_id}-{seq}"
        act = {"type": "act", "ref": ref, "action": action}
        self.unanswered[ref] = {"frame": act, "game_id": game_id, "seat": self.seat, "at": seq, "resent": False}
        await self.ws.send(json.dumps(act))

    async def _choose(self, game_id: int, seq: int) -> dict[str, Any] | None:
        shadow = await self.drill.shadow(game_id, seq)
        if shadow is None or shadow.seq != seq or self.seat not in shadow.engine.to_act(shadow.state):
            return None  # the game moved on meanwhile: the next state frame decides
        rng = random.Random(f"{game_id}-{seq}-{self.seat}")
        action = shadow.engine.bot_action(shadow.state, self.seat, "random", rng.getrandbits(63))
        if action is None:
            legal = shadow.engine.legal_actions(shadow.state, self.seat)
            action = rng.choice(legal) if legal else None
        return _json(action) if action is not None else None

    async def _rematch(self, game_id: int) -> None:
        import httpx

        while not self.drill.stopping:
            await self.drill.up.wait()
            try:
                r = await self.drill.http.post(
                    f"/api/rooms/{self.room.room_id}/rematch", headers={"Authorization": f"Bearer {self.token}"}
                )
            except httpx.TransportError:  # the server is down: again once it is up
                await asyncio.sleep(0.2)
                continue
            if r.status_code >= 500:
                self.drill.problem(f"rematch of game {game_id}: HTTP {r.status_code}")
            return


@dataclass
class RoomPlan:
    index: int
    game: str
    options: dict[str, Any]
    clients: int
    bots: int
    room_id: str = ""
    members: list[Client] = field(default_factory=list)


class Drill:
    """One round of the crash drill against one database."""

    def __init__(self, db_url: str, *, rooms: int, min_live: int, kill_after: tuple[float, float], seed: int) -> None:
        _register_extra(TOY)  # the client side replays the toy game's logs too
        self.db_url = db_url
        self.rooms = [RoomPlan(i, *ROOM_KINDS[i % len(ROOM_KINDS)]) for i in range(rooms)]
        self.min_live = min_live
        self.kill_after = kill_after
        self.rng = random.Random(seed)
        self.port = free_port()
        self.server: Server | None = None
        self.up = asyncio.Event()
        self.stopping = False
        self.restarted = False
        self._at_kill: dict[int, int] = {}  # game id -> its last seq in the log at the kill
        self.problems: list[str] = []
        self.resent = 0
        self.http: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._shadows: dict[int, Shadow] = {}

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def clients(self) -> list[Client]:
        return [c for room in self.rooms for c in room.members]

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _server(self) -> Server:
        env = {
            **os.environ,
            "GENIUSNIGHT_ENV": "test",
            "GENIUSNIGHT_ADMIN_TOKEN": ADMIN_TOKEN,
            "GENIUSNIGHT_EXTRA_ENGINES": json.dumps([TOY]),
            "GENIUSNIGHT_BOT_DELAY_MS": "0",
            "GENIUSNIGHT_RATE_PER_SECOND": "100000",
            "GENIUSNIGHT_RATE_BURST": "100000",
            "GENIUSNIGHT_WS_PER_ADDRESS": "1000000",
            "GENIUSNIGHT_WS_CONNECTS_PER_MINUTE": "1000000",
            "GENIUSNIGHT_ROOMS_PER_MINUTE": "1000000",
        }
        argv = [
            sys.executable,
            "-m",
            "geniusnight.cli",
            "serve",
            "--no-migrate",
            "--port",
            str(self.port),
            "--database-url",
            self.db_url,
        ]
        return Server(argv, env, self.port)

    # --- the client side's view of the log -----------------------------------------------

    async def export(self, game_id: int) -> dict[str, Any]:
        r = await self.http.get(
            f"/api/admin/games/{game_id}/export", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}
        )
        r.raise_for_status()
        return r.json()

    async def shadow(self, game_id: int, upto: int) -> Shadow | None:
        """The game replayed from its log, up to at least ``upto`` moves when the log has them."""
        from ..engines import get_engine

        shadow = self._shadows.get(game_id)
        if shadow is not None and shadow.seq >= upto:
            return shadow
        try:
            export = await self.export(game_id)
        except Exception:
            return None  # the server is down: the client reconnects and asks again
        g = export["game"]
        if shadow is None:
            engine = get_engine(g["engine"])
            shadow = Shadow(engine, engine.setup(g["players"], g["options"], g["seed"]), 0)
            self._shadows[game_id] = shadow
        for entry in export["log"]:
            shadow.log[entry["seq"]] = entry
            if entry["seq"] == shadow.seq + 1:
                shadow.state = shadow.engine.apply(shadow.state, entry["seat"], entry["action"])
                shadow.seq += 1
        return shadow

    # --- the round -----------------------------------------------------------------------

    async def setup_rooms(self) -> None:
        async def one(plan: RoomPlan) -> None:
            import httpx

            async with httpx.AsyncClient(base_url=self.base, timeout=60) as c:
                r = await c.post("/api/rooms", json={"game": plan.game, "options": plan.options, "name": "Host"})
                r.raise_for_status()
                made = r.json()
                plan.room_id = made["room_id"]
                invite = made["invite_url"].rsplit("/", 1)[-1]
                plan.members.append(Client(self, plan, made["token"], host=True))
                for j in range(1, plan.clients):
                    c.cookies.clear()
                    r = await c.post(f"/api/join/{invite}", json={"name": f"Guest {j}"})
                    r.raise_for_status()
                    plan.members.append(Client(self, plan, r.json()["token"], host=False))
                c.cookies.clear()
                auth = {"Authorization": f"Bearer {made['token']}"}
                for _ in range(plan.bots):
                    (
                        await c.post(f"/api/rooms/{plan.room_id}/bots", json={"bot": "random"}, headers=auth)
                    ).raise_for_status()
                (await c.post(f"/api/rooms/{plan.room_id}/start", headers=auth)).raise_for_status()

        for i in range(0, len(self.rooms), 10):
            await asyncio.gather(*(one(p) for p in self.rooms[i : i + 10]))

    def live_games(self) -> set[int]:
        """Games some client saw running (not over) as its room's current game."""
        live: set[int] = set()
        for room in self.rooms:
            current = max((c.game_id or 0 for c in room.members), default=0)
            if current and not any(current in c.over for c in room.members):
                live.add(current)
        return live

    async def read_log(self) -> tuple[dict[int, dict[int, tuple[int | None, str | None]]], dict[int, bool]]:
        """The moves and games as they are in the database (no server running)."""
        from sqlalchemy import select

        from ..storage.database import Database
        from ..storage.models import Game, Move

        db = Database(self.db_url)
        try:
            async with db.sessions() as s:
                moves = (await s.execute(select(Move.game_id, Move.seq, Move.seat, Move.ref))).all()
                games = (await s.execute(select(Game.id, Game.finished_at))).all()
        finally:
            await db.dispose()
        log: dict[int, dict[int, tuple[int | None, str | None]]] = {}
        for game_id, seq, seat, ref in moves:
            log.setdefault(game_id, {})[seq] = (seat, ref)
        return log, {game_id: finished is not None for game_id, finished in games}

    def check_acks(self, log: dict[int, dict[int, tuple[int | None, str | None]]], when: str) -> int:
        n = 0
        for c in self.clients:
            for ref, (game_id, seq, seat) in c.acked.items():
                n += 1
                if log.get(game_id, {}).get(seq) != (seat, ref):
                    self.problem(f"{when}: ack of {ref} (game {game_id}, seq {seq}) is not in the log")
        return n

    async def run(self) -> dict[str, Any]:
        import httpx

        t0 = time.monotonic()
        self.server = self._server().start()
        self.up.set()
        report: dict[str, Any] = {"rooms": len(self.rooms)}
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            self.http = http
            try:
                await self.setup_rooms()
                report["clients"] = len(self.clients)
                report["setup_seconds"] = round(time.monotonic() - t0, 1)
                runners = [asyncio.create_task(c.run()) for c in self.clients]
                await self._crash_and_restart(report)
                await self._wait_resumed(report)
                self.stopping = True
                self.up.set()
                for c in self.clients:
                    if c.ws is not None:
                        with contextlib.suppress(Exception):
                            await c.ws.close()
                await asyncio.wait(runners, timeout=10)
                for task in [*runners, *self._tasks]:
                    task.cancel()
                await self._check_resyncs(report)  # the server runs on: its log only grows
            finally:
                self.stopping = True
                self.server.stop()
        log, _ = await self.read_log()
        report["acks_total"] = self.check_acks(log, "at the end")
        report["seconds"] = round(time.monotonic() - t0, 1)
        report["problems"] = self.problems
        return report

    async def _crash_and_restart(self, report: dict[str, Any]) -> None:
        assert self.server is not None and self.server.proc is not None
        # play is under way (as many moves acked as there are rooms), then a random instant
        warm = time.monotonic() + 30
        while sum(len(c.acked) for c in self.clients) < len(self.rooms) and time.monotonic() < warm:
            await asyncio.sleep(0.01)
        wait = self.rng.uniform(*self.kill_after)
        await asyncio.sleep(wait)
        deadline = time.monotonic() + 10
        while len(self.live_games()) < self.min_live and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        live = self.live_games()
        self.up.clear()
        self.server.proc.kill()  # SIGKILL: nothing of the server runs after this line
        await asyncio.to_thread(self.server.proc.wait)
        report["killed_after_seconds"] = round(wait, 2)
        report["live_at_kill"] = len(live)
        report["acks_before_kill"] = sum(len(c.acked) for c in self.clients)
        report["unanswered_at_kill"] = sum(len(c.unanswered) for c in self.clients)
        log, finished = await self.read_log()
        report["moves_in_log_at_kill"] = sum(len(m) for m in log.values())
        self.check_acks(log, "after the crash")
        for c in self.clients:
            for game_id, seq in c.seen.items():
                last = max(log.get(game_id, {0: None}))
                if seq > last:
                    self.problem(f"a client saw game {game_id} at seq {seq}, the log ends at {last}")
        # the games still running in the log (a client may not have seen a game's last move)
        self._at_kill = {g: max(log.get(g, {0: None})) for g in live if not finished.get(g)}
        report["running_at_kill"] = len(self._at_kill)
        t = time.monotonic()
        self._shadows.clear()
        self.server = self._server().start()
        report["restart_seconds"] = round(time.monotonic() - t, 2)
        self.restarted = True
        self.up.set()

    async def _wait_resumed(self, report: dict[str, Any], timeout: float = 30) -> None:
        """Every game that was running at the crash moves past the seq it had then."""
        deadline = time.monotonic() + timeout

        def stuck() -> list[int]:
            newest: dict[int, int] = {}
            for c in self.clients:
                for game_id, seq in c.seen.items():
                    newest[game_id] = max(seq, newest.get(game_id, 0))
            return [g for g, seq in self._at_kill.items() if newest.get(g, 0) <= seq]

        t = time.monotonic()
        while stuck() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        report["resume_seconds"] = round(time.monotonic() - t, 2)
        report["games_resumed"] = len(self._at_kill) - len(stuck())
        for game_id in stuck():
            self.problem(f"game {game_id} did not move again after the restart")
        # the clients play on a little: their moves after the restart are acked, and every
        # move they sent again gets its answer
        enough = time.monotonic() + 5

        def resent_open() -> list[str]:
            return [ref for c in self.clients for ref, act in c.unanswered.items() if act["resent"]]

        while time.monotonic() < deadline and (
            resent_open()
            or (sum(c.acks_after_restart for c in self.clients) < len(self.rooms) // 2 and time.monotonic() < enough)
        ):
            await asyncio.sleep(0.05)
        report["acks_after_restart"] = sum(c.acks_after_restart for c in self.clients)
        report["resent"] = self.resent
        answered = sum(len(c.answered_after_restart) for c in self.clients)
        report["resent_answered"] = answered
        if report["acks_after_restart"] == 0:
            self.problem("no client move was acked after the restart")
        for ref in resent_open():
            self.problem(f"resent move {ref} got no answer after the restart")

    async def _check_resyncs(self, report: dict[str, Any]) -> None:
        """Each client's first state after reconnecting: same game or newer, not older than
        what it saw, and the very view of its seat at that seq of the log."""
        from ..engines import get_engine

        missing = [c for c in self.clients if not c.resync]
        for c in missing:
            self.problem(f"a client of room {c.room.room_id} never got a state after the restart")
        exports: dict[int, dict[str, Any]] = {}
        checked = 0
        for c in self.clients:
            for saw_game, frame, saw_seq, seat in c.resync[:1]:
                game_id, seq = frame["game_id"], frame["seq"]
                if game_id < saw_game or (game_id == saw_game and seq < saw_seq):
                    self.problem(f"resync of game {saw_game} at {saw_seq} answered {game_id} at {seq}")
                    continue
                if game_id not in exports:
                    exports[game_id] = await self.export(game_id)
                g = exports[game_id]["game"]
                engine = get_engine(g["engine"])
                state = engine.setup(g["players"], g["options"], g["seed"])
                for entry in exports[game_id]["log"][:seq]:
                    state = engine.apply(state, entry["seat"], entry["action"])
                if _json(engine.view(state, seat)) != frame["view"]:
                    self.problem(f"resync state of game {game_id} at seq {seq} is not seat {seat}'s view")
                checked += 1
        report["resyncs_checked"] = checked


async def drill_round(
    db_url: str,
    *,
    rooms: int = 60,
    min_live: int = 50,
    kill_after: tuple[float, float] = (0.0, 3.0),
    seed: int | None = None,
) -> dict[str, Any]:
    """One round on a migrated database ``db_url``: the report, with ``problems`` empty when
    every check held."""
    seed = random.randrange(1 << 30) if seed is None else seed
    report = await Drill(db_url, rooms=rooms, min_live=min_live, kill_after=kill_after, seed=seed).run()
    report["seed"] = seed
    return report


async def _one(args: argparse.Namespace, index: int) -> dict[str, Any]:
    from ..cli import db_upgrade

    dropped: tuple[str, str] | None = None
    if args.postgres:
        url = args.postgres.replace("postgresql://", "postgresql+asyncpg://", 1)
        db_url, name = await fresh_postgres(url)
        dropped = (url, name)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="geniusnight-drill-"))
        db_url = f"sqlite+aiosqlite:///{tmp / 'drill.db'}"
    await asyncio.to_thread(db_upgrade, db_url)
    try:
        seed = None if args.seed is None else args.seed + index
        return await drill_round(
            db_url, rooms=args.rooms, min_live=args.min_live, kill_after=(args.kill_min, args.kill_max), seed=seed
        )
    finally:
        if dropped is not None:
            await drop_postgres(*dropped)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--rooms", type=int, default=60)
    parser.add_argument("--min-live", type=int, default=50, help="running games at the kill")
    parser.add_argument("--kill-min", type=float, default=0.0, help="seconds of play before the kill, at least")
    parser.add_argument("--kill-max", type=float, default=3.0, help="... and at most")
    parser.add_argument("--postgres", help="a PostgreSQL URL: each round on a new database of that server")
    parser.add_argument("--seed", type=int, help="the first round's seed (default: random)")
    args = parser.parse_args()
    failed = 0
    for i in range(args.rounds):
        report = asyncio.run(_one(args, i))
        problems = report.pop("problems")
        print(f"round {i + 1}: " + ", ".join(f"{k} {v}" for k, v in report.items()))
        for p in problems:
            print(f"  PROBLEM: {p}")
        failed += bool(problems) or report.get("live_at_kill", 0) < args.min_live
    print(f"{args.rounds - failed} of {args.rounds} rounds passed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
