"""Bot against bot: win rates over many seeded games, seats alternating.

Usage: .venv/bin/python bench/ingenious/match.py [--games N] [--players P] [--variant V]
Prints, for each pairing A vs B, A's wins, B's wins and shared wins (a shared win counts
half to each side in the rate), and the mean lowest colour of each side.
"""

from __future__ import annotations

import argparse
import time

from geniusnight.engines.ingenious import ENGINE

PAIRINGS = (("greedy", "random"), ("search", "random"), ("search", "greedy"))


def play(bots: list[str], players: int, variant: str, seed: int) -> dict:
    s = ENGINE.setup(players, {"variant": variant}, seed)
    step = 0
    while s.phase != "over":
        seat = s.turn
        s = ENGINE.apply(s, seat, ENGINE.bot_action(s, seat, bots[seat], seed * 1000 + step))
        step += 1
    out = ENGINE.outcome(s)
    assert out is not None
    return out


def match(a: str, b: str, games: int, players: int, variant: str, seed0: int = 1) -> dict:
    wins = {a: 0.0, b: 0.0}
    lowest = {a: 0.0, b: 0.0}
    outright = {a: 0, b: 0, "shared": 0}
    for g in range(games):
        # alternate which bot takes seat 0; in 4-player games each bot takes two seats
        first, second = (a, b) if g % 2 == 0 else (b, a)
        bots = [first if s % 2 == 0 else second for s in range(players)]
        out = play(bots, players, variant, seed0 + g // 2)  # each deal is played from both sides
        winners = {bots[w] for w in out["winners"]}
        if len(winners) == 1:
            (w,) = winners
            wins[w] += 1
            outright[w] += 1
        else:
            wins[a] += 0.5
            wins[b] += 0.5
            outright["shared"] += 1
        for seat in range(players):
            lowest[bots[seat]] += out["lowest"][seat] / (games * players / 2)
    return {"wins": wins, "outright": outright, "lowest": lowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--pairings", default=",".join(f"{a}:{b}" for a, b in PAIRINGS))
    args = parser.parse_args()
    print(f"# Ingenious bot match: {args.games} games per pairing, {args.players} players, {args.variant}")
    for pairing in args.pairings.split(","):
        a, b = pairing.split(":")
        start = time.perf_counter()
        r = match(a, b, args.games, args.players, args.variant)
        secs = time.perf_counter() - start
        rate = 100 * r["wins"][a] / args.games
        out = r["outright"]
        low = r["lowest"]
        print(
            f"{a:>7} vs {b:<7} {a} wins {out[a]:3d}, {b} wins {out[b]:3d}, shared {out['shared']:2d}"
            f" -> {a} {rate:5.1f}%  mean lowest colour {a} {low[a]:.2f} / {b} {low[b]:.2f}  ({secs:.1f} s)"
        )


if __name__ == "__main__":
    main()
