"""Hidden information, engine side: 100 bot games of the three games (2-6 players, every seat
and a spectator), each seat's view checked against its game's oracle (``tests/hidden_info.py``)
after every move: no secret in it, and none behind it (the view stays the same when every
secret of that seat is dealt afresh). ``tests/platform/test_hidden_information_transport.py``
checks that the server sends each seat exactly these views.

``HIDDEN_INFO_GAMES`` (default 100, all of them) scales every table's games to about that many
in all, at least one each: ``make check`` plays fewer.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from geniusnight.engines import get_engine
from hidden_info import check_view

# (game, players, bots by seat, games): the smart bots take other paths through the games
TABLES: list[tuple[str, int, tuple[str, ...], int]] = [
    ("ingenious", 1, ("random",), 4),
    ("ingenious", 2, ("random", "greedy"), 10),
    ("ingenious", 3, ("random",), 6),
    ("ingenious", 4, ("random", "random", "random", "greedy"), 6),
    ("genius-idea", 2, ("random",), 14),
    ("genius-idea", 3, ("random", "smart"), 12),
    ("genius-idea", 4, ("random",), 8),
    ("genius-idea", 5, ("smart", "random"), 4),
    ("genius-idea", 6, ("random",), 4),
    ("brainiac", 3, ("random", "trivia"), 12),
    ("brainiac", 4, ("random",), 10),
    ("brainiac", 5, ("trivia", "random"), 6),
    ("brainiac", 6, ("random",), 4),
]
assert sum(t[3] for t in TABLES) >= 100
GAMES = int(os.environ.get("HIDDEN_INFO_GAMES", "100"))


def next_move(engine: Any, state: Any, bots: tuple[str, ...], rng: random.Random) -> tuple[int | None, Any]:
    """A bot move of a seat to act, in a random order as the server's race; the system's
    timeout when every bot waits."""
    seats = sorted(engine.to_act(state))
    rng.shuffle(seats)
    for seat in seats:
        action = engine.bot_action(state, seat, bots[seat % len(bots)], rng.getrandbits(62))
        if action is not None:
            return seat, action
    return None, {"type": "timeout"}


def play_and_check(game: str, players: int, bots: tuple[str, ...], seed: int) -> int:
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.setup(players, engine.validate_options(players, {}), seed)
    seats: list[int | None] = [None, *range(players)]
    moves = 0
    while True:
        for seat in seats:
            # the re-deal check on every third move keeps the module fast
            check_view(game, state, seat, engine.view(state, seat), rng if moves % 3 == 0 else None)
        if engine.outcome(state) is not None:
            return moves
        seat, action = next_move(engine, state, bots, rng)
        state = engine.apply(state, seat, action)
        moves += 1
        assert moves < 5000


@pytest.mark.parametrize(("game", "players", "bots", "games"), TABLES, ids=[f"{t[0]}-{t[1]}p" for t in TABLES])
def test_no_view_shows_or_depends_on_what_its_seat_may_not_know(
    game: str, players: int, bots: tuple[str, ...], games: int
) -> None:
    for i in range(max(1, games * GAMES // 100)):
        assert play_and_check(game, players, bots, seed=1000 * players + i) > 0
