"""Genius Idea rules (docs/rules/genius-idea.md), one test per rule, on hand-worked fixed deals.

Deck ``c000, c001, ...`` with ``shuffle: false``: seat s is dealt ``c{10s}..c{10s+9}``; the
supply starts right after the hands, and each round's public area is the next 15 supply cards
with the answer last.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from geniusnight.engines import IllegalAction, get_engine
from geniusnight.engines.genius_idea import ENGINE
from geniusnight.engines.genius_idea.rules import cards_needed

E = ENGINE


def deck(n: int = 243) -> list[str]:
    return [f"c{i:03d}" for i in range(n)]


def new(players: int, **options: Any) -> Any:
    opts: dict[str, Any] = {"words": deck(), "shuffle": False, **options}
    return E.setup(players, opts, seed=7)


def c(i: int) -> str:
    return f"c{i:03d}"


def prepare_all(s: Any) -> Any:
    """Each seat: answer = its first card, hints = its next five (cards 1..5)."""
    for seat in sorted(E.to_act(s)):
        hand = E.view(s, seat)["hand"]
        s = E.apply(s, seat, {"type": "prepare", "answer": hand[0], "hints": hand[1:6]})
    return s


def act(s: Any, seat: int | None, **action: Any) -> Any:
    """Apply ``action``; a round that ends goes on past its reveal (every seat ready)."""
    return ready_all(E.apply(s, seat, action))


def ready_all(s: Any) -> Any:
    while s["phase"] == "results":
        s = E.apply(s, min(E.to_act(s)), {"type": "ready"})
    return s


def started(players: int, **options: Any) -> Any:
    return prepare_all(new(players, **options))


def test_engine_is_registered_under_genius_idea() -> None:
    assert get_engine("genius-idea") is ENGINE


# --- preparation ---------------------------------------------------------------------------


def test_each_player_is_dealt_10_cards_in_seat_order_from_the_deck_front() -> None:
    s = new(4)
    for seat in range(4):
        assert E.view(s, seat)["hand"] == [c(10 * seat + i) for i in range(10)]
    assert E.view(s, None)["supply_count"] == 243 - 40


def test_preparation_is_simultaneous_every_seat_acts_at_once() -> None:
    s = new(5)
    assert E.to_act(s) == {0, 1, 2, 3, 4}
    assert E.phase(s) == "prepare"


def test_prepare_keeps_answer_and_five_hints_and_discards_the_other_four() -> None:
    s = new(3)
    s = act(s, 1, type="prepare", answer=c(19), hints=[c(10), c(12), c(14), c(16), c(18)])
    assert s["riddles"][1] == {"answer": c(19), "hints": [c(10), c(12), c(14), c(16), c(18)]}
    assert sorted(s["discards"]) == [c(11), c(13), c(15), c(17)]
    assert "hand" not in E.view(s, 1)
    assert E.view(s, 1)["my_riddle"]["answer"] == c(19)


@pytest.mark.parametrize(
    ("answer", "hints", "code"),
    [
        ("c010", ["c001", "c002", "c003", "c004", "c005"], "not_in_hand"),
        ("c000", ["c001", "c002", "c003", "c004", "c099"], "not_in_hand"),
        ("c000", ["c001", "c001", "c003", "c004", "c005"], "bad_riddle"),
        ("c000", ["c000", "c002", "c003", "c004", "c005"], "bad_riddle"),
        ("c000", ["c001", "c002", "c003", "c004"], "bad_riddle"),
        ("c000", ["c001", "c002", "c003", "c004", "c005", "c006"], "bad_riddle"),
    ],
)
def test_a_riddle_is_one_answer_and_five_different_hints_from_your_own_hand(
    answer: str, hints: list[str], code: str
) -> None:
    s = new(3)
    before = json.dumps(E.dump(s), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        act(s, 0, type="prepare", answer=answer, hints=hints)
    assert info.value.code == code
    assert json.dumps(E.dump(s), sort_keys=True) == before


def test_a_seat_prepares_only_once() -> None:
    s = act(new(3), 0, type="prepare", answer=c(0), hints=[c(i) for i in range(1, 6)])
    assert E.to_act(s) == {1, 2}
    with pytest.raises(IllegalAction) as info:
        act(s, 0, type="prepare", answer=c(0), hints=[c(i) for i in range(1, 6)])
    assert info.value.code == "not_your_turn"


def test_rounds_begin_only_once_every_riddle_is_prepared() -> None:
    s = new(3)
    s = act(s, 0, type="prepare", answer=c(0), hints=[c(i) for i in range(1, 6)])
    s = act(s, 2, type="prepare", answer=c(20), hints=[c(i) for i in range(21, 26)])
    assert E.phase(s) == "prepare" and E.view(s, None)["prepared"] == [True, False, True]
    s = act(s, 1, type="prepare", answer=c(10), hints=[c(i) for i in range(11, 16)])
    assert E.phase(s) == "reveal"


# --- roles and public area -------------------------------------------------------------------


def test_round_one_riddler_is_first_riddler_disruptor_next_seat_others_solvers() -> None:
    s = started(5, first_riddler=3)
    v = E.view(s, None)
    assert v["roles"] == ["solver", "solver", "solver", "riddler", "disruptor"]
    assert v["riddler"] == 3 and v["disruptor"] == 4
    assert E.to_act(s) == {4}


def test_first_riddler_defaults_to_seat_0() -> None:
    assert E.view(started(3), None)["roles"] == ["riddler", "disruptor", "solver"]


def test_roles_move_one_seat_each_round() -> None:
    s = started(4)
    s = act(s, 1, type="reveal", hint=c(1))
    s = act(s, 2, type="guess", card=c(0))  # solved: next round
    assert E.view(s, None)["roles"] == ["solver", "riddler", "disruptor", "solver"]


def test_public_area_is_the_next_15_supply_cards_then_the_answer_when_not_shuffled() -> None:
    s = started(3)
    assert E.view(s, None)["public"] == [c(30 + i) for i in range(15)] + [c(0)]
    s = act(s, 1, type="reveal", hint=c(1))
    s = act(s, 2, type="guess", card=c(0))
    assert E.view(s, None)["public"] == [c(45 + i) for i in range(15)] + [c(10)]


def test_public_area_is_shuffled_with_the_answer_when_shuffle_is_on() -> None:
    s = prepare_all(E.setup(3, {"words": deck(), "shuffle": True}, seed=3))
    riddler_answer = s["cur"]["answer"]
    public = E.view(s, None)["public"]
    assert len(public) == 16 == len(set(public)) and riddler_answer in public
    assert public != [c(30 + i) for i in range(15)] + [riddler_answer]  # not the fixed order
    assert set(public).isdisjoint(s["cur"]["hints"])


# --- reveal and order ----------------------------------------------------------------------------


def test_the_disruptor_reveals_one_hint_of_their_choice() -> None:
    s = started(4)
    s = act(s, 1, type="reveal", hint=c(4))
    assert E.view(s, None)["revealed"] == [c(4)]


def test_only_the_disruptor_reveals_and_only_an_unrevealed_hint() -> None:
    s = started(4)
    with pytest.raises(IllegalAction) as info:
        act(s, 2, type="reveal", hint=c(1))
    assert info.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as info:
        act(s, 1, type="reveal", hint=c(0))  # the answer is not a hint
    assert info.value.code == "not_a_hint"


def test_with_one_hint_revealed_the_order_step_is_skipped() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    assert E.phase(s) == "guess"


def test_with_two_hints_the_riddler_sends_the_full_order_and_may_keep_it() -> None:
    s = act(started(3), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="pass")
    s = act(s, 1, type="reveal", hint=c(2))
    assert E.phase(s) == "order" and E.to_act(s) == {0}
    assert E.view(s, None)["revealed"] == [c(1), c(2)]  # the new hint comes last
    kept = act(s, 0, type="order", hints=[c(1), c(2)])
    assert E.phase(kept) == "guess" and E.view(kept, None)["revealed"] == [c(1), c(2)]
    swapped = act(s, 0, type="order", hints=[c(2), c(1)])
    assert E.view(swapped, None)["revealed"] == [c(2), c(1)]


@pytest.mark.parametrize("hints", [["c001"], ["c001", "c001"], ["c001", "c003"], ["c001", "c002", "c003"]])
def test_the_order_must_list_every_revealed_hint_exactly_once(hints: list[str]) -> None:
    s = act(started(3), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="pass")
    s = act(s, 1, type="reveal", hint=c(2))
    with pytest.raises(IllegalAction) as info:
        act(s, 0, type="order", hints=hints)
    assert info.value.code == "bad_order"


# --- guess phase ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "chances"), [(3, 3), (4, 2), (5, 1), (6, 1)])
def test_each_solver_has_3_2_1_1_chances_for_3_4_5_6_players(players: int, chances: int) -> None:
    s = act(started(players), 1, type="reveal", hint=c(1))
    v = E.view(s, None)
    assert v["chances"] == [None, None] + [chances] * (players - 2)


def test_the_solver_has_3_chances_in_coop() -> None:
    s = started(2)
    assert E.view(s, None)["chances"] == [None, 3]


def test_a_correct_guess_ends_the_round_riddler_and_solver_score_2_plus_unrevealed_hints() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 3, type="guess", card=c(0))
    assert E.view(s, None)["scores"] == [6, 0, 0, 6]  # 2 + 4 unrevealed
    last = E.view(s, None)["history"][-1]
    assert last["solved_by"] == 3 and last["points"] == [6, 0, 0, 6]


def test_a_wrong_guess_gives_the_disruptor_1_at_once_and_marks_the_card_wrong_for_everyone() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="guess", card=c(40))
    v = E.view(s, 3)
    assert v["scores"] == [0, 1, 0, 0] and v["wrong"] == [c(40)] and v["chances"][2] == 1
    assert v["guesses"] == [{"seat": 2, "card": c(40), "correct": False}]
    with pytest.raises(IllegalAction) as info:
        act(s, 3, type="guess", card=c(40))
    assert info.value.code == "already_wrong"


def test_a_guess_must_name_a_public_card() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    for card in (c(1), c(2), "nothing", c(242)):
        with pytest.raises(IllegalAction) as info:
            act(s, 2, type="guess", card=card)
        assert info.value.code == "not_public"


def test_when_every_solver_with_chances_left_has_passed_the_next_hint_comes() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="pass")
    assert E.phase(s) == "guess" and E.to_act(s) == {3}
    s = act(s, 3, type="pass")
    assert E.phase(s) == "reveal" and E.to_act(s) == {1}
    assert E.view(s, None)["passed"] == []


def test_a_pass_holds_until_the_next_hint() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="pass")
    with pytest.raises(IllegalAction) as info:
        act(s, 2, type="guess", card=c(0))
    assert info.value.code == "not_your_turn"
    s = act(s, 3, type="guess", card=c(40))  # still racing: seat 3 has a chance left
    assert E.to_act(s) == {3}


def test_a_solver_out_of_chances_no_longer_counts_for_the_pass_rule() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 3, type="pass")
    s = act(s, 2, type="guess", card=c(40))
    s = act(s, 2, type="guess", card=c(41))  # seat 2 is out; seat 3 had passed
    assert E.phase(s) == "reveal"


def test_to_act_in_the_race_is_every_solver_with_chances_left_who_has_not_passed() -> None:
    s = act(started(6), 1, type="reveal", hint=c(1))
    assert E.to_act(s) == {2, 3, 4, 5}
    s = act(s, 2, type="guess", card=c(60))  # 1 chance each with 6 players: seat 2 is out
    s = act(s, 4, type="pass")
    assert E.to_act(s) == {3, 5}
    assert E.view(s, None)["to_act"] == [3, 5]


def test_with_all_five_hints_revealed_no_one_may_pass() -> None:
    s = act(started(3), 1, type="reveal", hint=c(1))
    for h in (2, 3, 4, 5):
        s = act(s, 2, type="pass")
        s = act(s, 1, type="reveal", hint=c(h))
        s = act(s, 0, type="order", hints=E.view(s, 0)["revealed"])
    assert E.view(s, 2)["may_pass"] is False
    with pytest.raises(IllegalAction) as info:
        act(s, 2, type="pass")
    assert info.value.code == "no_pass"
    assert {"type": "pass"} not in E.legal_actions(s, 2)


def test_the_round_ends_unsolved_when_no_solver_has_chances_left() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    for seat, card in ((2, 40), (3, 41), (2, 42), (3, 43)):
        s = act(s, seat, type="guess", card=c(card))
    v = E.view(s, None)
    assert v["history"][-1]["solved_by"] is None and v["history"][-1]["points"] == [0, 4, 0, 0]
    assert v["scores"] == [0, 4, 0, 0] and v["round"] == 2


def test_worked_example_four_hints_out_two_wrong_guesses_riddler_3_solver_3_disruptor_2() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="guess", card=c(40))  # wrong 1
    s = act(s, 2, type="pass")
    s = act(s, 3, type="pass")
    s = act(s, 1, type="reveal", hint=c(2))
    s = act(s, 0, type="order", hints=[c(2), c(1)])
    s = act(s, 3, type="guess", card=c(41))  # wrong 2
    s = act(s, 2, type="pass")
    s = act(s, 3, type="pass")
    s = act(s, 1, type="reveal", hint=c(3))
    s = act(s, 0, type="order", hints=[c(2), c(1), c(3)])
    s = act(s, 2, type="pass")
    s = act(s, 3, type="pass")
    s = act(s, 1, type="reveal", hint=c(4))
    s = act(s, 0, type="order", hints=[c(2), c(1), c(3), c(4)])
    s = act(s, 3, type="guess", card=c(0))  # 4 out, 1 unrevealed
    assert E.view(s, None)["scores"] == [3, 2, 0, 3]


# --- end of game -----------------------------------------------------------------------------


def solve_round(s: Any, solver_pick: int = 0) -> Any:
    """Reveal one hint and let the lowest Solver guess the answer at once."""
    v = E.view(s, None)
    s = act(s, v["disruptor"], type="reveal", hint=E.view(s, v["disruptor"])["hints"][0])
    solver = sorted(E.to_act(s))[solver_pick]
    return act(s, solver, type="guess", card=E.view(s, v["riddler"])["answer"])


def test_competitive_ends_after_every_player_was_riddler_once_most_points_wins() -> None:
    s = started(3)
    riddlers = []
    for _ in range(3):
        riddlers.append(E.view(s, None)["riddler"])
        s = solve_round(s)
    assert riddlers == [0, 1, 2] and E.phase(s) == "over"
    # rounds: R0+S2, R1+S0, R2+S1 score 6 each -> 12 all round: a three-way tie shares
    assert E.outcome(s) == {"winners": [0, 1, 2], "scores": [12, 12, 12]}
    assert E.view(s, 1)["result"]["winners"] == [0, 1, 2]


def test_competitive_single_top_score_wins_alone() -> None:
    s = solve_round(started(3))  # R0 + S2: 6 each
    s = solve_round(s)  # R1 + S0: 6 each -> [12, 6, 6]
    public = E.view(s, None)["public"]
    s = act(s, 0, type="reveal", hint=E.view(s, 0)["hints"][0])  # round 3: R2, D0, S1
    for card in public[:3]:  # three wrong guesses: the Disruptor (seat 0) gains 3
        s = act(s, 1, type="guess", card=card)
    assert E.outcome(s) == {"winners": [0], "scores": [15, 6, 6]}


# --- co-op ----------------------------------------------------------------------------------------


def test_two_players_default_to_coop_and_three_to_competitive() -> None:
    assert E.validate_options(2, {})["mode"] == "coop"
    assert E.validate_options(3, {})["mode"] == "competitive"


def test_coop_has_no_disruptor_and_the_engine_reveals_a_hint_itself() -> None:
    s = started(2)
    v = E.view(s, None)
    assert v["roles"] == ["riddler", "solver"] and v["disruptor"] is None
    assert E.phase(s) == "guess" and len(v["revealed"]) == 1 and v["revealed"][0] in [c(i) for i in range(1, 6)]
    assert "hints" not in E.view(s, 1)


def test_coop_wrong_guesses_score_nobody() -> None:
    s = act(started(2), 1, type="guess", card=c(20))
    assert E.view(s, None)["scores"] == [0, 0]


def test_coop_random_reveal_comes_from_the_in_state_prng() -> None:
    a = E.setup(2, {"words": deck()}, seed=11)
    b = E.setup(2, {"words": deck()}, seed=11)
    assert E.dump(prepare_all(a)) == E.dump(prepare_all(b))


def coop_reveal_order(seed: int) -> list[str]:
    """Seat 1 passes after every hint (the Riddler keeps the order): the hints in reveal order."""
    s = E.setup(2, {"words": deck(), "shuffle": False}, seed=seed)
    s = prepare_all(s)
    order: list[str] = []
    while True:
        revealed = E.view(s, None)["revealed"]
        order += [h for h in revealed if h not in order]
        if E.phase(s) == "order":
            s = act(s, 0, type="order", hints=revealed)
        elif len(order) < 5:
            s = act(s, 1, type="pass")
        else:
            return order


def test_coop_without_shuffle_reveals_the_hints_in_the_prepared_order_whatever_the_seed() -> None:
    orders = [coop_reveal_order(seed) for seed in range(6)]
    assert orders == [[c(1), c(2), c(3), c(4), c(5)]] * 6  # seat 0 prepared hints c001..c005


def test_reveal_timeout_without_shuffle_reveals_the_first_unrevealed_hint() -> None:
    s = act(started(3), 1, type="reveal", hint=c(2))  # the Disruptor picks c002 first
    s = act(s, 2, type="pass")
    for seed in (1, 2):
        t = E.load({**E.dump(s), "rng": seed})
        assert E.view(act(t, None, type="timeout"), None)["revealed"] == [c(2), c(1)]


def test_coop_second_riddle_comes_from_10_fresh_cards_before_rounds_3_and_4() -> None:
    s = started(2)
    s = act(s, 1, type="guess", card=c(0))  # round 1 solved
    assert E.view(s, None)["round"] == 2 and E.view(s, None)["riddler"] == 1
    s = act(s, 0, type="guess", card=c(10))  # round 2 solved: seat 0 is about to be Riddler again
    v = E.view(s, 0)
    # deal 20, round 1 took c020..c034, round 2 c035..c049: fresh hand c050..c059
    assert E.phase(s) == "prepare" and E.to_act(s) == {0} and v["round"] == 3
    assert v["hand"] == [c(50 + i) for i in range(10)]
    assert "hand" not in E.view(s, 1)
    s = act(s, 0, type="prepare", answer=c(59), hints=[c(50 + i) for i in range(5)])
    assert E.view(s, None)["public"] == [c(60 + i) for i in range(15)] + [c(59)]
    s = act(s, 1, type="guess", card=c(59))
    assert E.phase(s) == "prepare" and E.to_act(s) == {1}
    assert E.view(s, 1)["hand"] == [c(75 + i) for i in range(10)]
    s = act(s, 1, type="prepare", answer=c(75), hints=[c(76 + i) for i in range(5)])
    assert E.view(s, None)["public"][-1] == c(75) and E.view(s, None)["riddler"] == 1
    s = act(s, 0, type="guess", card=c(75))
    assert E.phase(s) == "over" and s["supply"] == [c(i) for i in range(100, 243)]


def test_coop_pair_wins_with_a_team_total_above_15() -> None:
    s = started(2)
    for _ in range(4):
        if E.phase(s) == "prepare":
            s = prepare_all(s)
        v = E.view(s, None)
        solver = 1 - v["riddler"]
        s = act(s, solver, type="guess", card=E.view(s, v["riddler"])["answer"])
    out = E.outcome(s)
    assert out == {"winners": [0, 1], "scores": [24, 24], "team_total": 48, "target": 15}


def test_coop_pair_loses_with_15_or_less() -> None:
    s = started(2)
    for _ in range(4):
        if E.phase(s) == "prepare":
            s = prepare_all(s)
        v = E.view(s, None)
        solver = 1 - v["riddler"]
        for card in [x for x in v["public"] if x != E.view(s, v["riddler"])["answer"]][:3]:
            s = act(s, solver, type="guess", card=card)
    out = E.outcome(s)
    assert out is not None and out["winners"] == [] and out["team_total"] == 0


# --- options ----------------------------------------------------------------------------------


def test_the_built_in_deck_has_243_unique_lowercase_words() -> None:
    from geniusnight.engines.genius_idea.similarity import builtin_words

    words = builtin_words()
    assert len(words) == 243 == len(set(words))
    assert all(w.isalpha() and w.islower() for w in words)


@pytest.mark.parametrize(
    ("mode", "players", "need"), [("competitive", 3, 75), ("competitive", 6, 150), ("coop", 2, 100)]
)
def test_a_custom_deck_must_hold_exactly_enough_cards(mode: str, players: int, need: int) -> None:
    assert cards_needed(mode, players) == need
    E.validate_options(players, {"mode": mode, "words": deck(need)})
    with pytest.raises(IllegalAction, match=f"at least {need}") as info:
        E.validate_options(players, {"mode": mode, "words": deck(need - 1)})
    assert info.value.code == "bad_option"


def test_a_deck_of_exactly_the_need_plays_to_the_end() -> None:
    s = E.setup(6, {"words": deck(150), "shuffle": False}, 1)
    while E.outcome(s) is None:
        s = E.apply(s, None, {"type": "timeout"})
    assert s["supply"] == []


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "coop"},
        {"mode": "party"},
        {"words": ["a", "b", "A", *deck(200)]},
        {"words": ["a", "", *deck(200)]},
        {"words": "apple"},
        {"words": [1, 2]},
        {"shuffle": "yes"},
        {"first_riddler": 4},
        {"first_riddler": -1},
        {"hint_count": 3},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as info:
        E.validate_options(4, options)
    assert info.value.code == "bad_option"


def test_player_range_follows_the_mode() -> None:
    assert E.player_range({"mode": "coop"}) == (2, 2)
    assert E.player_range({"mode": "competitive"}) == (3, 6)
    assert E.player_range({}) == (2, 6)
    with pytest.raises(IllegalAction):
        E.validate_options(7, {})


# --- timeouts ---------------------------------------------------------------------------------


def test_prepare_timeout_prepares_a_riddle_for_every_unprepared_seat() -> None:
    s = act(new(3), 0, type="prepare", answer=c(0), hints=[c(i) for i in range(1, 6)])
    s = act(s, None, type="timeout")
    assert E.phase(s) == "reveal"
    assert s["riddles"][0] is None and s["cur"]["answer"] == c(0)  # seat 0's own choice stands
    for seat in (1, 2):
        r = s["riddles"][seat]
        assert r["answer"].startswith("c0") and len(set(r["hints"])) == 5


def test_reveal_timeout_reveals_a_hint() -> None:
    s = act(started(4), None, type="timeout")
    assert E.phase(s) == "guess" and len(E.view(s, None)["revealed"]) == 1


def test_order_timeout_keeps_the_current_order() -> None:
    s = act(started(3), 1, type="reveal", hint=c(3))
    s = act(s, 2, type="pass")
    s = act(s, 1, type="reveal", hint=c(1))
    s = act(s, None, type="timeout")
    assert E.phase(s) == "guess" and E.view(s, None)["revealed"] == [c(3), c(1)]


def test_guess_timeout_passes_every_solver_still_to_act() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="pass")
    s = act(s, None, type="timeout")
    assert E.phase(s) == "reveal" and E.view(s, None)["revealed"] == [c(1)]


def test_guess_timeout_with_all_hints_out_ends_the_round_unsolved() -> None:
    s = started(3)
    for _ in range(4):
        s = act(s, None, type="timeout")  # reveal (then order)
        while E.phase(s) != "guess":
            s = act(s, None, type="timeout")
        s = act(s, None, type="timeout")  # everyone passes
    s = act(s, None, type="timeout")
    if E.phase(s) == "order":
        s = act(s, None, type="timeout")
    assert len(E.view(s, None)["revealed"]) == 5
    s = act(s, None, type="timeout")
    assert E.view(s, None)["history"][-1]["solved_by"] is None and E.view(s, None)["round"] == 2


def test_only_the_system_times_out_and_a_seat_cannot_act_as_the_system() -> None:
    s = started(3)
    with pytest.raises(IllegalAction) as info:
        act(s, 1, type="timeout")
    assert info.value.code == "system_only"
    with pytest.raises(IllegalAction) as info:
        act(s, None, type="reveal", hint=c(1))
    assert info.value.code == "not_your_turn"


# --- views ------------------------------------------------------------------------------------


def test_views_show_answer_and_hints_to_the_riddler_hints_to_the_disruptor_nothing_to_solvers() -> None:
    s = started(4)
    riddler, disruptor, solver = E.view(s, 0), E.view(s, 1), E.view(s, 2)
    assert riddler["answer"] == c(0) and riddler["hints"] == [c(i) for i in range(1, 6)]
    assert "answer" not in disruptor and disruptor["hints"] == riddler["hints"]
    for v in (solver, E.view(s, None)):
        assert "answer" not in v and "hints" not in v
        text = json.dumps(v)
        assert all(c(i) not in text for i in range(1, 6))


def test_after_the_round_the_answer_and_all_hints_are_public() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 2, type="guess", card=c(0))
    last = E.view(s, 3)["history"][0]
    assert last["answer"] == c(0) and last["hints"] == [c(i) for i in range(1, 6)]
    assert last["revealed"] == [c(1)] and last["solved_by"] == 2


def test_prepare_view_shows_only_your_own_hand_and_who_has_prepared() -> None:
    s = act(new(3), 2, type="prepare", answer=c(20), hints=[c(i) for i in range(21, 26)])
    for seat in range(3):
        v = E.view(s, seat)
        assert v["prepared"] == [False, False, True]
        others = [x for x in range(3) if x != seat]
        text = json.dumps({k: val for k, val in v.items() if k != "my_riddle"})
        for o in others:
            assert c(10 * o + 9) not in text  # nobody sees another's cards
    assert "hand" not in E.view(s, None)


def test_legal_actions_enumerate_every_move() -> None:
    s = new(3)
    assert len(E.legal_actions(s, 0)) == 10 * 126
    s = prepare_all(s)
    assert len(E.legal_actions(s, 1)) == 5 and E.legal_actions(s, 0) == []
    s = act(s, 1, type="reveal", hint=c(1))
    assert len(E.legal_actions(s, 2)) == 17  # 16 cards + pass


def test_mode_auto_picks_coop_for_two_players_and_competitive_otherwise() -> None:
    assert E.validate_options(2, {"mode": "auto"})["mode"] == "coop"
    assert E.validate_options(5, {"mode": "auto"})["mode"] == "competitive"
    assert E.validate_options(None, {})["mode"] == "auto"
    assert E.player_range({"mode": "auto"}) == (2, 6)


def test_a_custom_deck_file_is_read_as_json_or_one_word_per_line() -> None:
    assert E.import_option("words", b'["sun", "moon"]', "deck.json") == ["sun", "moon"]
    text = "\ufeff# my deck\nsun\n\n moon , star\n".encode()
    assert E.import_option("words", text, "deck.txt") == ["sun", "moon", "star"]
    for name, data in (("words", b"sun\nSun\n"), ("words", b"[1, 2]"), ("words", b"\xff\xfe\x00"), ("mode", b"x")):
        with pytest.raises(IllegalAction) as info:
            E.import_option(name, data, "x")
        assert info.value.code == "bad_option"


def test_simultaneous_guesses_are_settled_in_the_order_applied_the_later_one_is_refused() -> None:
    s = act(started(4), 1, type="reveal", hint=c(1))
    s = act(s, 3, type="guess", card=c(0))  # arrived first: wins the race
    with pytest.raises(IllegalAction) as info:
        act(s, 2, type="guess", card=c(0))  # the round is over; the next one waits for a reveal
    assert info.value.code == "wrong_phase"
    assert E.view(s, None)["scores"] == [6, 0, 0, 6]


def test_coop_solver_passing_makes_the_engine_reveal_the_next_hint() -> None:
    s = started(2)
    first = E.view(s, None)["revealed"]
    s = act(s, 1, type="pass")
    v = E.view(s, 0)
    assert E.phase(s) == "order" and E.to_act(s) == {0}  # two hints: the Riddler orders
    assert v["revealed"][0] == first[0] and len(v["revealed"]) == 2 and set(v["revealed"]) <= set(v["hints"])


# --- the round's reveal (results) -----------------------------------------------------------


def solved_round_one(players: int = 3) -> Any:
    """Round 1 solved by seat 2 after one hint; the game is now in ``results``."""
    s = started(players)
    s = E.apply(s, 1, {"type": "reveal", "hint": c(1)})
    return E.apply(s, 2, {"type": "guess", "card": c(0)})


def test_a_round_that_is_not_the_last_ends_in_results_showing_its_full_result_to_everyone() -> None:
    s = solved_round_one()
    for seat in (0, 1, 2, None):
        v = E.view(s, seat)
        assert v["phase"] == "results" and v["round"] == 1 and v["riddler"] == 0
        assert v["results"] == v["history"][-1]
        assert v["results"]["answer"] == c(0) and v["results"]["solved_by"] == 2
        assert v["results"]["hints"] == [c(i) for i in range(1, 6)] and v["results"]["points"] == [6, 0, 6]
        assert v["to_act"] == [0, 1, 2] and v["ready"] == []


def test_next_round_waits_until_every_seat_is_ready() -> None:
    s = solved_round_one()
    s = E.apply(s, 2, {"type": "ready"})
    s = E.apply(s, 0, {"type": "ready"})
    assert E.phase(s) == "results" and E.to_act(s) == {1} and E.view(s, None)["ready"] == [0, 2]
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 0, {"type": "ready"})
    assert e.value.code == "not_your_turn"
    s = E.apply(s, 1, {"type": "ready"})
    v = E.view(s, None)
    assert v["phase"] == "reveal" and v["round"] == 2 and v["riddler"] == 1


def test_results_phase_timeout_starts_the_next_round() -> None:
    s = E.apply(solved_round_one(), 0, {"type": "ready"})
    s = E.apply(s, None, {"type": "timeout"})
    assert E.phase(s) == "reveal" and E.view(s, None)["round"] == 2 and E.to_act(s) == {2}


def test_results_phase_does_not_show_the_next_secret() -> None:
    s = solved_round_one()
    # round 2: seat 1's riddle (answer c010) and the public cards c045 .. c059
    next_public = [c(45 + i) for i in range(15)]
    for seat in (0, 2, None):
        text = json.dumps(E.view(s, seat))
        assert all(f'"{card}"' not in text for card in [c(10), *next_public])
    own = E.view(s, 1)
    assert own["my_riddle"]["answer"] == c(10)  # your own riddle, as in any phase
    assert all(f'"{card}"' not in json.dumps(own) for card in next_public)


def test_ready_is_only_possible_in_results_and_takes_no_fields() -> None:
    s = started(3)
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 1, {"type": "ready"})
    assert e.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as e:
        E.apply(solved_round_one(), 0, {"type": "ready", "x": 1})
    assert e.value.code == "malformed"
    assert E.legal_actions(solved_round_one(), 0) == [{"type": "ready"}]


def test_the_last_round_goes_straight_to_game_over() -> None:
    s = solve_round(solve_round(started(3)))
    assert E.view(s, None)["round"] == 3
    v = E.view(s, None)
    s = E.apply(s, v["disruptor"], {"type": "reveal", "hint": E.view(s, v["disruptor"])["hints"][0]})
    s = E.apply(s, sorted(E.to_act(s))[0], {"type": "guess", "card": E.view(s, v["riddler"])["answer"]})
    assert E.phase(s) == "over" and "results" not in E.view(s, None)


def test_coop_results_come_before_the_second_riddle_is_dealt() -> None:
    s = started(2)
    s = act(s, 1, type="guess", card=c(0))  # round 1 solved
    s = E.apply(s, 0, {"type": "guess", "card": c(10)})  # round 2 solved
    assert E.phase(s) == "results" and "hand" not in E.view(s, 0)
    s = E.apply(E.apply(s, 0, {"type": "ready"}), 1, {"type": "ready"})
    assert E.phase(s) == "prepare" and E.view(s, 0)["hand"] == [c(50 + i) for i in range(10)]
