"""Co-op target: how often a pair of bots wins, counting its points three ways.

Two bot seats play the co-op game (4 rounds, each Riddler twice); the engine reveals a random
hint at the start of each round and whenever the Solver has passed. Per game the team total
is counted as the rules do (both seats' scores: a solve counts for the Riddler and for the
Solver) and, for comparison, with each solve counted once. Reported per bot: the mean total
and how often it is above a few targets.

    .venv/bin/python bench/genius_idea/coop.py --games 200
"""

from __future__ import annotations

import argparse
from statistics import mean

from geniusnight.engines.genius_idea import ENGINE as E

TARGETS = (15, 19, 23)


def team_totals(seed: int, bot: str) -> tuple[int, int]:
    """(both seats' scores added, each solve counted once) for one co-op game."""
    state = E.setup(2, {"mode": "coop"}, seed)
    step = 0
    while E.outcome(state) is None:
        seat = min(E.to_act(state))
        action = E.bot_action(state, seat, bot, seed * 7919 + step)
        state = E.apply(state, seat, action or {"type": "timeout"})
        step += 1
    once = sum(r["points"][r["solved_by"]] for r in state["history"] if r["solved_by"] is not None)
    return sum(state["scores"]), once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", nargs="*", default=["random", "easy", "normal", "sharp"])
    args = parser.parse_args()
    head = " | ".join(f"> {t}" for t in TARGETS)
    print(f"| pair | games | counted | mean total | {head} |")
    print("|---|---|---|---|" + "---|" * len(TARGETS))
    for bot in args.bots:
        games = [team_totals(seed, bot) for seed in range(args.games)]
        for name, totals in (("both seats", [g[0] for g in games]), ("once per solve", [g[1] for g in games])):
            wins = " | ".join(f"{sum(1 for t in totals if t > target) / len(totals):.0%}" for target in TARGETS)
            print(f"| {bot} + {bot} | {len(totals)} | {name} | {mean(totals):.1f} | {wins} |", flush=True)


if __name__ == "__main__":
    main()
