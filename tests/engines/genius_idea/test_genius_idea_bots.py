"""Bots: every policy plays only legal moves in every role, and smart Solvers beat random ones.

The comparison is a small fixed-seed version of ``bench/genius_idea/match.py``: every other
role plays ``smart``; only the Solvers change.
"""

from __future__ import annotations

from typing import Any

import pytest

from geniusnight.engines import Rng
from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea.bots import best_riddle, card_scores
from geniusnight.engines.genius_idea.similarity import fallback_similarity, similarity

SEEDS = range(12)


def play(players: int, seed: int, solver_bot: str) -> list[dict[str, Any]]:
    state = E.setup(players, {}, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    step = 0
    while E.outcome(state) is None:
        seat = rng.choice(sorted(E.to_act(state)))
        role = E.view(state, None)["roles"][seat]
        bot = solver_bot if state["phase"] == "guess" and role == "solver" else "smart"
        action = E.bot_action(state, seat, bot, seed * 1009 + step)
        assert action is not None
        state = E.apply(state, seat, action)
        step += 1
    return list(state["history"])


def tally(players: int, solver_bot: str) -> tuple[float, float]:
    """(share of riddles solved, Solver points per riddle) over the fixed seeds."""
    rounds = [r for seed in SEEDS for r in play(players, seed, solver_bot)]
    solved = [r for r in rounds if r["solved_by"] is not None]
    return len(solved) / len(rounds), sum(r["points"][r["solved_by"]] for r in solved) / len(rounds)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_smart_solvers_solve_more_riddles_and_earn_more_than_random_ones(players: int) -> None:
    smart_rate, smart_points = tally(players, "smart")
    random_rate, random_points = tally(players, "random")
    assert smart_rate > random_rate + 0.25
    # points are 2 + unrevealed hints: more points per riddle means solved with fewer hints out
    assert smart_points > 1.5 * random_points


def test_smart_coop_solvers_need_fewer_hints_than_random_ones() -> None:
    def within_two(bot: str) -> float:
        rounds = [r for seed in SEEDS for r in play(2, seed, bot)]
        return sum(1 for r in rounds if r["solved_by"] is not None and len(r["revealed"]) <= 2) / len(rounds)

    assert within_two("smart") > within_two("random") + 0.2


def hints_needed(rounds: list[dict[str, Any]]) -> float:
    """Mean hints out when the riddle fell, an unsolved riddle counting as one more than all 5."""
    return sum(len(r["revealed"]) if r["solved_by"] is not None else 6 for r in rounds) / len(rounds)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_smart_solvers_solve_with_fewer_hints_than_random_ones(players: int) -> None:
    smart = [r for seed in range(24) for r in play(players, seed, "smart")]
    rand = [r for seed in range(24) for r in play(players, seed, "random")]
    assert hints_needed(smart) < hints_needed(rand) - 0.5

    def within_three(rounds: list[dict[str, Any]]) -> float:
        return sum(1 for r in rounds if r["solved_by"] is not None and len(r["revealed"]) <= 3) / len(rounds)

    assert within_three(smart) > within_three(rand) + 0.1


@pytest.mark.parametrize("bot", ["random", "smart"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_bots_make_only_legal_moves_in_every_role(bot: str, players: int) -> None:
    state = E.setup(players, {"words": [f"w{i}x" for i in range(200)]}, 5)
    for step in range(500):
        if E.outcome(state) is not None:
            break
        for seat in range(players):
            if seat not in E.to_act(state):
                assert E.bot_action(state, seat, bot, step) is None
        seat = min(E.to_act(state))
        action = E.bot_action(state, seat, bot, step)
        assert action is not None
        state = E.apply(state, seat, action)
    assert E.outcome(state) is not None


def test_smart_preparation_picks_an_answer_with_related_hints() -> None:
    hand = ["dog", "cat", "horse", "cow", "sheep", "goat", "piano", "rocket", "soap", "ladder"]
    answer, hints = best_riddle(hand)
    assert answer in {"dog", "cat", "horse", "cow", "sheep", "goat"}
    assert not {"piano", "rocket", "soap", "ladder"} & set(hints)


def test_smart_disruptor_reveals_the_least_helpful_hint_and_riddler_orders_by_similarity() -> None:
    from geniusnight.engines.genius_idea.similarity import builtin_words

    first = ["coffee", "cup", "tea", "milk", "sugar", "bread", "rope", "wolf", "lamp", "kite"]
    words = first + [w for w in builtin_words() if w not in first]
    s = E.setup(3, {"shuffle": False, "words": words}, 0)
    s = E.apply(s, 0, {"type": "prepare", "answer": "coffee", "hints": ["cup", "tea", "milk", "sugar", "bread"]})
    s = E.apply(s, None, {"type": "timeout"})
    reveal = E.bot_action(s, 1, "smart", 0)
    assert reveal is not None and reveal["hint"] != "cup"  # the giveaway is kept back
    s = E.apply(s, 1, reveal)
    s = E.apply(s, 2, {"type": "pass"})
    s = E.apply(s, 1, {"type": "reveal", "hint": "cup"})
    order = E.bot_action(s, 0, "smart", 0)
    assert order is not None and order["hints"][0] == "cup"


def test_smart_solver_weights_the_first_hint_most() -> None:
    cur = {"public": ["ocean", "king", "coffee"], "wrong": [], "revealed": ["beach", "queen"]}
    assert card_scores(cur)[0][1] == "ocean"
    cur["revealed"] = ["queen", "beach"]
    assert card_scores(cur)[0][1] == "king"


def test_similarity_uses_the_model_table_for_the_deck_and_a_string_measure_otherwise() -> None:
    assert similarity("dog", "cat") > similarity("dog", "piano")
    assert similarity("dog", "dog") == pytest.approx(1.0, abs=0.002)
    assert similarity("sunflower", "sunshine") == fallback_similarity("sunflower", "sunshine") > 0.2
    assert fallback_similarity("xyz", "abc") == 0.0


def test_the_similarity_table_covers_exactly_the_built_in_deck_and_is_symmetric() -> None:
    import json
    from importlib import resources

    from geniusnight.engines.genius_idea.similarity import builtin_words

    raw = json.loads(resources.files("geniusnight.engines.genius_idea").joinpath("similarity.json").read_text())
    assert raw["words"] == list(builtin_words())
    m = raw["matrix"]
    assert len(m) == 243 and all(len(row) == 243 for row in m)
    assert all(abs(m[i][j] - m[j][i]) <= 1 for i in range(0, 243, 7) for j in range(243))
