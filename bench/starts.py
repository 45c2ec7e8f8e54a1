"""What a game start and a room read cost the server, in CPU, on a real server process.

``--rooms`` rooms of four members, each with its four websockets open (taking patch frames,
as the browser does), are set up first. Then each host starts its game, one after the other
(``POST /api/rooms/<room>/start``: the game written, cached, and its first state, the room
and each seat sent to the four sockets), and then each host reads its room
(``GET /api/rooms/<room>``). The server process's CPU time (user + system, all its threads)
is read before and after each series: a start's figure is everything the server did for it.

    .venv/bin/python bench/starts.py                    # Ingenious, 200 rooms
    .venv/bin/python bench/starts.py --game brainiac --rooms 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
import websockets

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


async def measure(base: str, proc: psutil.Process, game: str, rooms: int) -> dict[str, float]:
    ws_base = base.replace("http://", "ws://")
    socks: list[websockets.ClientConnection] = []
    hosts: list[tuple[str, dict[str, str]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(rooms):
            made = (await http.post("/api/rooms", json={"game": game, "options": {}, "name": "P0"})).json()
            invite = made["invite_url"].rsplit("/", 1)[-1]
            tokens = [made["token"]]
            for j in range(1, 4):
                http.cookies.clear()  # a seat cookie would make the next join "already seated"
                tokens.append((await http.post(f"/api/join/{invite}", json={"name": f"P{j}"})).json()["token"])
            http.cookies.clear()
            for token in tokens:
                ws = await websockets.connect(f"{ws_base}/ws/{made['room_id']}", compression=None)
                await ws.send(json.dumps({"type": "hello", "token": token, "seq": None, "patches": True}))
                socks.append(ws)
            hosts.append((made["room_id"], {"Authorization": f"Bearer {tokens[0]}"}))
        readers = [asyncio.create_task(drain(ws)) for ws in socks]
        await asyncio.sleep(2)  # the hellos answered, the server quiet

        out: dict[str, float] = {}
        for name, method, path in (("start", "POST", "/start"), ("room read", "GET", "")):
            before, began = cpu_seconds(proc), time.perf_counter()
            for room_id, auth in hosts:
                response = await http.request(method, f"/api/rooms/{room_id}{path}", headers=auth)
                response.raise_for_status()
            wall = time.perf_counter() - began
            await asyncio.sleep(0.5)  # the frames the last one sent go out
            out[f"{name}: server CPU-ms each"] = round((cpu_seconds(proc) - before) / rooms * 1000, 2)
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
        server = Server([*argv, "--database-url", url], env, port).start()
        try:
            assert server.proc is not None
            result = asyncio.run(measure(server.base, psutil.Process(server.proc.pid), args.game, args.rooms))
        finally:
            server.stop()
    print(json.dumps({"game": args.game, "rooms": args.rooms, **result}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
