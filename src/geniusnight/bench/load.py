"""``geniusnight bench load``: real games over real websockets, as fast as the server allows.

The benchmark starts the server (one or more ``geniusnight serve`` processes on a fresh
SQLite file, or on a fresh PostgreSQL database with Redis) or targets a running one, opens
``--rooms`` rooms of ``--clients`` seated websocket clients, and plays whole games: for the
seat to act, the client side computes the engine's bot move (``engine.bot_action`` on a
shadow state replayed from the game's seed; see :class:`Deals`), sends it, and waits until
*every* client of the room has the ``state`` frame of the new ``seq`` before the next move.
A finished game is followed by a rematch.

It reports accepted moves per second, the latency from a move's send to the last client's
state frame for that ``seq`` (p50/p95/p99), errors, the server processes' CPU and RSS
(psutil), and the memory of idle connections (``--idle`` websockets opened at once; RSS
delta divided by their number). The same room loop then runs against a bare uvicorn
broadcast server (:mod:`geniusnight.bench.bare`) that sends frames of the same mean size,
and our throughput is reported as a ratio of it.

Clients: one asyncio process per ``--client-procs`` (default 1) using the ``websockets``
library; only the head of each state frame is parsed (a regular expression for ``game_id``
and ``seq``), so a client costs little more than the socket reads.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..server.app import tune_gc
from ..server.play.connection import WRITER_LINGER

ADMIN_TOKEN = "bench-admin-token-" + "x" * 16
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
# a state or patch frame's game and seq, as an object or compact (["s" or "p", game, seq, ...])
HEAD = re.compile(
    r'^(?:\{"type":"(?:state|patch)","game_id":(?P<game>\d+),"seq":(?P<seq>\d+)|\["[sp]",(?P<g>\d+),(?P<s>\d+))'
)
REAL_GAMES = ("ingenious", "genius-idea", "brainiac")  # what ``--game all`` (the default) runs

DEFAULT_OPTIONS = {"ingenious": {"variant": "standard"}, "count21": {"target": 99}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- servers -------------------------------------------------------------------------------


@dataclass
class Server:
    """One server subprocess (ours or the bare one)."""

    argv: list[str]
    env: dict[str, str]
    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, probe: str | None = "/api/games", timeout: float = 60) -> Server:
        import httpx

        log = open(f"/tmp/geniusnight-bench-{self.port}.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(self.argv, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited; see /tmp/geniusnight-bench-{self.port}.log")
            try:
                if probe is None:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                        return self
                elif httpx.get(self.base + probe, timeout=1).status_code == 200:
                    return self
            except (OSError, httpx.HTTPError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start in {timeout:g} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def our_servers(args: argparse.Namespace, db_url: str, prefix: Sequence[str] = ()) -> list[Server]:
    """Our server processes, each started as ``prefix`` (a profiler, say) followed by its command."""
    env = {
        **os.environ,
        "GENIUSNIGHT_ENV": "test",
        "GENIUSNIGHT_ADMIN_TOKEN": ADMIN_TOKEN,
        # the clients move as fast as the server answers: lift the per-connection flood limit
        "GENIUSNIGHT_RATE_PER_SECOND": "100000",
        "GENIUSNIGHT_RATE_BURST": "100000",
        "GENIUSNIGHT_BOT_DELAY_MS": "0",
        # every client comes from one address
        "GENIUSNIGHT_WS_PER_ADDRESS": "1000000",
        "GENIUSNIGHT_WS_CONNECTS_PER_MINUTE": "1000000",
        "GENIUSNIGHT_WS_TOTAL": "1000000",
        "GENIUSNIGHT_ROOMS_PER_MINUTE": "1000000",
    }
    if args.redis_url:
        env["GENIUSNIGHT_REDIS_URL"] = args.redis_url
    if args.extra_engine:
        env["GENIUSNIGHT_EXTRA_ENGINES"] = json.dumps([args.extra_engine])
    servers = []
    for i in range(args.processes):
        port = free_port()
        argv = [
            *prefix,
            sys.executable,
            "-m",
            "geniusnight.cli",
            "serve",
            "--port",
            str(port),
            "--database-url",
            db_url,
        ]
        if i > 0:
            argv.append("--no-migrate")
        servers.append(Server(argv, env, port))
    return servers


def bare_server(frame_bytes: int) -> Server:
    port = free_port()
    argv = [sys.executable, "-m", "geniusnight.bench.bare", "--port", str(port), "--frame-bytes", str(frame_bytes)]
    return Server(argv, dict(os.environ), port)


async def fresh_postgres(url: str, prefix: str = "gn_bench") -> tuple[str, str]:
    """CREATE DATABASE <prefix>_<random> on the server of ``url``; return (its URL, its name)."""
    import asyncpg

    admin = url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"{prefix}_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return f"{url.rsplit('/', 1)[0]}/{name}", name


async def drop_postgres(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


# --- clients -------------------------------------------------------------------------------


@dataclass
class Stats:
    moves: int = 0
    errors: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)  # seconds from a rematch request to play
    frame_bytes: int = 0
    frames: int = 0
    frame_sizes: list[int] = field(default_factory=list)  # each state or patch frame a client got
    error_samples: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    window_cpu: float | None = None  # CPU seconds of the server processes in the timed window
    client_cpu: float = 0.0  # CPU seconds of this client process in the timed window
    stop: bool = False  # set at the end of the timed window: every room loop ends
    rooms: list[Room] = field(default_factory=list)  # watched for moves that never arrive
    go: asyncio.Event = field(default_factory=asyncio.Event)  # set once every room is connected

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(text[:300])


class Room:
    """One room's clients and the bookkeeping for "every client has seq n"."""

    def __init__(self, k: int, name: str) -> None:
        self.k = k
        self.name = name
        self.game_id: int | None = None
        self.seen = [0] * k  # per client: the last seq of the current game it got
        self.target = 0
        self.asked_at = 0.0  # when the move of seq ``target`` was sent (0: none yet)
        self.done = asyncio.Event()
        self.failed: str | None = None
        self.socks: list[Any] = []

    def got_state(self, i: int, game_id: int, seq: int) -> None:
        if game_id != self.game_id:
            return
        if seq > self.seen[i]:
            self.seen[i] = seq
        if min(self.seen) >= self.target:
            self.done.set()

    def fail(self, why: str) -> None:
        self.failed = why
        self.done.set()

    def expect(self, seq: int) -> None:
        self.target = seq
        self.asked_at = time.perf_counter()
        self.done.clear()
        if min(self.seen) >= seq:
            self.done.set()


class Pace:
    """When a room sends its next move. Without ``--rate``: as soon as the last one has
    reached every client (a closed loop: the server sets the pace). With ``--rate R``: each
    room moves every ``rooms / R`` seconds (an open loop, rooms spread over the interval),
    and a move's latency counts from when it was due, so a server that falls behind is
    charged for the wait too (no coordinated omission)."""

    def __init__(self, args: argparse.Namespace, index: int) -> None:
        self.interval = args.rooms / args.rate if args.rate else 0.0
        self.phase = (index % args.rooms) / args.rooms * self.interval
        self.due = 0.0
        self.restart()

    def restart(self) -> None:
        self.due = time.perf_counter() + self.phase

    async def wait(self) -> float:
        """Sleep until the next move is due; return the time its latency counts from."""
        if not self.interval:
            return time.perf_counter()
        due, self.due = self.due, self.due + self.interval
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        return due


class Deals:
    """Where the clients learn each new game's deal (players, options, seed) to replay it on
    their side. When the benchmark made the database, straight from its ``games`` table: a
    point read by key in the client's process. Against ``--target`` servers, through the admin
    export, an HTTP request to the server under test at every game start that no player ever
    makes (5 % of the server's CPU in the closed loop; docs/performance.md, "How figures are
    taken")."""

    def __init__(self, db_url: str | None) -> None:
        self.db_url = db_url
        self._sqlite: Any = None
        self._pool: Any = None

    async def read(self, http: Any, base: str, game_id: int) -> dict[str, Any]:
        url = self.db_url
        if url is None:
            export = await _http(http, "GET", f"{base}/api/admin/games/{game_id}/export", headers=ADMIN)
            game: dict[str, Any] = export["game"]
            return game
        if url.startswith("sqlite"):
            if self._sqlite is None:
                import sqlite3

                path = url.split(":///", 1)[1]
                self._sqlite = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            row = self._sqlite.execute("SELECT players, options, seed FROM games WHERE id = ?", (game_id,)).fetchone()
        else:
            if self._pool is None:
                import asyncpg

                dsn = url.replace("postgresql+asyncpg://", "postgresql://")
                self._pool = await asyncpg.create_pool(dsn, min_size=1, max_size=4)
            row = await self._pool.fetchrow("SELECT players, options::text, seed FROM games WHERE id = $1", game_id)
        if row is None:
            raise RuntimeError(f"game {game_id} is not in the database")
        return {"players": row[0], "options": json.loads(row[1]), "seed": row[2]}

    async def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        if self._pool is not None:
            await self._pool.close()


# --patches -> the hello's "patches" (docs/protocol.md, "Patch frames")
HELLO_PATCHES: dict[str, Any] = {"compact": "compact", "json-patch": True, "none": False}


async def _reader(room: Room, i: int, ws: Any, stats: Stats) -> None:
    with contextlib.suppress(Exception):
        async for text in ws:
            if not isinstance(text, str):
                continue
            m = HEAD.match(text)
            if m is not None:
                stats.frames += 1
                stats.frame_bytes += len(text)
                stats.frame_sizes.append(len(text))
                room.got_state(i, int(m["game"] or m["g"]), int(m["seq"] or m["s"]))
                continue
            frame = json.loads(text)
            if isinstance(frame, list):
                continue  # a compact ack or room patch
            kind = frame.get("type")
            if kind == "error":
                stats.error(text)
                room.fail(text)
            elif kind == "state":  # not in the compact form (should not happen)
                room.got_state(i, int(frame["game_id"]), int(frame["seq"]))


async def _http(client: Any, method: str, url: str, **kw: Any) -> Any:
    r = await client.request(method, url, **kw)
    r.raise_for_status()
    return r.json()


async def _post(base: str, path: str, token: str) -> Any:
    """POST ``path`` with no body as the holder of ``token``, on a connection of its own (as a
    browser's keep-alive has lapsed between two games): the JSON it answers.

    The game starts in the timed loop go through this, not httpx, which cost the clients a
    tenth of their CPU in the closed loop (about 3 ms a request): the clients are the
    measuring instrument, and they share the machine with the server they measure."""
    host, _, port = base.removeprefix("http://").partition(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
            "Content-Length: 0\r\nConnection: close\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
        body = await reader.readexactly(int(length.group(1))) if length else await reader.read()
    finally:
        writer.close()  # not waited for: the answer is in
    status = head.split(b" ", 2)[1] if head.startswith(b"HTTP/1.1 ") else b"?"
    if status != b"200":
        raise RuntimeError(f"POST {path}: {head[:200]!r} {body[:200]!r}")
    return json.loads(body)


async def guarded(name: str, stats: Stats, started: asyncio.Event, play: Awaitable[None]) -> None:
    """Run a room's loop (``play``); a set-up that fails is counted as an error, and the room
    counts as started either way (the timed window waits for every room)."""
    try:
        await play
    except Exception as e:
        stats.error(f"{name}: set-up failed: {e!r}")
    finally:
        started.set()


async def play_room(
    index: int,
    args: argparse.Namespace,
    bases: list[str],
    stats: Stats,
    started: asyncio.Event,
    deals: Deals,
) -> None:
    """Create a room, seat ``clients`` humans, and play games until the timed window ends
    (``stats.stop``)."""
    import httpx
    import websockets

    from ..engines import get_engine

    engine = get_engine(args.game)
    k = args.clients
    base = bases[index % len(bases)]
    room = Room(k, f"room {index}")
    stats.rooms.append(room)
    options = json.loads(args.options) if args.options else DEFAULT_OPTIONS.get(args.game, {})
    # uvicorn drops a keep-alive connection after 5 quiet seconds: reconnect before that
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(keepalive_expiry=2)) as http:
        made = await _http(
            http, "POST", f"{base}/api/rooms", json={"game": args.game, "options": options, "name": "P0"}
        )
        room_id, invite = made["room_id"], made["invite_url"].rsplit("/", 1)[-1]
        tokens = [made["token"]]
        for j in range(1, k):
            http.cookies.clear()  # a seat cookie would make the next join "already seated"
            tokens.append((await _http(http, "POST", f"{base}/api/join/{invite}", json={"name": f"P{j}"}))["token"])
        http.cookies.clear()
        # each client on the server its seat number picks, so a room's clients span the
        # processes; or, with --room-affinity, all on the room's own (as deploy/nginx.conf routes)
        for j in range(k):
            ws_base = bases[(index + (0 if args.room_affinity else j)) % len(bases)].replace("http://", "ws://")
            ws = await websockets.connect(f"{ws_base}/ws/{room_id}", max_size=1 << 22, compression=None)
            hello = {"type": "hello", "token": tokens[j], "seq": None, "patches": HELLO_PATCHES[args.patches]}
            if args.patches == "compact":
                hello["ack_in_patch"] = True  # as the pages ask: a move's ack comes in its patch
            await ws.send(json.dumps(hello))
            room.socks.append(ws)
        readers = [asyncio.create_task(_reader(room, j, ws, stats)) for j, ws in enumerate(room.socks)]
        started.set()
        # rooms begin over the ramp, as they would on a real server, not all in one instant
        await stats.go.wait()
        await asyncio.sleep(args.ramp * index / max(1, args.rooms))
        path = "start"
        pace = Pace(args, index)
        try:
            while not stats.stop and room.failed is None:
                asked = time.perf_counter()
                begun = await _post(base, f"/api/rooms/{room_id}/{path}", tokens[0])
                path = "rematch"
                room.game_id = begun["game_id"]
                room.seen = [0] * k
                g = await deals.read(http, base, begun["game_id"])
                state = engine.setup(g["players"], g["options"], g["seed"])
                stats.starts.append(time.perf_counter() - asked)
                seq = 0
                pace.restart()
                while engine.outcome(state) is None and not stats.stop:
                    seat = min(engine.to_act(state))
                    action = engine.bot_action(state, seat, args.policy, seq * 7919 + index)
                    if action is None:
                        legal = engine.legal_actions(state, seat) or [{}]
                        action = legal[0]
                    t0 = await pace.wait()
                    room.expect(seq + 1)  # after the wait: the watchdog counts from the send
                    await room.socks[seat].send(
                        orjson.dumps({"type": "act", "ref": f"m{seq}", "action": action}), text=True
                    )
                    await room.done.wait()  # or the watchdog gave up on it
                    if room.failed is not None:
                        return
                    stats.latencies.append(time.perf_counter() - t0)
                    stats.moves += 1
                    state = engine.apply(state, seat, action)
                    seq += 1
                if engine.outcome(state) is not None:
                    stats.games += 1
        except Exception as e:
            stats.error(f"room {room_id}: {e!r}")
        finally:
            for task in readers:
                task.cancel()
            await _close_all(room.socks)


async def play_bare_room(
    index: int, args: argparse.Namespace, ws_base: str, stats: Stats, started: asyncio.Event
) -> None:
    """The same loop against the bare server: an act, then every client gets seq n."""
    import websockets

    k = args.clients
    room = Room(k, f"bare room {index}")
    stats.rooms.append(room)
    room.game_id = 1
    for _ in range(k):
        ws = await websockets.connect(f"{ws_base}/ws/r{index}", max_size=1 << 22, compression=None)
        await ws.send('{"type":"hello"}')
        room.socks.append(ws)
    readers = [asyncio.create_task(_reader(room, j, ws, stats)) for j, ws in enumerate(room.socks)]
    started.set()
    seq = 0
    pace = Pace(args, index)
    try:
        while not stats.stop:
            t0 = await pace.wait()
            room.expect(seq + 1)
            await room.socks[seq % k].send(orjson.dumps({"type": "act", "ref": f"m{seq}", "action": {}}), text=True)
            await room.done.wait()
            if room.failed is not None:
                return
            stats.latencies.append(time.perf_counter() - t0)
            stats.moves += 1
            seq += 1
    except Exception as e:
        stats.error(f"bare room {index}: {e!r}")
    finally:
        for task in readers:
            task.cancel()
        await _close_all(room.socks)


async def run_rooms(args: argparse.Namespace, bases: list[str], indexes: list[int], bare: bool) -> Stats:
    """Open this shard's rooms, wait until all are connected, then count ``duration`` seconds
    of play; the rooms run on until they are cancelled at the end of the window."""
    stats = Stats()
    ready = [asyncio.Event() for _ in indexes]
    deals: Deals | None = None
    if bare:
        ws_base = bases[0].replace("http://", "ws://")
        coros = [
            guarded(f"bare room {i}", stats, ev, play_bare_room(i, args, ws_base, stats, ev))
            for i, ev in zip(indexes, ready, strict=True)
        ]
    else:
        deals = Deals(args.deals_db)
        coros = [
            guarded(f"room {i}", stats, ev, play_room(i, args, bases, stats, ev, deals))
            for i, ev in zip(indexes, ready, strict=True)
        ]
    runners = [asyncio.create_task(c) for c in coros]
    watchdog = asyncio.create_task(_watch(stats))
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 300)
    # the clients are the measuring instrument: their collector's pauses must not count as
    # the server's latency. A full collection walked every socket and game state here (100
    # ms); even a young one walked every room's newest shadow state and read, 20-40 ms, three
    # times in 15 s at 1,000 moves/s. So it is off until the window's figures are taken
    # (the rooms leave it 3,000-4,000 objects in a 15-second closed loop).
    tune_gc()
    gc.disable()
    stats.go.set()
    await asyncio.sleep((0 if bare else args.ramp) + 1)  # every room has begun; the first states are in
    stats.moves, stats.games, stats.frames, stats.frame_bytes = 0, 0, 0, 0
    stats.latencies, stats.starts, stats.frame_sizes = [], [], []
    # the server processes' CPU over exactly the timed window (one shard measures it)
    measuring = bool(indexes) and indexes[0] == 0
    cpu = _cpu_seconds(args.server_pids) if measuring and args.server_pids else None
    if measuring:
        for hook in WINDOW_HOOKS:
            hook("start")
    t0, client0 = time.perf_counter(), time.process_time()
    await asyncio.sleep(args.duration)
    elapsed = time.perf_counter() - t0
    stats.client_cpu = time.process_time() - client0
    if cpu is not None:
        stats.window_cpu = _cpu_seconds(args.server_pids) - cpu
    if measuring:
        for hook in WINDOW_HOOKS:
            hook("end")
    gc.enable()
    moves, games, latencies, starts = stats.moves, stats.games, list(stats.latencies), list(stats.starts)
    frames, frame_bytes, sizes = stats.frames, stats.frame_bytes, list(stats.frame_sizes)
    stats.stop = True
    _done, pending = await asyncio.wait(runners, timeout=40)
    for task in pending:
        task.cancel()
    watchdog.cancel()
    if deals is not None:
        await deals.close()
    stats.moves, stats.games, stats.latencies, stats.starts = moves, games, latencies, starts
    stats.frames, stats.frame_bytes, stats.frame_sizes = frames, frame_bytes, sizes
    stats.elapsed = elapsed
    return stats


# called with "start" and "end" at the edges of the timed window, in the client process that
# measures the server (bench/instructions.py counts the server's instructions between them)
WINDOW_HOOKS: list[Callable[[str], None]] = []

STUCK_SECONDS = 30.0  # a move whose state has not reached every client by then fails its room


async def _watch(stats: Stats) -> None:
    """Fail the rooms whose last move has not reached every client in ``STUCK_SECONDS``.

    One task for all rooms, not a timeout around each move's wait: ``asyncio.wait_for`` on
    every move cost the clients a sixteenth of their CPU, and the clients share the machine
    with the server they measure."""
    while True:
        await asyncio.sleep(1.0)
        now = time.perf_counter()
        for room in stats.rooms:
            waiting = room.asked_at and not room.done.is_set()  # a move is out (not a start)
            if waiting and room.failed is None and now - room.asked_at > STUCK_SECONDS:
                stats.error(f"{room.name}: no state for seq {room.target} in {STUCK_SECONDS:g} s")
                room.fail("stuck")


def _shard(payload: tuple[argparse.Namespace, list[str], list[int], bool]) -> dict[str, Any]:
    args, bases, indexes, bare = payload
    if args.extra_engine:
        _register_extra(args.extra_engine)
    stats = asyncio.run(run_rooms(args, bases, indexes, bare))
    return {
        "moves": stats.moves,
        "errors": stats.errors,
        "games": stats.games,
        "latencies": stats.latencies,
        "starts": stats.starts,
        "frames": stats.frames,
        "frame_bytes": stats.frame_bytes,
        "frame_sizes": stats.frame_sizes,
        "elapsed": stats.elapsed,
        "error_samples": stats.error_samples,
        "window_cpu": stats.window_cpu,
        "client_cpu": stats.client_cpu,
    }


def _register_extra(spec: str) -> None:
    import importlib

    from ..engines import ENGINES, register

    module, _, attr = spec.partition(":")
    engine = getattr(importlib.import_module(module), attr or "ENGINE")
    if engine.info.id not in ENGINES:
        register(engine)


def run_clients(args: argparse.Namespace, bases: list[str], bare: bool) -> dict[str, Any]:
    """Run the rooms in ``--client-procs`` processes; merge their figures."""
    rooms = list(range(args.rooms))
    shards = [rooms[i :: args.client_procs] for i in range(args.client_procs)]
    payloads = [(args, bases, shard, bare) for shard in shards if shard]
    if len(payloads) == 1:
        results = [_shard(payloads[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(len(payloads)) as pool:
            results = pool.map(_shard, payloads)
    merged: dict[str, Any] = {"moves": 0, "errors": 0, "games": 0, "frames": 0, "frame_bytes": 0}
    latencies: list[float] = []
    starts: list[float] = []
    samples: list[str] = []
    sizes: list[int] = []
    for r in results:
        for key in merged:
            merged[key] += r[key]
        latencies += r["latencies"]
        starts += r["starts"]
        samples += r["error_samples"]
        sizes += r["frame_sizes"]
    elapsed = max(r["elapsed"] for r in results)
    merged["elapsed"] = elapsed
    merged["moves_per_second"] = merged["moves"] / elapsed if elapsed else 0.0
    merged["latency_ms"] = _percentiles(latencies)
    merged["game_start_ms"] = _percentiles(starts)
    merged["game_starts"] = len(starts)
    merged["mean_frame_bytes"] = merged["frame_bytes"] // merged["frames"] if merged["frames"] else 0
    # every move reaches every client of its room as one frame: a frame's size is what that
    # move cost that client
    merged["median_bytes_per_move_per_client"] = int(statistics.median(sizes)) if sizes else 0
    merged["error_samples"] = samples[:5]
    cpu = [r["window_cpu"] for r in results if r["window_cpu"] is not None]
    if cpu and merged["moves"]:
        # summed over the server processes: what a move costs, however many processes share it
        merged["cpu_ms_per_move"] = round(1000 * cpu[0] / merged["moves"], 3)
        # the Sampler's figure spans the set-up and the ramp too; this one the timed window
        merged["window_cpu_percent"] = round(100 * cpu[0] / elapsed, 1) if elapsed else 0.0
    if merged["moves"]:
        # the clients share the machine with the server: on 2 cores, what they spend is not
        # the server's to use (docs/performance.md, "How figures are taken")
        merged["client_cpu_ms_per_move"] = round(1000 * sum(r["client_cpu"] for r in results) / merged["moves"], 3)
    return merged


def _cpu_seconds(pids: list[int]) -> float:
    import psutil

    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


def _percentiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0}
    qs = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(qs[49] * 1000, 2), "p95": round(qs[94] * 1000, 2), "p99": round(qs[98] * 1000, 2)}


# --- idle connections ----------------------------------------------------------------------


async def idle_memory(base: str, pid: int, count: int, game: str, per_room: int = 5) -> dict[str, Any]:
    """Open ``count`` idle websockets (``per_room`` tabs of each lobby room's host); RSS delta."""
    import httpx
    import psutil
    import websockets

    proc = psutil.Process(pid)
    async with httpx.AsyncClient(timeout=60) as http:
        hosts = []
        for _ in range((count + per_room - 1) // per_room):
            made = await _http(http, "POST", f"{base}/api/rooms", json={"game": game, "options": {}, "name": "Idle"})
            hosts.append((made["room_id"], made["token"]))
    ws_base = base.replace("http://", "ws://")

    async def open_one(room_id: str, token: str, into: list[Any]) -> None:
        ws = await websockets.connect(f"{ws_base}/ws/{room_id}", max_size=1 << 22, compression=None)
        await ws.send(json.dumps({"type": "hello", "token": token, "seq": None}))
        await ws.recv()  # the welcome
        into.append(ws)

    async def open_many(n: int) -> list[Any]:
        socks: list[Any] = []
        for start in range(0, n, 100):
            await asyncio.gather(*(open_one(*hosts[i // per_room], socks) for i in range(start, min(n, start + 100))))
        return socks

    # a first round warms the server up (imports, caches, the allocator's arenas)
    await _close_all(await open_many(min(count, 50)))
    await asyncio.sleep(2)
    before = proc.memory_info().rss
    socks = await open_many(count)
    # the room frames each connect set off have gone out, and the writers have ended
    await asyncio.sleep(WRITER_LINGER + 3)
    after = proc.memory_info().rss
    await _close_all(socks)
    return {
        "connections": len(socks),
        "rss_before_mib": round(before / 2**20, 1),
        "rss_after_mib": round(after / 2**20, 1),
        "kib_per_connection": round((after - before) / 1024 / max(1, len(socks)), 1),
    }


async def _close_all(socks: list[Any]) -> None:
    """Close at once: one by one, each close waits behind the frames the others set off."""

    async def close(ws: Any) -> None:
        try:
            await asyncio.wait_for(ws.close(), 2)
        except Exception:
            with contextlib.suppress(Exception):
                ws.transport.abort()

    await asyncio.gather(*(close(ws) for ws in socks))


# --- the whole run -------------------------------------------------------------------------


class Sampler:
    """CPU seconds and RSS of the server processes over the timed window."""

    def __init__(self, pids: list[int]) -> None:
        import psutil

        self.procs = [psutil.Process(pid) for pid in pids]
        self.cpu0 = [sum(p.cpu_times()[:2]) for p in self.procs]
        self.t0 = time.perf_counter()

    def result(self) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.t0
        cpu = [sum(p.cpu_times()[:2]) - c0 for p, c0 in zip(self.procs, self.cpu0, strict=True)]
        return {
            "cpu_percent": [round(100 * c / elapsed, 1) for c in cpu],
            "cpu_seconds": round(sum(cpu), 3),
            "rss_mib": [round(p.memory_info().rss / 2**20, 1) for p in self.procs],
        }


def bench(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {
        "game": args.game,
        "rooms": args.rooms,
        "clients": args.clients,
        "duration_s": args.duration,
        "rate": args.rate,
        "processes": args.processes,
        "room_affinity": args.room_affinity,
        "client_procs": args.client_procs,
        "patches": args.patches,
    }
    servers: list[Server] = []
    pg_name: str | None = None
    tmp = tempfile.TemporaryDirectory(prefix="gn-bench-")
    try:
        args.deals_db = None  # the admin export tells the deals of a --target server's games
        if args.target:
            bases = [b.rstrip("/") for b in args.target.split(",")]
            pids = [int(p) for p in args.server_pid.split(",")] if args.server_pid else []
        else:
            if args.database_url and args.database_url.startswith("postgresql"):
                db_url, pg_name = asyncio.run(fresh_postgres(args.database_url))
                report["database"] = "postgresql"
            else:
                db_url = args.database_url or f"sqlite+aiosqlite:///{tmp.name}/bench.db"
                report["database"] = "sqlite"
            report["redis"] = bool(args.redis_url)
            args.deals_db = db_url
            servers = our_servers(args, db_url)
            for server in servers:
                server.start()
            bases = [s.base for s in servers]
            pids = [s.proc.pid for s in servers if s.proc is not None]
        if args.idle and pids:  # first, on a server that has not yet played
            report["idle"] = asyncio.run(idle_memory(bases[0], pids[0], args.idle, args.game))
        sampler = Sampler(pids) if pids else None
        args.server_pids = pids
        ours = run_clients(args, bases, bare=False)
        if sampler is not None:
            ours["server"] = sampler.result()
        report["ours"] = ours
    finally:
        for server in servers:
            server.stop()
        if pg_name is not None:
            asyncio.run(drop_postgres(args.database_url, pg_name))
        tmp.cleanup()
    if args.bare:
        bare = bare_server(report["ours"]["mean_frame_bytes"] or 1000).start(probe=None)
        try:
            assert bare.proc is not None
            sampler = Sampler([bare.proc.pid])
            args.server_pids = [bare.proc.pid]
            result = run_clients(args, [bare.base], bare=True)
            result["server"] = sampler.result()
            report["bare"] = result
            if args.idle:
                report["bare"]["idle"] = asyncio.run(_bare_idle(bare, args.idle))
        finally:
            bare.stop()
        if result["moves_per_second"]:
            report["ratio_to_bare"] = round(report["ours"]["moves_per_second"] / result["moves_per_second"], 3)
    return report


async def _bare_idle(server: Server, count: int) -> dict[str, Any]:
    import psutil
    import websockets

    assert server.proc is not None
    proc = psutil.Process(server.proc.pid)
    await asyncio.sleep(1)
    before = proc.memory_info().rss
    socks = []
    for start in range(0, count, 100):
        ends = range(start, min(count, start + 100))
        batch = [websockets.connect(f"{server.ws_base}/ws/idle{i // 20}", compression=None) for i in ends]
        socks += await asyncio.gather(*batch)
    await asyncio.sleep(WRITER_LINGER + 3)  # as for ours
    after = proc.memory_info().rss
    await _close_all(socks)
    return {"connections": len(socks), "kib_per_connection": round((after - before) / 1024 / max(1, len(socks)), 1)}


def summary(report: dict[str, Any]) -> str:
    ours = report["ours"]
    lines = [
        f"game {report['game']}, {report['rooms']} rooms x {report['clients']} clients, "
        f"{report.get('database', 'target')} x {report['processes']} process(es)"
        + (", redis" if report.get("redis") else "")
        + (", rooms kept on one process" if report.get("room_affinity") and report["processes"] > 1 else "")
        + (f", offered {report['rate']:g} moves/s" if report.get("rate") else ", closed loop"),
        f"  ours: {ours['moves_per_second']:.0f} moves/s ({ours['moves']} moves, {ours['games']} games), "
        f"latency p50 {ours['latency_ms']['p50']} ms p95 {ours['latency_ms']['p95']} ms "
        f"p99 {ours['latency_ms']['p99']} ms, errors {ours['errors']}",
        f"  bytes per move per client: median {ours['median_bytes_per_move_per_client']} B, "
        f"mean {ours['mean_frame_bytes']} B"
        + (" (state frames)" if report.get("patches") == "none" else f" ({report.get('patches')} patch frames)"),
    ]
    if "server" in ours:
        lines.append(
            f"  server CPU {ours['server']['cpu_percent']} %, RSS {ours['server']['rss_mib']} MiB"
            + (f", {ours['cpu_ms_per_move']} CPU-ms per move (all processes)" if "cpu_ms_per_move" in ours else "")
            + (f", {ours['window_cpu_percent']} % in the timed window" if "window_cpu_percent" in ours else "")
        )
    if "client_cpu_ms_per_move" in ours:
        lines.append(f"  clients: {ours['client_cpu_ms_per_move']} CPU-ms per move")
    if "idle" in report:
        idle = report["idle"]
        lines.append(
            f"  idle: {idle['connections']} connections, {idle['kib_per_connection']} KiB each "
            f"(RSS {idle['rss_before_mib']} -> {idle['rss_after_mib']} MiB)"
        )
    if "bare" in report:
        bare = report["bare"]
        lines.append(
            f"  bare: {bare['moves_per_second']:.0f} moves/s, p50 {bare['latency_ms']['p50']} ms "
            f"p99 {bare['latency_ms']['p99']} ms, CPU {bare['server']['cpu_percent']} %"
            + (f", {bare['cpu_ms_per_move']} CPU-ms per move" if "cpu_ms_per_move" in bare else "")
            + (f" ({bare['window_cpu_percent']} % in the window)" if "window_cpu_percent" in bare else "")
            + (f", clients {bare['client_cpu_ms_per_move']} CPU-ms/move" if "client_cpu_ms_per_move" in bare else "")
            + (f", idle {bare['idle']['kib_per_connection']} KiB/connection" if "idle" in bare else "")
        )
        if report.get("rate"):  # both keep up with the offered rate: compare the CPU it takes
            lines.append(
                f"  at the offered rate, server CPU: ours {ours['server']['cpu_percent']} %, bare "
                f"{bare['server']['cpu_percent']} %"
            )
        else:
            lines.append(f"  ours / bare throughput: {report.get('ratio_to_bare')}")
    if ours.get("game_starts", 0) >= 2:
        lines.append(
            f"  game starts (rematch request to first move): p50 {ours['game_start_ms']['p50']} ms "
            f"p95 {ours['game_start_ms']['p95']} ms"
        )
    for sample in ours.get("error_samples", []):
        lines.append(f"  error: {sample}")
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game",
        default="all",
        help="engine id, comma-separated ids, or all (the three real games, one after another, each "
        "beside the bare server); count21, the fixture game, is the transport baseline",
    )
    p.add_argument(
        "--patches",
        choices=list(HELLO_PATCHES),
        default="compact",
        help="the patch frames the clients ask for: the compact form, as the pages do (default), RFC 6902 "
        "objects (json-patch), or none (full state frames)",
    )
    p.add_argument(
        "--no-patches", dest="patches", action="store_const", const="none", help="the same as --patches none"
    )
    p.add_argument("--options", help="game options as JSON (default: a standard game)")
    p.add_argument("--policy", default="random", help="the bot policy the clients play with")
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--clients", type=int, default=4, help="seated clients per room")
    p.add_argument("--duration", type=float, default=20.0, help="seconds of timed play")
    p.add_argument(
        "--rate", type=float, help="offered moves per second over all rooms (default: as fast as the server allows)"
    )
    p.add_argument("--ramp", type=float, default=5.0, help="seconds over which the rooms start their first game")
    p.add_argument("--processes", type=int, default=1, help="server processes to start")
    p.add_argument("--database-url", help="default: a fresh SQLite file; postgresql+asyncpg://... makes a fresh db")
    p.add_argument("--redis-url", help="redis://... (needed for more than one process)")
    p.add_argument(
        "--room-affinity",
        action="store_true",
        help="with several processes, a room's clients all on one (default: spread over them, the worst case)",
    )
    p.add_argument("--target", help="comma-separated base URLs of running servers (admin token: see docs)")
    p.add_argument("--server-pid", help="comma-separated PIDs of --target servers, for CPU/RSS")
    p.add_argument("--client-procs", type=int, default=1, help="client processes")
    p.add_argument("--idle", type=int, default=1000, help="idle connections for the memory figure (0: skip)")
    p.add_argument("--no-bare", dest="bare", action="store_false", help="skip the bare broadcast baseline")
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of each game (ours, then the bare server, each time), and the median of their ratios",
    )
    p.add_argument("--json", type=Path, help="also write the report as JSON here")
    p.add_argument(
        "--extra-engine", help="module:attribute of an extra engine (count21: geniusnight.fixtures.count21:ENGINE)"
    )


def main(args: argparse.Namespace) -> int:
    import signal

    # a terminated benchmark still stops the servers it started (the ``finally`` blocks)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.processes > 1 and not args.redis_url and not args.target:
        print("more than one process needs --redis-url and a PostgreSQL --database-url", file=sys.stderr)
        return 2
    games = list(REAL_GAMES) if args.game == "all" else args.game.split(",")
    reports = []
    for game in games:
        one = argparse.Namespace(**{**vars(args), "game": game})
        if game == "count21" and not one.extra_engine:
            one.extra_engine = "geniusnight.fixtures.count21:ENGINE"
        if one.extra_engine:
            _register_extra(one.extra_engine)
        runs = []
        for _ in range(args.repeat):
            runs.append(bench(one))
            print(summary(runs[-1]), flush=True)
        if len(runs) > 1 and all("ratio_to_bare" in r for r in runs):
            # the machine's speed drifts between runs: a pair's ratio says more than one figure
            ratios = [r["ratio_to_bare"] for r in runs]
            print(f"  {game}: ours / bare over {len(runs)} runs {ratios}, median {statistics.median(ratios):.3f}")
        reports += runs
    if args.json:
        args.json.write_text(json.dumps(reports[0] if len(reports) == 1 else reports, indent=2) + "\n")
    return 0 if all(r["ours"]["errors"] == 0 for r in reports) else 1


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="geniusnight bench load", description=__doc__)
    add_arguments(parser)
    return main(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(cli())
