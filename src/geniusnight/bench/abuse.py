"""What one person can do to a running server through its transport and edge: each attack
of docs/deploy.md ("Abuse limits", "Transport and edge"), measured from the attacker's side
(and the server's CPU and memory, given its pid). Run it against a server of your own only:

    python -m geniusnight.bench.abuse churn --base http://127.0.0.1:8000 --pid PID
    python -m geniusnight.bench.abuse tabs|fragment|forged|admin|headers --base ... [--pid PID]

Each prints one JSON line of figures. Needs the ``bench`` extra (httpx, websockets, psutil).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import psutil
import websockets

GAME = "ingenious"  # a real game's lobby: its room frames are the size players get


class Watcher:
    """A player's socket in the attacked room, counting the room frames it is sent."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def start(self, ws_base: str, room_id: str, token: str) -> Watcher:
        self.ws = await websockets.connect(f"{ws_base}/ws/{room_id}", max_size=None)
        await self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.task = asyncio.create_task(self._read())
        await asyncio.sleep(1.0)  # the welcome and its own room frame pass
        self.frames = self.bytes = 0
        return self

    async def _read(self) -> None:
        async for text in self.ws:
            if json.loads(text).get("type") == "room":
                self.frames += 1
                self.bytes += len(text)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        await self.ws.close()


class Probe:
    """The server process's CPU time and memory, when its pid is given."""

    def __init__(self, pid: int | None) -> None:
        self.process = psutil.Process(pid) if pid else None
        self.cpu0 = self._cpu()
        self.wall0 = time.monotonic()

    def _cpu(self) -> float:
        if self.process is None:
            return 0.0
        times = self.process.cpu_times()
        return float(times.user + times.system)

    def cpu_percent(self) -> float | None:
        if self.process is None:
            return None
        return round(100 * (self._cpu() - self.cpu0) / (time.monotonic() - self.wall0), 1)

    def rss_mib(self) -> float | None:
        return round(self.process.memory_info().rss / (1 << 20), 1) if self.process is not None else None


async def room(http: httpx.AsyncClient) -> tuple[str, str, str]:
    """A new room: its id, the host's token and its invite."""
    r = await http.post("/api/rooms", json={"game": GAME, "name": "Host"})
    r.raise_for_status()
    body = r.json()
    http.cookies.clear()
    return body["room_id"], body["token"], body["invite_url"].rsplit("/", 1)[1]


async def join(http: httpx.AsyncClient, invite: str, name: str) -> str:
    r = await http.post(f"/api/join/{invite}", json={"name": name})
    r.raise_for_status()
    http.cookies.clear()
    token: str = r.json()["token"]
    return token


async def hello(ws: Any, token: str) -> str:
    """Say hello; the first answer's type, or an error's code."""
    await ws.send(json.dumps({"type": "hello", "token": token}))
    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return str(frame.get("code") or frame["type"])


async def churn(args: argparse.Namespace) -> dict[str, Any]:
    """One spectator opens and closes sockets in a loop; a player in the room counts the
    room frames it is sent meanwhile."""
    async with httpx.AsyncClient(base_url=args.base) as http:
        room_id, host, invite = await room(http)
        spectator = await join(http, invite, "Churner")
    watcher = await Watcher().start(args.ws_base, room_id, host)
    probe, opened, answers = Probe(args.pid), 0, dict[str, int]()
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        try:
            async with websockets.connect(f"{args.ws_base}/ws/{room_id}") as ws:
                answer = await hello(ws, spectator)
        except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError, TimeoutError) as e:
            answer = type(e).__name__
        opened += 1
        answers[answer] = answers.get(answer, 0) + 1
    seconds = time.monotonic() - probe.wall0
    await asyncio.sleep(1.0)  # the last frames arrive
    result = {
        "attack": "churn",
        "opens_per_s": round(opened / seconds, 1),
        "answers": answers,
        "room_frames_per_s": round(watcher.frames / seconds, 1),
        "room_kib_per_s": round(watcher.bytes / 1024 / seconds, 1),
        "server_cpu_percent": probe.cpu_percent(),
    }
    await watcher.stop()
    return result


async def tabs(args: argparse.Namespace) -> dict[str, Any]:
    """One member opens ``--count`` sockets to one room and holds them; a player counts the
    room frames it is sent."""
    async with httpx.AsyncClient(base_url=args.base) as http:
        room_id, host, invite = await room(http)
        member = await join(http, invite, "Tabs")
    watcher = await Watcher().start(args.ws_base, room_id, host)
    sockets, answers = [], dict[str, int]()
    for _ in range(args.count):
        try:
            ws = await websockets.connect(f"{args.ws_base}/ws/{room_id}")
            answer = await hello(ws, member)
            sockets.append(ws)
        except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError, TimeoutError) as e:
            answer = type(e).__name__
        answers[answer] = answers.get(answer, 0) + 1
    for ws in sockets:
        await ws.close()
    await asyncio.sleep(1.0)
    result = {
        "attack": "tabs",
        "answers": answers,
        "room_frames": watcher.frames,
        "room_mib": round(watcher.bytes / (1 << 20), 2),
    }
    await watcher.stop()
    return result


async def fragment(args: argparse.Namespace) -> dict[str, Any]:
    """``--count`` sockets each send a first fragment of ``--kib`` KiB without FIN and never
    the rest, answering the server's pings; how many are still open after ``--seconds``, and
    the server's memory. Each socket is another member's (at most 49, the room's limit)."""
    async with httpx.AsyncClient(base_url=args.base) as http:
        room_id, host, invite = await room(http)
        members = [host] + [await join(http, invite, f"Member {i}") for i in range(args.count - 1)]
    probe = Probe(args.pid)
    before = probe.rss_mib()
    hold = asyncio.Event()

    async def unfinished() -> AsyncIterator[str]:
        yield "x" * (args.kib << 10)
        await hold.wait()
        yield ""

    sockets, senders = [], []
    for member in members:
        ws = await websockets.connect(f"{args.ws_base}/ws/{room_id}", max_size=None)
        await hello(ws, member)
        sockets.append(ws)
        senders.append(asyncio.create_task(ws.send(unfinished())))
    await asyncio.sleep(2.0)
    held = probe.rss_mib()
    await asyncio.sleep(max(0.0, args.seconds - 2.0))
    still_open = sum(1 for ws in sockets if ws.close_code is None)
    codes = sorted({ws.close_code for ws in sockets if ws.close_code is not None})
    result = {
        "attack": "fragment",
        "sockets": args.count,
        "fragment_kib": args.kib,
        "open_after_s": [args.seconds, still_open],
        "close_codes": codes,
        "server_rss_mib": [before, held, probe.rss_mib()],
    }
    hold.set()
    for task in senders:
        task.cancel()
    for ws in sockets:
        await ws.close()
    return result


async def forged(args: argparse.Namespace) -> dict[str, Any]:
    """Rooms created and sockets held, each with a made-up X-Forwarded-For."""
    created = 0
    async with httpx.AsyncClient(base_url=args.base) as http:
        room_id, _, _ = await room(http)  # the sockets' room, before the flood
        for i in range(args.count):
            r = await http.post(
                "/api/rooms", json={"game": GAME, "name": "Forger"}, headers={"X-Forwarded-For": f"203.0.113.{i % 250}"}
            )
            http.cookies.clear()
            created += r.status_code == 200
    held, sockets = 0, []
    for i in range(args.sockets):
        try:
            ws = await websockets.connect(
                f"{args.ws_base}/ws/{room_id}", additional_headers={"X-Forwarded-For": f"198.51.100.{i % 250}"}
            )
            sockets.append(ws)
            await ws.send(json.dumps({"type": "ping"}))  # not a hello: an error frame, the socket stays
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            held += frame.get("code") == "hello_first"
        except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError, TimeoutError):
            pass
    for ws in sockets:
        await ws.close()
    return {"attack": "forged", "rooms": [created, args.count], "sockets": [held, args.sockets]}


async def admin(args: argparse.Namespace) -> dict[str, Any]:
    """Wrong admin tokens, ``--concurrency`` at a time, for ``--seconds``."""
    answers: dict[int, int] = {}
    end = time.monotonic() + args.seconds
    start = time.monotonic()

    async def guesser(http: httpx.AsyncClient, n: int) -> None:
        i = 0
        while time.monotonic() < end:
            i += 1
            r = await http.get("/api/admin/rooms", headers={"Authorization": f"Bearer guess-{n}-{i}"})
            answers[r.status_code] = answers.get(r.status_code, 0) + 1

    async with httpx.AsyncClient(base_url=args.base) as http:
        await asyncio.gather(*(guesser(http, n) for n in range(args.concurrency)))
    seconds = time.monotonic() - start
    wrong = answers.get(401, 0)
    return {"attack": "admin", "answers": answers, "tokens_checked_per_s": round(wrong / seconds, 1)}


async def headers(args: argparse.Namespace) -> dict[str, Any]:
    """``--count`` connections that send part of a request's headers and never the rest;
    how many the server still holds open after ``--seconds``."""
    url = httpx.URL(args.base)
    streams = []
    for _ in range(args.count):
        reader, writer = await asyncio.open_connection(url.host, url.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: " + url.host.encode() + b"\r\nX-Slow: ")
        await writer.drain()
        streams.append((reader, writer))
    await asyncio.sleep(args.seconds)
    still_open = 0
    for reader, writer in streams:
        try:
            still_open += await asyncio.wait_for(reader.read(1), 0.05) != b""
        except TimeoutError:
            still_open += 1  # nothing came, and the connection did not end
        writer.close()
    return {"attack": "headers", "open_after_s": [args.seconds, still_open, args.count]}


ATTACKS = {"churn": churn, "tabs": tabs, "fragment": fragment, "forged": forged, "admin": admin, "headers": headers}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m geniusnight.bench.abuse", description=__doc__)
    parser.add_argument("attack", choices=sorted(ATTACKS))
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--pid", type=int, help="the server's process id: its CPU and memory")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--sockets", type=int, default=120, help="forged: sockets to hold")
    parser.add_argument("--concurrency", type=int, default=8, help="admin: requests at once")
    parser.add_argument("--kib", type=int, default=1024, help="fragment: the first fragment's size")
    args = parser.parse_args(argv)
    args.ws_base = args.base.replace("http", "ws", 1)
    print(json.dumps(asyncio.run(ATTACKS[args.attack](args))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
