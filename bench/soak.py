"""Soak: thousands of bot games of the real games on one server process, its memory sampled.

Each worker keeps one room busy: it creates the room (the host seat), adds bots for the other
seats, starts the game and lets a bot stand in for the host (``POST .../away``), so every seat
is a bot and the server plays the whole game; the worker watches the host's websocket until the
game is over and asks for a rematch (the stand-in lasts into it). Every ``--games-per-room``
games it opens a new room. The workers take turns over ``--games`` (default: Ingenious with
2-4 players, Genius Idea with 2-5, Brainiac with 3-5) and player counts. The server's RSS is
sampled every ``--sample`` seconds. With the live-game cache bounded, memory levels off
(docs/performance.md, "Memory").

    .venv/bin/python bench/soak.py --games 2000
    .venv/bin/python bench/soak.py --games 2000 --game count21      # the toy game
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psutil
import websockets

from geniusnight.bench.load import Server, free_port
from geniusnight.cli import db_upgrade

# game -> (player counts the workers take turns over, bots for the seats other than the host's)
TABLES: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "ingenious": ((2, 3, 4), ("random", "greedy")),
    "genius-idea": ((2, 3, 4, 5), ("random", "sharp")),
    "brainiac": ((3, 4, 5), ("random", "trivia")),
    "count21": ((2, 3, 4), ("random",)),
}
OPTIONS: dict[str, dict[str, Any]] = {"count21": {"target": 30}}


async def watch_game(ws: Any, game_id: int) -> None:
    """Wait until the game ``game_id`` is over."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
        if frame.get("type") == "state" and frame.get("game_id") == game_id and frame["view"]["over"]:
            return


async def worker(
    index: int, base: str, ws_base: str, games: list[str], done: list[str], total: int, per_room: int
) -> None:
    n = index
    # uvicorn drops a keep-alive connection after 5 quiet seconds: reconnect before that
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(keepalive_expiry=2)) as c:
        while len(done) < total:
            game = games[n % len(games)]
            counts, bots = TABLES[game]
            players = counts[(n // len(games)) % len(counts)]
            n += 1
            r = await c.post("/api/rooms", json={"game": game, "options": OPTIONS.get(game, {}), "name": "Soak"})
            r.raise_for_status()
            room = r.json()
            c.cookies.clear()
            rid, auth = room["room_id"], {"Authorization": f"Bearer {room['token']}"}
            for seat in range(1, players):
                body = {"bot": bots[seat % len(bots)]}
                (await c.post(f"/api/rooms/{rid}/bots", json=body, headers=auth)).raise_for_status()
            async with websockets.connect(f"{ws_base}/ws/{rid}", max_size=1 << 22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
                for i in range(per_room):
                    if len(done) >= total:
                        break
                    r = await c.post(f"/api/rooms/{rid}{'/rematch' if i else '/start'}", headers=auth)
                    r.raise_for_status()
                    game_id = r.json()["game_id"]
                    if i == 0:  # the host's seat too is a bot's, into the rematches
                        (await c.post(f"/api/rooms/{rid}/away", headers=auth)).raise_for_status()
                    await watch_game(ws, game_id)
                    done.append(game)


async def soak(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="geniusnight-soak-"))
    url = f"sqlite+aiosqlite:///{tmp / 'soak.db'}"
    db_upgrade(url)
    port = free_port()
    env = {
        **os.environ,
        "GENIUSNIGHT_ENV": "test",
        "GENIUSNIGHT_BOT_DELAY_MS": "0",
        "GENIUSNIGHT_EXTRA_ENGINES": '["geniusnight.fixtures.count21:ENGINE"]',
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
    games = [g.strip() for g in args.game.split(",") if g.strip()]
    done: list[str] = []
    samples: list[dict[str, float]] = []
    start = time.monotonic()

    def take() -> None:
        rss = proc.memory_info().rss / 2**20
        samples.append({"seconds": round(time.monotonic() - start, 1), "games": len(done), "rss_mb": rss})

    async def sample() -> None:
        while True:
            take()
            await asyncio.sleep(args.sample)

    sampler = asyncio.create_task(sample())
    try:
        await asyncio.gather(
            *(
                worker(i, server.base, server.ws_base, games, done, args.games, args.games_per_room)
                for i in range(args.workers)
            )
        )
    finally:
        sampler.cancel()
        take()
        server.stop()
    return {"games": len(done), "by_game": dict(Counter(done)), "seconds": samples[-1]["seconds"], "samples": samples}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", default="ingenious,genius-idea,brainiac", help="games the rooms take turns over")
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
    by_game = ", ".join(f"{n} {g}" for g, n in sorted(report["by_game"].items()))
    print(f"{report['games']} games ({by_game}) in {report['seconds']:.0f} s")
    print("| seconds | games done | server RSS (MiB) |\n|---:|---:|---:|")
    samples = report["samples"]
    step = max(1, len(samples) // 12)
    for s in samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else []):
        print(f"| {s['seconds']:.0f} | {s['games']} | {s['rss_mb']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
