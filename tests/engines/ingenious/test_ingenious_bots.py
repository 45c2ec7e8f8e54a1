"""The bots: legal, deterministic, and ordered in strength (random < greedy <= search)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from geniusnight.engines.ingenious import ENGINE as E

# the match runner lives with the benchmarks; load it under a name no other module uses
_spec = importlib.util.spec_from_file_location(
    "ingenious_bench_match", Path(__file__).resolve().parents[3] / "bench" / "ingenious" / "match.py"
)
assert _spec is not None and _spec.loader is not None
_match_module = importlib.util.module_from_spec(_spec)
sys.modules["ingenious_bench_match"] = _match_module
_spec.loader.exec_module(_match_module)
match = _match_module.match


@pytest.mark.parametrize(("variant", "players"), [("standard", 3), ("solo", 1), ("teams", 4)])
def test_search_bot_plays_legal_moves_to_the_end(variant: str, players: int) -> None:
    s = E.setup(players, {"variant": variant}, 21)
    step = 0
    while s.phase != "over":
        s = E.apply(s, s.turn, E.bot_action(s, s.turn, "search", step))  # apply checks legality
        step += 1
    assert E.outcome(s) is not None


def test_bots_are_deterministic_from_their_seed() -> None:
    s = E.setup(2, {}, 8)
    for bot in ("random", "greedy", "search"):
        assert E.bot_action(s, 0, bot, 5) == E.bot_action(s, 0, bot, 5)
    assert E.bot_action(s, 1, "greedy", 0) is None  # not its turn


def test_greedy_and_search_beat_random_clearly() -> None:
    greedy = match("greedy", "random", 6, 2, "standard")
    search = match("search", "random", 4, 2, "standard")
    assert greedy["wins"]["greedy"] >= 5 and search["wins"]["search"] >= 4


def test_search_is_not_weaker_than_greedy() -> None:
    r = match("search", "greedy", 12, 2, "standard")
    assert r["wins"]["search"] >= r["wins"]["greedy"]
