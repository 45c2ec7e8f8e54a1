"""What one view costs, per game, on a mid-game state of the real games.

For each engine: ``view`` alone, ``view`` plus its JSON encoding (what the fan-out pays per
distinct seat), and, as the baseline in the same run, the same view deep-copied (what a view
cost while views copied the log or round history for every seat).

    .venv/bin/python bench/views.py [--players 4] [--moves 60] [--repeat 2000]
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from typing import Any

from geniusnight.engines import get_engine


def mid_game(game: str, players: int, moves: int, seed: int = 7) -> tuple[Any, Any]:
    """A state after ``moves`` actions of the default bot (the strongest one)."""
    eng = get_engine(game)
    state = eng.setup(players, eng.validate_options(players, {}), seed=seed)
    bot = eng.info.bots[-1].id
    for k in range(moves):
        if eng.outcome(state) is not None:
            break
        seat = min(eng.to_act(state))
        state = eng.apply(state, seat, eng.bot_action(state, seat, bot, seed + k))
    return eng, state


def per_call_us(eng: Any, state: Any, players: int, repeat: int, then: Any) -> float:
    """Microseconds per ``then(eng.view(state, seat))``, over every seat in turn."""
    start = time.perf_counter()
    for i in range(repeat):
        then(eng.view(state, i % players))
    return (time.perf_counter() - start) / repeat * 1e6


def encode(view: dict[str, Any]) -> str:
    return json.dumps(view, separators=(",", ":"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':<12} {'view µs':>8} {'view+json µs':>13} {'deep-copied µs':>15} {'bytes':>7}")
    for game in ("ingenious", "genius-idea", "brainiac"):
        eng, state = mid_game(game, args.players, args.moves)
        n, repeat = args.players, args.repeat
        view = per_call_us(eng, state, n, repeat, then=id)
        encoded = per_call_us(eng, state, n, repeat, then=encode)
        copied = per_call_us(eng, state, n, repeat, then=copy.deepcopy)
        size = len(encode(eng.view(state, 0)))
        print(f"{game:<12} {view:>8.0f} {encoded:>13.0f} {copied:>15.0f} {size:>7}")


if __name__ == "__main__":
    main()
