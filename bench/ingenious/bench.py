"""Ingenious benchmarks (not tests): playout speed against MOMAland 0.2.0, and move listing.

Usage: .venv/bin/python bench/ingenious/bench.py [--games N] [--momaland-python PATH]

1. Random full-game playouts, in moves per second, for 2 and 4 players: this engine
   (``bot_action(..., "random")`` + ``apply``, i.e. the full validated contract path, and the
   same with a uniform choice from ``legal_actions``) against MOMAland's Ingenious environment
   (``env.last()`` action mask + ``env.step``), run in the same process run on the same machine.
   MOMAland lives in its own venv (``bench/ingenious/setup_momaland.sh``) and is driven through
   ``bench/ingenious/momaland_playouts.py`` in a subprocess.
2. Enumerating and scoring every legal placement of a full rack (6 tiles) on mid-game
   4-player boards (40 tiles placed): median and 95th percentile in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from geniusnight.engines.base import Rng
from geniusnight.engines.ingenious import ENGINE
from geniusnight.engines.ingenious.rules import placements

HERE = Path(__file__).resolve().parent


def our_playouts(players: int, games: int, seed: int, uniform: bool = False) -> dict:
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        s = ENGINE.setup(players, {}, seed + g)
        rng = Rng.from_seed(seed + g)
        while s.phase != "over":
            seat = s.turn
            if uniform:
                action = rng.choice(ENGINE.legal_actions(s, seat))
            else:
                action = ENGINE.bot_action(s, seat, "random", moves)
            s = ENGINE.apply(s, seat, action)
            moves += 1
    seconds = time.perf_counter() - start
    return {"games": games, "moves": moves, "seconds": seconds, "moves_per_second": moves / seconds}


def momaland_playouts(python: str, players: int, games: int, seed: int) -> dict | None:
    if not os.path.exists(python):
        return None
    out = subprocess.run(
        [python, str(HERE / "momaland_playouts.py"), str(players), str(games), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def mid_game_positions(count: int) -> list:
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        s = ENGINE.setup(4, {}, seed)
        step = 0
        while s.phase != "over" and len(s.pairs) < 40:
            s = ENGINE.apply(s, s.turn, ENGINE.bot_action(s, s.turn, "greedy", step))
            step += 1
        if s.phase == "swap":
            s = ENGINE.apply(s, s.turn, {"type": "swap", "accept": False})
        if s.phase == "place" and len(s.racks[s.turn]) == 6:
            out.append(s)
    return out


def enumeration(repeats: int) -> dict:
    positions = mid_game_positions(10)
    times = []
    sizes = []
    for s in positions:
        for _ in range(repeats):
            t = time.perf_counter()
            moves = placements(s, s.turn)
            times.append(time.perf_counter() - t)
        sizes.append(len(moves))
    wrapped = []
    for s in positions:
        t = time.perf_counter()
        ENGINE.placements(s, s.turn)
        wrapped.append(time.perf_counter() - t)
    times.sort()
    return {
        "positions": len(positions),
        "placements_mean": statistics.mean(sizes),
        "median_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * times[int(0.95 * len(times))],
        "wrapped_median_ms": 1000 * statistics.median(wrapped),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--momaland-python", default=os.environ.get("MOMALAND_PYTHON", "/tmp/momaland-venv/bin/python"))
    args = parser.parse_args()
    print(f"# Ingenious benchmarks  (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    print("## 1. random full-game playouts")
    for players in (2, 4):
        ours = our_playouts(players, args.games, 1)
        uniform = our_playouts(players, max(1, args.games // 4), 1, uniform=True)
        theirs = momaland_playouts(args.momaland_python, players, args.games, 1)
        line = (
            f"{players} players: geniusnight {ours['moves_per_second']:9.0f} moves/s"
            f" ({ours['moves']} moves, {ours['games']} games);"
            f" uniform over legal_actions {uniform['moves_per_second']:7.0f} moves/s"
        )
        if theirs is None:
            line += "; MOMAland not installed (run bench/ingenious/setup_momaland.sh)"
        else:
            ratio = ours["moves_per_second"] / theirs["moves_per_second"]
            line += (
                f"; MOMAland 0.2.0 {theirs['moves_per_second']:7.0f} moves/s ({theirs['moves']} moves)"
                f" -> {ratio:.1f}x faster"
            )
        print(line)
    print("## 2. every legal placement of a full rack, scored, mid-game 4-player board (40 tiles down)")
    e = enumeration(50)
    print(
        f"rules.placements: median {e['median_ms']:.3f} ms, p95 {e['p95_ms']:.3f} ms"
        f" over {e['positions']} positions ({e['placements_mean']:.0f} placements each on average);"
        f" ENGINE.placements (dicts with capped gains and bonuses): median {e['wrapped_median_ms']:.3f} ms"
    )


if __name__ == "__main__":
    main()
