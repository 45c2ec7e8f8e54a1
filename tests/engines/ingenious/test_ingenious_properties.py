"""Property tests: random Ingenious games to the end in every variant, checking invariants.

``INGENIOUS_PROPERTY_EXAMPLES`` raises the number of games (default keeps the module fast).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hidden_info
from geniusnight.engines.base import IllegalAction, Rng
from geniusnight.engines.ingenious import ENGINE as E
from geniusnight.engines.ingenious.geometry import COLOUR_INDEX, COLOURS
from geniusnight.engines.ingenious.rules import FULL_SET_COUNTS, State, cell_gains, count_empty_pairs
from geniusnight.server.play.patches import apply_patch

EXAMPLES = int(os.environ.get("INGENIOUS_PROPERTY_EXAMPLES", "15"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = st.sampled_from([("standard", 2), ("standard", 3), ("standard", 4), ("solo", 1), ("teams", 4)])
BOTS = st.lists(st.sampled_from(["random", "random", "greedy"]), min_size=4, max_size=4)


def tiles_everywhere(s: State) -> dict[int, int]:
    """Tile counts over bag, racks and board (board tiles recovered from the placed pairs)."""
    counts: dict[int, int] = {}
    board_tiles = [tuple(sorted((s.board[a] - 1, s.board[b] - 1))) for a, b in s.pairs]
    for t in [*s.bag, *(t for r in s.racks for t in r), *(a * 6 + b for a, b in board_tiles)]:
        counts[t] = counts.get(t, 0) + 1
    return counts


def dumps(s: State) -> str:
    return json.dumps(E.dump(s), sort_keys=True)


def check_invariants(before: State | None, s: State) -> None:
    assert tiles_everywhere(s) == FULL_SET_COUNTS  # 120 tiles conserved
    cap = s.rules.cap
    for i, track in enumerate(s.tracks):
        assert all(0 <= v <= cap for v in track)
        if before is not None:
            assert all(a <= b for a, b in zip(before.tracks[i], track, strict=True))  # never falls
    covered = [c for pair in s.pairs for c in pair]
    assert len(covered) == len(set(covered))  # no cell covered twice
    assert sum(1 for k in s.board if k) == 6 + len(covered)
    assert s.free == count_empty_pairs(s.geometry, s.board)
    if before is not None:
        assert all(not a or a == b for a, b in zip(before.board, s.board, strict=True))
    assert all(len(r) <= 6 for r in s.racks)
    for seat in [None, *range(s.players)]:
        # what the view may not show or depend on (other racks, the bag, the PRNG): the game's
        # oracle; its re-deal check on a sample of the positions keeps the module fast
        redeal = random.Random(len(s.pairs)) if len(s.pairs) % 3 == 0 else None
        hidden_info.check_view("ingenious", s, seat, E.view(s, seat), redeal)


def check_scored_as_cell_gains(before: State, s: State, action: dict[str, Any]) -> None:
    """A placement logs the points ``cell_gains`` (the board query the bots and the placement
    list use) gives each of its hexes on the board before it: the move and the list agree."""
    geom = before.geometry
    (x, y), (c1, c2) = (geom.index[tuple(c)] for c in action["cells"]), (COLOUR_INDEX[k] for k in action["colors"])
    raw: dict[str, int] = {}
    for cell, colour in ((x, c1), (y, c2)):
        gain = cell_gains(geom, before.board, cell)[colour]
        if gain:
            raw[COLOURS[colour]] = raw.get(COLOURS[colour], 0) + gain
    (placed,) = [e for e in s.log if e["n"] >= before.events and e["type"] == "place"]
    assert placed["raw"] == raw


def play(variant: str, players: int, seed: int, bots: list[str]) -> tuple[State, list[tuple[int | None, Any]]]:
    s = E.setup(players, {"variant": variant}, seed)
    history: list[tuple[int | None, Any]] = []
    rng = Rng.from_seed(seed)
    check_invariants(None, s)
    steps = 0
    while E.outcome(s) is None:
        steps += 1
        assert steps < 1000
        seat = s.turn
        if rng.randbelow(25) == 0:
            actor, action = None, {"type": "timeout"}
        else:
            actor, action = seat, E.bot_action(s, seat, bots[seat % len(bots)], seed + steps)
        before = s
        frozen = dumps(before)
        s = E.apply(s, actor, action)
        assert dumps(before) == frozen  # apply never changes its input
        history.append((actor, action))
        check_invariants(before, s)
        if actor is not None and action["type"] == "place":
            check_scored_as_cell_gains(before, s, action)
        if rng.randbelow(10) == 0:
            again = E.load(json.loads(json.dumps(E.dump(s))))
            assert dumps(again) == dumps(s) and E.view(again, seat) == E.view(s, seat)
    return s, history


@SETTINGS
@given(game=GAMES, seed=st.integers(0, 2**40), bots=BOTS)
def test_random_games_keep_every_invariant_to_the_end(game: tuple[str, int], seed: int, bots: list[str]) -> None:
    variant, players = game
    s, history = play(variant, players, seed, bots)
    out = E.outcome(s)
    assert out is not None and out["winners"]
    if variant == "teams":
        assert {w % 2 for w in out["winners"]} == {out["winners"][0] % 2} or len(out["winners"]) == 4
    # determinism: the same seed and actions give the same dump
    b = E.setup(players, {"variant": variant}, seed)
    for seat, action in history:
        b = E.apply(b, seat, action)
    assert dumps(b) == dumps(s)


JUNK_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=6) | st.sampled_from(["red", "place", "swap"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
JUNK = st.one_of(
    JUNK_VALUES,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["place", "swap", "timeout"])},
        optional={"colors": JUNK_VALUES, "cells": JUNK_VALUES, "accept": JUNK_VALUES},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("place"),
            "colors": st.lists(
                st.sampled_from(["red", "green", "blue", "orange", "yellow", "purple", "pink"]), min_size=2, max_size=2
            ),
            "cells": st.lists(st.lists(st.integers(-8, 8), min_size=2, max_size=2), min_size=2, max_size=2),
        }
    ),
)


@settings(max_examples=max(200, EXAMPLES * 20), deadline=None)
@given(junk=JUNK, seed=st.integers(0, 50), steps=st.integers(0, 30), seat=st.sampled_from([None, 0, 1, 2, 3, -1, "0"]))
def test_junk_actions_raise_illegal_action_and_change_nothing(junk: Any, seed: int, steps: int, seat: Any) -> None:
    s = E.setup(3, {}, seed)
    for i in range(steps):
        if E.outcome(s) is not None:
            break
        s = E.apply(s, s.turn, E.bot_action(s, s.turn, "random", i))  # type: ignore[arg-type]
    before = dumps(s)
    legal = E.legal_actions(s, s.turn) if isinstance(seat, int) and seat == s.turn else []
    try:
        new = E.apply(s, seat, junk)
    except IllegalAction as e:
        assert e.code
    else:
        # the junk happened to be a legal move (or the system's timeout)
        assert junk in legal or (seat is None and junk == {"type": "timeout"})
        assert isinstance(new, State)
    assert dumps(s) == before


def test_every_legal_action_is_accepted_and_nothing_else_at_the_start() -> None:
    s = E.setup(2, {}, 4)
    legal = E.legal_actions(s, 0)
    assert legal and all(isinstance(E.apply(s, 0, a), State) for a in legal[::5])
    assert E.legal_actions(s, 1) == []


@SETTINGS
@given(game=GAMES, seed=st.integers(0, 2**40), bots=BOTS, gap=st.integers(1, 8))
def test_seat_view_ops_take_each_seats_own_view_to_any_later_position(
    game: tuple[str, int], seed: int, bots: list[str], gap: int
) -> None:
    """The server sends ``E.seat_view_ops(old, new, seat)`` instead of diffing a seat's two
    own views: applied to the old one they must give the new one exactly, for every seat and
    for spectators, one move apart or several, and from a state read back from its dump."""
    variant, players = game
    _, history = play(variant, players, seed, bots)
    states = [E.setup(players, {"variant": variant}, seed)]
    for seat, action in history:
        states.append(E.apply(states[-1], seat, action))
    viewers = [*range(players), None]
    for i, old in enumerate(states):
        for new in {id(s): s for s in states[i + 1 : i + 2] + states[i + gap : i + gap + 1]}.values():
            for seat in viewers:
                ops = E.seat_view_ops(old, new, seat)
                assert ops is not None
                assert apply_patch(E.seat_view(old, seat), ops) == E.seat_view(new, seat)
        if i % 10 == 0 and i + gap < len(states):
            loaded = E.load(json.loads(json.dumps(E.dump(old))))
            later = states[i + gap]
            for seat in viewers:
                ops = E.seat_view_ops(loaded, later, seat)
                assert ops is not None and apply_patch(E.seat_view(old, seat), ops) == E.seat_view(later, seat)


@SETTINGS
@given(game=GAMES, seed=st.integers(0, 2**40), bots=BOTS, gap=st.integers(1, 8))
def test_shared_view_ops_take_the_shared_view_to_any_later_positions(
    game: tuple[str, int], seed: int, bots: list[str], gap: int
) -> None:
    """The server sends ``E.shared_view_ops(old, new)`` instead of diffing the two shared
    views: applied to the old view they must give the new one exactly, one move apart or
    several (a game whose sockets missed a few fan-outs), and from a state read back from
    its dump (a process that rebuilt the game)."""
    variant, players = game
    _, history = play(variant, players, seed, bots)
    states = [E.setup(players, {"variant": variant}, seed)]
    for seat, action in history:
        states.append(E.apply(states[-1], seat, action))
    for i, old in enumerate(states):
        for new in {id(s): s for s in states[i + 1 : i + 2] + states[i + gap : i + gap + 1]}.values():
            ops = E.shared_view_ops(old, new)
            assert ops is not None
            assert apply_patch(E.shared_view(old), ops) == E.shared_view(new)
        if i % 10 == 0 and i + gap < len(states):
            loaded = E.load(json.loads(json.dumps(E.dump(old))))
            ops = E.shared_view_ops(loaded, states[i + gap])
            assert ops is not None and apply_patch(E.shared_view(old), ops) == E.shared_view(states[i + gap])
