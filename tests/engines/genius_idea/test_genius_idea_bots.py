"""Bots (docs/rules/genius-idea.md, "Bots"): every policy plays only legal moves in every
role; the Riddler builds readable riddles; Solvers read hints with a model of their own (no
telepathy with the Riddler), wait when unsure, rarely solve from the first hint, and beat
random Solvers; the strengths are ordered; stored ``smart`` bots play as ``sharp``.

The comparisons are small fixed-seed versions of ``bench/genius_idea/match.py``: every other
role plays ``normal``; only the Solvers change.
"""

from __future__ import annotations

from typing import Any

import pytest

from geniusnight.engines import Rng
from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea import bots
from geniusnight.engines.genius_idea.bots import STRENGTHS, best_riddle, card_scores, player_action
from geniusnight.engines.genius_idea.similarity import builtin_words, fallback_similarity, similarity

SEEDS = range(12)


def play(players: int, seed: int, solver_bot: str) -> list[dict[str, Any]]:
    state = E.setup(players, {}, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    step = 0
    while E.outcome(state) is None:
        if state["phase"] == "results":  # the round's reveal: every seat ready at once
            state = E.apply(state, min(E.to_act(state)), {"type": "ready"})
            continue
        seat = rng.choice(sorted(E.to_act(state)))
        role = E.view(state, None)["roles"][seat]
        bot = solver_bot if state["phase"] == "guess" and role == "solver" else "normal"
        action = E.bot_action(state, seat, bot, seed * 1009 + step)
        assert action is not None
        state = E.apply(state, seat, action)
        step += 1
    return list(state["history"])


def rounds_of(players: int, solver_bot: str) -> list[dict[str, Any]]:
    return [r for seed in SEEDS for r in play(players, seed, solver_bot)]


def solved_share(rounds: list[dict[str, Any]], within: int = 5) -> float:
    return sum(1 for r in rounds if r["solved_by"] is not None and len(r["revealed"]) <= within) / len(rounds)


@pytest.mark.parametrize("players", [2, 4])
def test_solvers_of_every_strength_solve_more_riddles_than_random_ones(players: int) -> None:
    random_rate = solved_share(rounds_of(players, "random"))
    rates = {bot: solved_share(rounds_of(players, bot)) for bot in STRENGTHS}
    assert all(rate > random_rate + 0.25 for rate in rates.values()), (rates, random_rate)
    assert rates["sharp"] >= rates["easy"]


def test_bot_solvers_rarely_solve_from_the_first_hint_as_people_rarely_do() -> None:
    rounds = [r for players in (3, 4) for r in rounds_of(players, "sharp")]
    assert solved_share(rounds, within=1) <= 0.08
    assert solved_share(rounds) >= 0.5


def test_bot_solvers_wait_for_more_hints_instead_of_burning_chances() -> None:
    def misses(bot: str) -> float:
        rounds = rounds_of(4, bot)
        return sum(1 for r in rounds for g in r["guesses"] if not g["correct"]) / len(rounds)

    assert misses("normal") < 0.7 * misses("random")


def solver_state(revealed: list[str], public: list[str], chances: int = 1) -> dict[str, Any]:
    """A guess phase as a Solver (seat 1) may read it: no answer, no unrevealed hints."""
    return {
        "phase": "guess",
        "language": "en",
        "cur": {
            "public": public,
            "wrong": [],
            "revealed": revealed,
            "solvers": [1],
            "chances": [0, chances],
            "passed": [],
        },
    }


PUBLIC = ["planet", "turtle", "pear", "car", "baby", "sand", "lamp", "kite", "soap", "drum", "coin", "owl"]


def solver(revealed: list[str], bot: str = "sharp") -> dict[str, Any]:
    return player_action(solver_state(revealed, PUBLIC), 1, STRENGTHS[bot], Rng.from_seed(0))


def test_a_solver_passes_on_one_vague_hint_and_guesses_when_the_hints_agree() -> None:
    assert solver(["sky"]) == {"type": "pass"}
    assert solver(["star", "moon", "rocket"]) == {"type": "guess", "card": "planet"}


def test_a_solver_must_guess_its_best_card_when_all_hints_are_out() -> None:
    assert solver(["sky", "wind", "rain", "boot", "glove"], "easy")["type"] == "guess"


def test_a_solver_reads_hints_with_its_own_model_never_the_riddlers(monkeypatch: pytest.MonkeyPatch) -> None:
    """No telepathy: a Solver reads neither the Riddler's model (themes + embedding) nor the
    answer or the unrevealed hints (its state has neither); it hears the embedding alone."""

    def riddler_model(a: str, b: str, language: str) -> float:
        raise AssertionError("a Solver read the Riddler's model")

    monkeypatch.setattr(bots, "similarity", riddler_model)
    assert solver(["star", "moon", "rocket"]) == {"type": "guess", "card": "planet"}


def test_weaker_solvers_hear_the_hints_less_clearly() -> None:
    """Over many public areas, the card an easy Solver would name after two telling hints is
    the answer less often than a sharp Solver's."""
    words = list(builtin_words())
    riddles = [("planet", ["star", "moon"]), ("bee", ["honey", "flower"]), ("ship", ["anchor", "ocean"])]

    def right(bot: str) -> int:
        hits = 0
        for seed in range(40):
            rng = Rng.from_seed(seed)
            for answer, hints in riddles:
                public = [answer, *[w for w in rng.shuffled(words) if w not in (answer, *hints)][:15]]
                cur = solver_state(hints, public)["cur"]
                hits += card_scores(cur, seed % 5, STRENGTHS[bot], "en")[0][1] == answer
        return hits

    assert right("easy") < right("sharp")


def test_stored_smart_bots_play_as_sharp() -> None:
    state = E.setup(4, {}, 9)
    for step in range(60):
        if E.outcome(state) is not None:
            break
        seat = min(E.to_act(state))
        action = E.bot_action(state, seat, "smart", step)
        assert action == E.bot_action(state, seat, "sharp", step)
        assert action is not None
        state = E.apply(state, seat, action)


@pytest.mark.parametrize("bot", ["random", "easy", "normal", "sharp", "smart"])
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


def test_the_riddler_picks_an_answer_with_related_hints_and_leaves_unrelated_cards_out() -> None:
    hand = ["bee", "honey", "flower", "butterfly", "garden", "piano", "rocket", "soap", "ladder", "anchor"]
    answer, hints = best_riddle(hand, "en")
    assert answer in {"bee", "honey", "flower", "butterfly", "garden"}
    assert len({"bee", "honey", "flower", "butterfly", "garden"} & set(hints)) == 4


def test_the_riddler_lists_its_most_telling_hint_first() -> None:
    hand = ["pirate", "treasure", "ship", "parrot", "sword", "cup", "lamp", "soap", "bus", "tea"]
    answer, hints = best_riddle(hand, "en")
    links = [similarity(h, answer) for h in hints]
    assert links == sorted(links, reverse=True)


def test_the_disruptor_never_reads_the_answer_it_cannot_see() -> None:
    """A Disruptor's view has the hints but not the answer: the bot reveals from that alone."""
    state = E.setup(3, {}, 2)
    while state["phase"] != "reveal":
        seat = min(E.to_act(state))
        state = E.apply(state, seat, E.bot_action(state, seat, "normal", 0) or {"type": "timeout"})
    disruptor = state["cur"]["disruptor"]
    blind = {**state, "cur": {k: v for k, v in state["cur"].items() if k != "answer"}}
    action = player_action(blind, disruptor, STRENGTHS["sharp"], Rng.from_seed(0))
    assert action["type"] == "reveal" and action["hint"] in state["cur"]["hints"]


def test_the_disruptor_reveals_the_least_helpful_hint_and_the_riddler_orders_by_relevance() -> None:
    first = ["coffee", "cup", "tea", "milk", "sugar", "bread", "rope", "wolf", "lamp", "kite"]
    words = first + [w for w in builtin_words() if w not in first]
    s = E.setup(3, {"shuffle": False, "words": words}, 0)
    s = E.apply(s, 0, {"type": "prepare", "answer": "coffee", "hints": ["cup", "tea", "milk", "sugar", "bread"]})
    s = E.apply(s, None, {"type": "timeout"})
    reveal = E.bot_action(s, 1, "normal", 0)
    assert reveal is not None and reveal["hint"] != "cup"  # the giveaway is kept back
    s = E.apply(s, 1, reveal)
    s = E.apply(s, 2, {"type": "pass"})
    s = E.apply(s, 1, {"type": "reveal", "hint": "cup"})
    order = E.bot_action(s, 0, "normal", 0)
    assert order is not None and order["hints"][0] == "cup"


def test_a_solver_weights_the_first_hint_most() -> None:
    cur = {"public": ["ocean", "king", "coffee"], "wrong": [], "revealed": ["beach", "queen"]}
    assert card_scores(cur, 1, STRENGTHS["sharp"], "en")[0][1] == "ocean"
    cur["revealed"] = ["queen", "beach"]
    assert card_scores(cur, 1, STRENGTHS["sharp"], "en")[0][1] == "king"


def test_similarity_uses_the_association_tables_for_the_deck_and_a_string_measure_otherwise() -> None:
    assert similarity("dog", "cat") > similarity("dog", "piano")
    assert similarity("planet", "star") > 0.5 > 0.1 > similarity("planet", "turtle")
    assert similarity("sunflower", "sunshine") == fallback_similarity("sunflower", "sunshine") > 0.2
    assert fallback_similarity("xyz", "abc") == 0.0


def test_the_similarity_table_covers_exactly_the_built_in_deck_and_is_symmetric() -> None:
    import json
    from importlib import resources

    deck = resources.files("geniusnight.engines.genius_idea").joinpath("content").joinpath("en")
    raw = json.loads(deck.joinpath("similarity.json").read_text())
    assert raw["words"] == list(builtin_words())
    m = raw["matrix"]
    assert len(m) == 243 and all(len(row) == 243 for row in m)
    assert all(abs(m[i][j] - m[j][i]) <= 1 for i in range(0, 243, 7) for j in range(243))
