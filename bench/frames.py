"""What one view costs, per engine, on a mid-game 4-player state.

    .venv/bin/python bench/frames.py [--repeat 2000]

Lines per engine: ``view`` (one seat's view), ``view+encode`` (that view as JSON), and
``frames/seq`` (every seat's and a spectator's encoded ``state`` frame at a new seq, as the
server builds them: the shared part once, each seat's own part added). Run it against another
checkout with ``PYTHONPATH=<checkout>/src`` to compare; ``frames/seq`` needs the split views.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from geniusnight.engines import get_engine

GAMES = ("ingenious", "genius-idea", "brainiac")
PLAYERS = 4


def midgame(game: str, moves: int) -> Any:
    """A 4-player state ``moves`` bot moves in (or the last one before the end)."""
    engine = get_engine(game)
    state = engine.setup(PLAYERS, engine.validate_options(PLAYERS, {}), 2024)
    for step in range(moves):
        seat = min(engine.to_act(state), default=None)
        action = (engine.bot_action(state, seat, "random", step) if seat is not None else None) or {"type": "timeout"}
        nxt = engine.apply(state, None if action == {"type": "timeout"} else seat, action)
        if engine.outcome(nxt) is not None:
            break
        state = nxt
    return state


def per_call(fn: Any, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def measure(game: str, repeat: int, moves: int) -> str:
    engine = get_engine(game)
    state = midgame(game, moves)
    view = per_call(lambda: engine.view(state, 0), repeat)
    encode = per_call(lambda: json.dumps(engine.view(state, 0), separators=(",", ":")), repeat)
    frames = "-"
    if hasattr(engine, "shared_view"):
        from geniusnight.server.play.games import LiveGame

        live = LiveGame(7, "r", engine, {}, 0, PLAYERS, [], {}, state)

        def all_frames() -> None:
            live.seq += 1  # a new seq: nothing cached
            for seat in [None, *range(PLAYERS)]:
                live.state_text(seat)

        frames = f"{per_call(all_frames, repeat):.1f}"
    size = len(json.dumps({"view": engine.view(state, 0)}, separators=(",", ":")))
    return f"{game:<12} {view:>9.1f} {encode:>15.1f} {frames:>14} {size:>12}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=40, help="bot moves into the game")
    args = parser.parse_args()
    print(f"{'game':<12} {'view µs':>9} {'view+encode µs':>15} {'frames/seq µs':>14} {'frame bytes':>12}")
    for game in GAMES:
        print(measure(game, args.repeat, args.moves), flush=True)


if __name__ == "__main__":
    main()
