"""What one move's ``apply`` costs, per engine, over the moves of whole 4-player bot games.

    .venv/bin/python bench/moves.py [--games 60] [--repeat 25]

The games are played first (random bots, timeouts where no bot moves), each position kept
with the move made from it; then every move is applied again from its position, ``--repeat``
times, and the best pass is reported in µs per move. Run it against another checkout with
``PYTHONPATH=<checkout>/src`` to compare: the games are the same (fixed seeds).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from geniusnight.engines import get_engine

GAMES = ("ingenious", "genius-idea", "brainiac")
PLAYERS = 4


def recorded_moves(game: str, games: int) -> list[tuple[Any, int | None, dict[str, Any]]]:
    """Every (position, seat, action) of ``games`` whole bot games."""
    engine = get_engine(game)
    options = engine.validate_options(PLAYERS, {})
    moves = []
    for g in range(games):
        state = engine.setup(PLAYERS, options, 7000 + g)
        step = 0
        while engine.outcome(state) is None:
            seat = min(engine.to_act(state), default=None)
            action = engine.bot_action(state, seat, "random", step * 7919 + g) if seat is not None else None
            if action is None:
                seat, action = None, {"type": "timeout"}
            moves.append((state, seat, action))
            state = engine.apply(state, seat, action)
            step += 1
    return moves


def best_per_move(game: str, moves: list[tuple[Any, int | None, dict[str, Any]]], repeat: int) -> float:
    apply = get_engine(game).apply
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        for state, seat, action in moves:
            apply(state, seat, action)
        best = min(best, (time.perf_counter() - began) / len(moves))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=25)
    args = parser.parse_args()
    for game in GAMES:
        moves = recorded_moves(game, args.games)
        per_move = best_per_move(game, moves, args.repeat)
        print(f"{game:12} apply: {per_move * 1e6:6.2f} µs per move ({len(moves)} moves, best of {args.repeat})")


if __name__ == "__main__":
    main()
