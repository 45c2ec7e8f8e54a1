"""What the fan-out of one accepted move costs, per engine, over whole 4-player bot games.

    .venv/bin/python bench/fanout.py [--games 20] [--game ingenious] [--apply-only]

Per move, what the server computes for a room with one connection per seat and a spectator:
every seat's view, the diff from its last view, and the encoded ``patch`` frame of each
(``LiveGame.patch_texts``). The engine's ``apply`` is timed beside it as the move's own cost,
and the ``random`` bot's choice of the move (what a bot seat costs the server, and what the
load benchmark's clients compute for every move they send).
Run it against another checkout with ``PYTHONPATH=<checkout>/src`` to compare builds. Times on a
shared machine are noisy; instructions are not: the fan-out's instructions per move are those
of a run under ``valgrind --tool=callgrind`` less those of the same run with ``--apply-only``
(the same games, no frames), divided by the moves (docs/performance.md, "How figures are taken").
"""

from __future__ import annotations

import argparse
import time

from geniusnight.engines import get_engine
from geniusnight.server.play.games import LiveGame

GAMES = ("ingenious", "genius-idea", "brainiac")
PLAYERS = 4
KEEP = 64  # the server's default patch_steps


def measure(game: str, games: int, frames: bool = True) -> tuple[int, float, float, float]:
    """Moves played, µs per move for the bot's choice, ``apply`` and every seat's patch frame."""
    engine = get_engine(game)
    seats: list[int | None] = [*range(PLAYERS), None]
    moves, bot_s, apply_s, fanout_s = 0, 0.0, 0.0, 0.0
    for seed in range(games):
        options = engine.validate_options(PLAYERS, {})
        state = engine.setup(PLAYERS, options, seed)
        live = LiveGame(1, "r", engine, options, seed, PLAYERS, [{}] * PLAYERS, {}, state)
        for seat in seats:
            live.state_text(seat)
        live.observe(KEEP)
        while not live.over and moves < 1_000_000:
            seat = min(engine.to_act(live.state), default=None)
            t = time.perf_counter()
            action = engine.bot_action(live.state, seat, "random", seed + live.seq) if seat is not None else None
            bot_s += time.perf_counter() - t
            if action is None:
                action = {"type": "timeout"}
                seat = None
            t0 = time.perf_counter()
            live.state = engine.apply(live.state, seat, action)
            t1 = time.perf_counter()
            live.seq += 1
            if frames:
                for viewer in seats:
                    live.patch_texts(viewer, live.seq - 1, KEEP)
            t2 = time.perf_counter()
            apply_s += t1 - t0
            fanout_s += t2 - t1
            moves += 1
    return moves, bot_s / moves * 1e6, apply_s / moves * 1e6, fanout_s / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", choices=GAMES, help="one engine (default: all three)")
    parser.add_argument("--apply-only", action="store_true", help="play the same games without the frames")
    args = parser.parse_args()
    print(f"{'game':<12} {'moves':>6} {'bot µs':>7} {'apply µs':>9} {'fan-out µs':>11}")
    for game in [args.game] if args.game else GAMES:
        moves, bot_us, apply_us, fanout_us = measure(game, args.games, frames=not args.apply_only)
        print(f"{game:<12} {moves:>6} {bot_us:>7.1f} {apply_us:>9.1f} {fanout_us:>11.1f}", flush=True)


if __name__ == "__main__":
    main()
