"""What a socket's admission, a game start and a room read cost the server, in CPU, on a real server process.

``--rooms`` rooms of four members are set up first, then their sockets are opened one after
the other, each waiting for its welcome (taking patch frames, as the browser does): a
socket's figure is its admission, its welcome and the room frames its coming sends to the
sockets already open. Then each host starts its game, one after the other
(``POST /api/rooms/<room>/start``: the game written, cached, and its first state, the room
and each seat sent to the four sockets), and then each host reads its room
(``GET /api/rooms/<room>``). The server process's CPU time (user + system, all its threads)
is read before and after each series: a start's figure is everything the server did for it.

    .venv/bin/python bench/starts.py                    # Ingenious, 200 rooms
    .venv/bin/python bench/starts.py --game brainiac --rooms 100
    .venv/bin/python bench/starts.py --profile starts.raw   # py-spy on the starts alone
    .venv/bin/python bench/starts.py --instructions --rooms 50   # callgrind: the starts alone

``--instructions`` runs the server under ``valgrind --tool=callgrind`` with counting on only
for the series of starts, and gives the instructions each start took: two runs of one build
agree closely, where the CPU time of a start moves by a tenth between runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx
import psutil
import websockets
from instructions import callgrind_prefix, count_window, window_total

from geniusnight.bench.load import Server, free_port
from geniusnight.cli import db_upgrade


def cpu_seconds(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


async def drain(ws: websockets.ClientConnection) -> None:
    try:
        async for _ in ws:
            pass
    except websockets.ConnectionClosed:
        pass


def profiler(pid: int, out: str) -> subprocess.Popen[bytes]:
    """py-spy sampling the server process until it is sent SIGINT (raw stacks, for
    flamegraph.pl or a grep)."""
    argv = ["py-spy", "record", "-p", str(pid), "-r", "400", "-f", "raw", "--nonblocking", "-o", out]
    spy = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    time.sleep(1)  # py-spy attached
    return spy


async def measure(
    base: str,
    proc: psutil.Process,
    game: str,
    rooms: int,
    profile: str | None = None,
    window: Callable[[str], None] | None = None,
) -> dict[str, float]:
    ws_base = base.replace("http://", "ws://")
    socks: list[websockets.ClientConnection] = []
    hosts: list[tuple[str, dict[str, str]]] = []
    out: dict[str, float] = {}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        members: list[tuple[str, list[str]]] = []
        for _ in range(rooms):
            made = (await http.post("/api/rooms", json={"game": game, "options": {}, "name": "P0"})).json()
            invite = made["invite_url"].rsplit("/", 1)[-1]
            tokens = [made["token"]]
            for j in range(1, 4):
                http.cookies.clear()  # a seat cookie would make the next join "already seated"
                tokens.append((await http.post(f"/api/join/{invite}", json={"name": f"P{j}"})).json()["token"])
            http.cookies.clear()
            members.append((made["room_id"], tokens))
            hosts.append((made["room_id"], {"Authorization": f"Bearer {tokens[0]}"}))
        await asyncio.sleep(0.5)
        # each socket opened, welcomed, and its room frame sent to the room's sockets before it
        before = cpu_seconds(proc)
        for room_id, tokens in members:
            for token in tokens:
                ws = await websockets.connect(f"{ws_base}/ws/{room_id}", compression=None)
                await ws.send(json.dumps({"type": "hello", "token": token, "seq": None, "patches": True}))
                while '"welcome"' not in await ws.recv():
                    pass
                socks.append(ws)
        readers = [asyncio.create_task(drain(ws)) for ws in socks]
        await asyncio.sleep(2)  # the room frames sent, the server quiet
        out["socket admitted: server CPU-ms each"] = round((cpu_seconds(proc) - before) / len(socks) * 1000, 2)

        for name, method, path in (("start", "POST", "/start"), ("room read", "GET", "")):
            spy = profiler(proc.pid, profile) if profile and name == "start" else None
            if window is not None and name == "start":
                window("start")
            before, began = cpu_seconds(proc), time.perf_counter()
            for room_id, auth in hosts:
                response = await http.request(method, f"/api/rooms/{room_id}{path}", headers=auth)
                response.raise_for_status()
            wall = time.perf_counter() - began
            await asyncio.sleep(0.5)  # the frames the last one sent go out
            out[f"{name}: server CPU-ms each"] = round((cpu_seconds(proc) - before) / rooms * 1000, 2)
            if window is not None and name == "start":
                window("end")
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                spy.wait(30)
            out[f"{name}: wall ms each, one at a time"] = round(wall / rooms * 1000, 2)
    for task in readers:
        task.cancel()
    for ws in socks:
        await ws.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="ingenious")
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--profile", metavar="FILE", help="py-spy's raw stacks of the starts alone, to FILE")
    parser.add_argument("--instructions", action="store_true", help="count the starts' instructions (callgrind)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'starts.db'}"
        db_upgrade(url)
        port = free_port()
        env = {
            **os.environ,
            "GENIUSNIGHT_ROOMS_PER_MINUTE": "1000000",
            "GENIUSNIGHT_WS_PER_ADDRESS": "100000",
            "GENIUSNIGHT_WS_CONNECTS_PER_MINUTE": "1000000",
        }
        argv = [sys.executable, "-m", "geniusnight.cli", "serve", "--no-migrate", "--port", str(port)]
        counted = f"{tmp}/callgrind.out"
        if args.instructions:
            argv = [*callgrind_prefix(counted), *argv]
        server = Server([*argv, "--database-url", url], env, port).start(timeout=600)
        try:
            assert server.proc is not None
            proc = psutil.Process(server.proc.pid)
            window = partial(count_window, proc.pid) if args.instructions else None
            result = asyncio.run(measure(server.base, proc, args.game, args.rooms, args.profile, window))
        finally:
            server.stop()
        if args.instructions:
            result["start: instructions each"] = round(window_total(Path(tmp)) / args.rooms)
    print(json.dumps({"game": args.game, "rooms": args.rooms, **result}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
