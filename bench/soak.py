"""Soak: thousands of bot games on one server process, its memory sampled as they go.

Each worker keeps one room of the toy game ``count21`` busy: the host (this client) plays
seat 0 over the websocket, three bots the other seats; a finished game is followed by a
rematch, and every ``--games-per-room`` games the worker opens a new room. The server's RSS
is sampled every ``--sample`` seconds. With the live-game cache bounded, memory levels off
(docs/benchmarks.md, "Soak").

    .venv/bin/python bench/soak.py --games 2000
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
import websockets

from geniusnight.bench.load import Server, free_port
from geniusnight.cli import db_upgrade

_refs = itertools.count(1)


async def play_game(ws: Any, game_id: int) -> None:
    """Play seat 0 until the game ``game_id`` is over."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if frame.get("type") != "state" or frame.get("game_id") != game_id:
            continue
        view = frame["view"]
        if view["over"]:
            return
        if 0 in view["to_act"]:
            await ws.send(json.dumps({"type": "act", "ref": f"s{next(_refs)}", "action": {"type": "add", "n": 1}}))


async def worker(base: str, ws_base: str, games: list[int], total: int, per_room: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        while len(games) < total:
            r = await c.post("/api/rooms", json={"game": "count21", "options": {"target": 30}, "name": "Soak"})
            r.raise_for_status()
            room = r.json()
            c.cookies.clear()
            auth = {"Authorization": f"Bearer {room['token']}"}
            for _ in range(3):
                (
                    await c.post(f"/api/rooms/{room['room_id']}/bots", json={"bot": "random"}, headers=auth)
                ).raise_for_status()
            async with websockets.connect(f"{ws_base}/ws/{room['room_id']}", max_size=1 << 22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
                for i in range(per_room):
                    if len(games) >= total:
                        break
                    path = "/rematch" if i else "/start"
                    r = await c.post(f"/api/rooms/{room['room_id']}{path}", headers=auth)
                    r.raise_for_status()
                    await play_game(ws, r.json()["game_id"])
                    games.append(r.json()["game_id"])


async def soak(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="geniusnight-soak-"))
    url = f"sqlite+aiosqlite:///{tmp / 'soak.db'}"
    db_upgrade(url)
    port = free_port()
    env = {
        **os.environ,
        "GENIUSNIGHT_ENV": "test",
        "GENIUSNIGHT_BOT_DELAY_MS": "0",
        "GENIUSNIGHT_EXTRA_ENGINES": '["geniusnight.bench.toy:ENGINE"]',
        "GENIUSNIGHT_ROOMS_PER_MINUTE": "100000",
    }
    for name, value in (("LIVE_GAMES_MAX", args.live_games_max), ("LIVE_FINISHED_SECONDS", args.finished_seconds)):
        if value is not None:
            env[f"GENIUSNIGHT_{name}"] = str(value)
    argv = [
        sys.executable,
        "-m",
        "geniusnight.cli",
        "serve",
        "--no-migrate",
        "--port",
        str(port),
        "--database-url",
        url,
    ]
    server = Server(argv, env, port).start()
    assert server.proc is not None
    proc = psutil.Process(server.proc.pid)
    games: list[int] = []
    samples: list[dict[str, float]] = []
    start = time.monotonic()

    async def sample() -> None:
        while True:
            samples.append(
                {
                    "seconds": round(time.monotonic() - start, 1),
                    "games": len(games),
                    "rss_mb": proc.memory_info().rss / 2**20,
                }
            )
            await asyncio.sleep(args.sample)

    sampler = asyncio.create_task(sample())
    try:
        await asyncio.gather(
            *(worker(server.base, server.ws_base, games, args.games, args.games_per_room) for _ in range(args.workers))
        )
    finally:
        sampler.cancel()
        samples.append(
            {
                "seconds": round(time.monotonic() - start, 1),
                "games": len(games),
                "rss_mb": proc.memory_info().rss / 2**20,
            }
        )
        server.stop()
    return {"games": len(games), "seconds": samples[-1]["seconds"], "samples": samples}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=20, help="rooms played at once")
    parser.add_argument("--games-per-room", type=int, default=5)
    parser.add_argument("--sample", type=float, default=2.0, help="seconds between RSS samples")
    parser.add_argument("--live-games-max", type=int, help="the server's GENIUSNIGHT_LIVE_GAMES_MAX")
    parser.add_argument("--finished-seconds", type=float, help="the server's GENIUSNIGHT_LIVE_FINISHED_SECONDS")
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    report = asyncio.run(soak(args))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    print(f"{report['games']} games in {report['seconds']:.0f} s")
    print("| seconds | games done | server RSS (MiB) |\n|---:|---:|---:|")
    samples = report["samples"]
    step = max(1, len(samples) // 12)
    for s in samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else []):
        print(f"| {s['seconds']:.0f} | {s['games']} | {s['rss_mb']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
