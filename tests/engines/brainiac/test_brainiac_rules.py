"""One test per Brainiac or IDIOT! rule (docs/rules/brainiac.md), on fixed deals."""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import pytest
from brainiac_helpers import B, I, make_cards, new, play_round, right

from geniusnight.engines.base import IllegalAction
from geniusnight.engines.brainiac.cards import MAX_TIE_ROUNDS, default_whoami
from geniusnight.engines.brainiac.engine import ENGINE as E

HAVE_PACKS = importlib.util.find_spec("geniusnight.engines.brainiac.packs") is not None


def with_scores(s: dict[str, Any], scores: list[int]) -> dict[str, Any]:
    """A hand-made position: the same state with other scores."""
    d = E.dump(s)
    d["scores"] = list(scores)
    return E.load(d)


def fixed(players: int, **options: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {"shuffle": False, "cards": make_cards(2 * players + 2)}
    opts.update(options)
    return E.setup(players, opts, seed=3)


# --- start: cards and trades -------------------------------------------------------------


def test_each_player_is_dealt_one_trivia_card_in_seat_order_from_the_deck_front() -> None:
    s = fixed(4)
    assert s["phase"] == "trade" and s["hand"] == [0, 1, 2, 3] and s["deck"][0] == 4
    assert E.to_act(s) == {0, 1, 2, 3}
    assert [q["q"] for q in E.view(s, 2)["card"]] == [f"Card 2 question {j}?" for j in range(4)]


def test_trade_takes_the_next_card_and_trades_resolve_in_seat_order() -> None:
    s = fixed(4)
    s = E.apply(s, 3, {"type": "trade"})
    s = E.apply(s, 0, {"type": "keep"})
    s = E.apply(s, 1, {"type": "trade"})
    assert s["phase"] == "trade" and E.to_act(s) == {2}
    s = E.apply(s, 2, {"type": "keep"})
    # seat 1 trades first (seat order), then seat 3
    assert s["hand"] == [0, 4, 2, 5] and s["discard"] == [1, 3] and s["phase"] == "ask"
    assert E.view(s, None)["traded"] == [False, True, False, True]


def test_trade_decisions_are_hidden_until_everyone_has_decided() -> None:
    s = E.apply(fixed(3), 1, {"type": "trade"})
    v0, v1 = E.view(s, 0), E.view(s, 1)
    assert v0["trade"] == {"decided": [False, True, False], "mine": None}
    assert v1["trade"]["mine"] == "trade" and "trade" not in json.dumps(v0["traded"])


def test_trade_is_allowed_once_and_only_before_the_first_question() -> None:
    s = E.apply(fixed(3), 0, {"type": "keep"})
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 0, {"type": "trade"})
    assert e.value.code == "not_your_turn"
    s = new(3)
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 1, {"type": "trade"})
    assert e.value.code == "wrong_phase"


def test_trade_timeout_keeps_for_everyone_undecided() -> None:
    s = E.apply(fixed(3), 2, {"type": "trade"})
    s = E.apply(s, None, {"type": "timeout"})
    assert s["trade"] == ["keep", "keep", "trade"] and s["hand"] == [0, 1, 3] and s["phase"] == "ask"


# --- rounds and the Genius ---------------------------------------------------------------


def test_round_one_genius_is_first_genius_and_the_genius_moves_one_seat_each_round() -> None:
    s = new(4, first_genius=2)
    geniuses = []
    for _ in range(4):
        geniuses.append(s["genius"])
        s = play_round(s)
    assert geniuses == [2, 3, 0, 1]


def test_first_genius_defaults_to_seat_zero() -> None:
    assert new(5)["genius"] == 0 and E.view(new(5), None)["genius"] == 0


@pytest.mark.parametrize(("players", "rounds"), [(3, 9), (4, 8), (5, 10), (6, 12)])
def test_each_player_is_genius_twice_or_three_times_with_three_players(players: int, rounds: int) -> None:
    s = new(players, whoami=[B] * 60)
    geniuses = []
    # seat 1 answers every question right, so the game ends with a single leader
    while s["phase"] != "over":
        geniuses.append(s["genius"])
        s = play_round(s, correct={1} if s["genius"] != 1 else {2})
    assert len(geniuses) == rounds == s["rounds_total"]
    assert all(geniuses.count(p) == rounds // players for p in range(players))


# --- identities --------------------------------------------------------------------------


def test_whoami_cards_are_dealt_to_every_player_from_the_genius_left_the_geniuses_set_aside() -> None:
    s = new(4, whoami=[I, B, B, I, B, I, B, B] + [B] * 10, first_genius=1)
    # Genius 1: seats 2, 3, 0 get I, B, B; the Genius's card (I) is set aside, seen by no one
    assert s["identity"] == [B, None, I, B] and s["genius_card"] == I
    assert all(E.view(s, seat)["identity"] == s["identity"][seat] for seat in range(4))
    assert I not in str([E.view(s, seat)["identity"] for seat in (1, None)])
    s = play_round(s)
    # the set-aside card is turned over with the others at the scoring
    assert s["history"][-1]["identities"] == [B, None, I, B] and s["history"][-1]["genius_card"] == I
    # Genius 2: seats 3, 0, 1 get B, I, B; the Genius's card is B
    assert s["identity"] == [I, B, None, B] and s["genius_card"] == B


def test_default_whoami_deck_is_12_idiots_and_48_brainiacs() -> None:
    deck = default_whoami()
    assert len(deck) == 60 and deck.count(I) == 12 and deck.count(B) == 48
    shuffled = E.setup(6, {}, seed=5)["whoami"]
    assert sorted(shuffled) == sorted(deck) and shuffled != deck


def test_every_seat_sees_only_its_own_identity() -> None:
    s = new(4, whoami=[I, B, B] + [B] * 20)
    for seat in range(4):
        v = E.view(s, seat)
        assert v["identity"] == s["identity"][seat]
        assert v["revealed"] == [None] * 4
    assert E.view(s, None)["identity"] is None


def test_whoami_deck_is_reshuffled_after_the_round_in_which_the_last_idiot_is_revealed() -> None:
    # 2 IDIOTs in a 12-card deck: the first is the Genius's set-aside card of round 1, the
    # second is dealt in round 2 and revealed at its scoring
    deck = [B, B, B, I, B, I, B, B, B, B, B, B]
    s = new(4, whoami=deck)
    assert s["genius_card"] == I and s["whoami_idiots_dealt"] == 1
    s = play_round(s)  # round 1 scored; round 2 dealt: seats 2, 3, 0 get B, I, B; Genius 1 B
    assert s["identity"] == [B, None, B, I] and s["whoami_idiots_dealt"] == 2 and s["whoami_shuffles"] == 0
    s = play_round(s)
    # shuffle false: the deck comes back in the given order; round 3 is dealt from its front
    assert s["whoami_shuffles"] == 1 and s["whoami"] == deck[4:]
    assert s["identity"] == [B, B, None, B] and s["genius_card"] == I


def test_whoami_deck_is_reshuffled_when_too_few_cards_remain_for_a_deal() -> None:
    s = new(4, whoami=[B] * 6)  # a deal is 4 cards, one per player
    assert len(s["whoami"]) == 2
    s = play_round(s)
    assert s["whoami_shuffles"] == 1 and len(s["whoami"]) == 2


def test_idiots_seen_counts_revealed_idiot_cards_since_the_last_shuffle() -> None:
    s = new(4, whoami=[I, B, I, I, B, B, I, B] + [B] * 20)
    assert E.view(s, 0)["whoami"]["idiots_seen"] == 0  # the Genius's set-aside IDIOT is unseen
    s = play_round(s, correct={1})  # seat 1 is an IDIOT who answers right: revealed at once
    assert s["history"][-1]["identities"] == [None, I, B, I] and s["history"][-1]["genius_card"] == I
    # round 2: seat 0 holds the fourth IDIOT, still hidden
    assert s["identity"][0] == I and E.view(s, 1)["whoami"]["idiots_seen"] == 3


# --- asking ------------------------------------------------------------------------------


def test_the_genius_asks_an_unasked_question_of_their_card() -> None:
    s = new(3)
    s = play_round(s, index=2)
    s = play_round(s)
    s = play_round(s)
    assert s["genius"] == 0 and [q["asked"] for q in E.view(s, 0)["card"]] == [False, False, True, False]
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 0, {"type": "ask", "index": 2})
    assert e.value.code == "already_asked"
    with pytest.raises(IllegalAction):
        E.apply(s, 1, {"type": "ask", "index": 0})


def test_everyone_sees_the_question_and_only_the_genius_its_answers() -> None:
    s = E.apply(new(4), 0, {"type": "ask", "index": 1})
    for seat in [None, 1, 2, 3]:
        v = E.view(s, seat)
        assert v["question"] == {"index": 1, "level": 2, "q": "Card 0 question 1?"}
        assert "ans c0" not in json.dumps(v)
    g = E.view(s, 0)
    assert g["question"]["a"] == ["ans c0 q1"] and all("a" in q for q in g["card"])
    assert all("a" not in q for q in E.view(s, 1)["card"])


def test_ask_timeout_asks_the_first_unasked_question() -> None:
    s = E.apply(new(3), None, {"type": "timeout"})
    assert s["question"] == 0 and s["phase"] == "answer"


# --- answering ---------------------------------------------------------------------------


def test_answers_are_hidden_until_all_are_in() -> None:
    s = E.apply(new(4), 0, {"type": "ask", "index": 0})
    s = E.apply(s, 2, {"type": "answer", "text": "my secret guess"})
    assert E.to_act(s) == {1, 3}
    for seat in [None, 0, 1, 3]:
        v = E.view(s, seat)
        assert v["answers"] is None and v["answered"] == [False, False, True, False]
        assert "my secret guess" not in json.dumps(v)
    assert E.view(s, 2)["my_answer"] == "my secret guess"
    s = E.apply(s, 1, {"type": "answer", "text": "a"})
    s = E.apply(s, 3, {"type": "answer", "text": "b"})
    assert s["phase"] == "judge" and E.view(s, None)["answers"] == [None, "a", "my secret guess", "b"]


def test_an_answer_is_trimmed_limited_to_200_characters_and_final() -> None:
    s = E.apply(new(3), 0, {"type": "ask", "index": 0})
    t = E.apply(s, 1, {"type": "answer", "text": "  Paris \n  France "})
    assert t["answers"][1] == "Paris France"
    assert E.apply(s, 1, {"type": "answer", "text": "Pa\x00ris\u200b"})["answers"][1] == "Paris"
    E.apply(s, 1, {"type": "answer", "text": "x" * 200})
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 1, {"type": "answer", "text": "x" * 201})
    assert e.value.code == "answer_too_long"
    with pytest.raises(IllegalAction) as e:
        E.apply(t, 1, {"type": "answer", "text": "again"})
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        E.apply(s, 0, {"type": "answer", "text": "the Genius does not answer"})


def test_answer_timeout_counts_missing_answers_as_blank_and_wrong() -> None:
    s = E.apply(new(4), None, {"type": "timeout"})
    s = E.apply(s, 1, {"type": "answer", "text": right(s)})
    s = E.apply(s, None, {"type": "timeout"})
    assert s["phase"] == "judge" and s["answers"] == [None, "ans c0 q0", "", ""]
    assert s["engine_verdicts"] == [None, True, False, False]


# --- judging -----------------------------------------------------------------------------


def test_the_engine_judges_each_answer_and_only_the_genius_sees_its_verdicts_before_judging() -> None:
    s = E.apply(new(4), 0, {"type": "ask", "index": 0})
    for p, text in [(1, "ANS C0 Q0!"), (2, "ans c0 q1"), (3, "The ans c0 q0")]:
        s = E.apply(s, p, {"type": "answer", "text": text})
    assert s["engine_verdicts"] == [None, True, False, True]
    assert E.view(s, 0)["verdicts"]["engine"] == [None, True, False, True]
    assert E.view(s, 1)["verdicts"] is None and E.view(s, None)["verdicts"] is None


def test_the_genius_overrules_verdicts_and_overrides_are_public() -> None:
    s = new(4, whoami=[B] * 20)
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    for p, text in [(1, "ans c0 q0"), (2, "near enough"), (3, "wrong")]:
        s = E.apply(s, p, {"type": "answer", "text": text})
    s = E.apply(s, 0, {"type": "judge", "overrides": {"1": False, "2": True}})
    v = E.view(s, 3)
    assert v["verdicts"] == {
        "engine": [None, True, False, False],
        "overrides": [None, False, True, None],
        "final": [None, False, True, False],
    }
    assert s["scores"] == [0, 0, 2, 0]


def test_judge_timeout_confirms_the_engine_verdicts() -> None:
    s = E.apply(new(3), None, {"type": "timeout"})
    s = E.apply(s, 1, {"type": "answer", "text": right(s)})
    s = E.apply(s, 2, {"type": "answer", "text": "nope"})
    s = E.apply(s, None, {"type": "timeout"})
    assert s["verdicts"] == [None, True, False]


def test_overrides_must_name_seats_that_answered() -> None:
    s = E.apply(new(3), None, {"type": "timeout"})
    s = E.apply(s, None, {"type": "timeout"})
    for bad in [{"0": True}, {"7": True}, {"x": True}, {"1": "yes"}, {"\u00b2": True}, {"-1": True}, {"": True}, [1]]:
        with pytest.raises(IllegalAction):
            E.apply(s, 0, {"type": "judge", "overrides": bad})


# --- read-out ----------------------------------------------------------------------------


def test_a_correct_answer_scores_2_at_once_and_reveals_that_identity() -> None:
    s = new(4, whoami=[B, B, I] + [B] * 20)
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    s = E.apply(s, 1, {"type": "answer", "text": right(s)})
    s = E.apply(s, 2, {"type": "answer", "text": "x"})
    s = E.apply(s, 3, {"type": "answer", "text": "y"})
    s = E.apply(s, 0, {"type": "judge", "overrides": {}})
    assert s["phase"] == "accuse" and s["scores"] == [0, 2, 0, 0]
    assert E.view(s, 3)["revealed"] == [None, B, None, None]


def test_answers_are_read_out_from_the_genius_left() -> None:
    s = new(5, first_genius=3)
    assert E.view(s, 0)["readout_order"] == [4, 0, 1, 2]
    assert E.view(s, 0)["accuse_order"] == [3, 4, 0, 1, 2]


def test_an_idiot_who_answers_right_scores_nothing_this_round() -> None:
    # seat 1 is an IDIOT, answers right and accuses seat 2 (a Brainiac) wrongly: no -1 for
    # seat 1, but seat 2 still gains 1 from being wrongly accused
    s = with_scores(new(4, whoami=[I, B, B] + [B] * 20), [3, 3, 3, 3])
    s = play_round(s, correct={1}, accuse={1: 2})
    h = s["history"][-1]
    assert h["changes"] == [0, 0, 1, 0] and s["scores"] == [3, 3, 4, 3]
    assert [i["kind"] for i in h["items"][1]] == ["idiot_answered_right"]


def test_an_idiot_who_answers_right_gains_nothing_from_a_correct_accusation() -> None:
    s = new(4, whoami=[I, I, B] + [B] * 20)
    s = play_round(s, correct={1}, accuse={1: 2})
    assert s["history"][-1]["changes"][1] == 0 and s["scores"][1] == 0


# --- accusations -------------------------------------------------------------------------


def test_accusations_go_from_the_genius_round_the_table_and_are_public_as_made() -> None:
    s = new(4, whoami=[B] * 20, first_genius=2)
    s = E.apply(s, 2, {"type": "ask", "index": 0})
    for p in (3, 0, 1):
        s = E.apply(s, p, {"type": "answer", "text": "wrong"})
    s = E.apply(s, 2, {"type": "judge", "overrides": {}})
    order = []
    while s["phase"] == "accuse":
        who = s["accuse_order"][s["accuse_pos"]]
        order.append(who)
        target = E.view(s, who)["accuse_targets"][0]
        s = E.apply(s, who, {"type": "accuse", "target": target})
        if s["phase"] == "accuse":
            assert E.view(s, None)["accusations"][-1] == {"by": who, "target": target}
    assert order == [2, 3, 0, 1]


def test_only_a_wrong_answerer_other_than_yourself_can_be_accused() -> None:
    s = new(4, whoami=[B] * 20)
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    s = E.apply(s, 1, {"type": "answer", "text": right(s)})
    s = E.apply(s, 2, {"type": "answer", "text": "x"})
    s = E.apply(s, 3, {"type": "answer", "text": "y"})
    s = E.apply(s, 0, {"type": "judge", "overrides": {}})
    assert E.legal_actions(s, 0) == [
        {"type": "accuse", "target": None},
        {"type": "accuse", "target": 2},
        {"type": "accuse", "target": 3},
    ]
    for target, code in [(1, "bad_target"), (0, "bad_target"), (9, "bad_target"), ("2", "malformed")]:
        with pytest.raises(IllegalAction) as e:
            E.apply(s, 0, {"type": "accuse", "target": target})
        assert e.value.code == code


def test_accusers_with_nobody_to_accuse_are_skipped() -> None:
    # only seat 2 answered wrong: seat 2 can't accuse itself and passes automatically
    s = new(3, whoami=[B] * 20)
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    s = E.apply(s, 1, {"type": "answer", "text": right(s)})
    s = E.apply(s, 2, {"type": "answer", "text": "x"})
    s = E.apply(s, 0, {"type": "judge", "overrides": {}})
    s = E.apply(s, 0, {"type": "accuse", "target": None})
    s = E.apply(s, 1, {"type": "accuse", "target": None})
    assert s["phase"] == "results" and s["history"][-1]["accusations"][-1] == {"by": 2, "target": None, "auto": True}


def test_when_everyone_answers_right_there_are_no_accusations() -> None:
    s = play_round(new(4, whoami=[B] * 20), correct={1, 2, 3})
    assert s["round"] == 2 and s["history"][-1]["changes"] == [0, 2, 2, 2]


def test_accuse_timeout_makes_the_current_accuser_accuse_no_one() -> None:
    s = new(3, whoami=[B] * 20)
    s = E.apply(s, None, {"type": "timeout"})
    s = E.apply(s, None, {"type": "timeout"})
    s = E.apply(s, None, {"type": "timeout"})
    assert s["phase"] == "accuse" and E.to_act(s) == {0}
    s = E.apply(s, None, {"type": "timeout"})
    assert s["accusations"] == [{"by": 0, "target": None, "auto": False}] and E.to_act(s) == {1}


# --- scoring -----------------------------------------------------------------------------


def test_all_identities_are_revealed_at_scoring() -> None:
    s = play_round(new(4, whoami=[I, B, I] + [B] * 20))
    assert s["history"][-1]["identities"] == [None, I, B, I]


def test_an_idiot_nobody_accused_scores_3() -> None:
    s = play_round(new(4, whoami=[I, B, I] + [B] * 20), accuse={0: 3})
    # seat 1 (IDIOT, unaccused) +3; seat 3 (IDIOT, accused) 0; Genius +2
    assert s["history"][-1]["changes"] == [2, 3, 0, 0]
    assert s["history"][-1]["items"][1][0]["text"] == "+3 unaccused IDIOT"


def test_each_correct_accuser_scores_2() -> None:
    s = play_round(new(4, whoami=[I, B, B] + [B] * 20), accuse={0: 1, 2: 1, 3: 1})
    assert s["history"][-1]["changes"] == [2, 0, 2, 2]
    assert s["history"][-1]["items"][2][0]["text"] == "+2 correct accusation of seat 1"


def test_worked_example_three_wrong_accusers_each_lose_1_and_the_accused_gains_3() -> None:
    s = with_scores(new(4, whoami=[B] * 20), [5, 5, 5, 5])
    s = play_round(s, accuse={0: 3, 1: 3, 2: 3})
    h = s["history"][-1]
    assert h["changes"] == [-1, -1, -1, 3] and s["scores"] == [4, 4, 4, 8]
    assert [i["text"] for i in h["items"][3]] == ["+1 wrongly accused by seat 0"] + [
        f"+1 wrongly accused by seat {p}" for p in (1, 2)
    ]
    assert h["items"][0][0]["text"] == "-1 wrong accusation of seat 3"


def test_no_score_goes_below_zero() -> None:
    s = play_round(new(4, whoami=[B] * 20), accuse={0: 1, 1: 2})
    h = s["history"][-1]
    assert s["scores"] == [0, 0, 1, 0] and h["changes"] == [0, 0, 1, 0]
    assert h["items"][0][-1]["kind"] == "floor"


def test_a_rounds_changes_are_summed_then_applied() -> None:
    # seat 1 at 0 accuses seat 2 wrongly (-1) and is wrongly accused by seat 2 (+1): the sum
    # is 0, so it stays at 0 (applied one by one it would be floored to 0 and then reach 1)
    s = play_round(new(4, whoami=[B] * 20), accuse={1: 2, 2: 1})
    assert s["scores"][1] == 0 and s["scores"][2] == 0


def test_the_accepted_answers_become_public_once_the_round_is_over() -> None:
    s = play_round(new(3, whoami=[B] * 20))
    assert E.view(s, 2)["history"][0]["accepted"] == ["ans c0 q0"]


# --- the end -----------------------------------------------------------------------------


def test_after_the_last_round_the_most_points_wins() -> None:
    s = new(3, whoami=[B] * 60)
    while s["phase"] != "over":
        s = play_round(s, correct={2} if s["genius"] != 2 else {1})
    assert s["round"] == 9 and E.outcome(s) == {"winners": [2], "scores": [0, 6, 12]}
    v = E.view(s, None)
    assert v["over"] and v["result"] == E.outcome(s) and v["to_act"] == []


def test_a_tie_plays_on_one_question_at_a_time_until_one_player_alone_has_the_most() -> None:
    s = new(3, whoami=[B] * 60)
    while s["round"] < 9 or s["phase"] != "ask" or s["round"] == 9:
        s = play_round(s)  # nobody scores: a three-way tie at 0
        if s["round"] > 9:
            break
    assert s["round"] == 10 and s["genius"] == 0 and E.view(s, 0)["tiebreak"]
    s = play_round(s)
    assert s["round"] == 11 and s["genius"] == 1
    s = play_round(s, correct={0})
    assert s["phase"] == "over" and (E.outcome(s) or {})["winners"] == [0]


def test_a_tied_genius_whose_card_is_used_up_takes_a_new_one() -> None:
    s = new(3, whoami=[B] * 60)
    for _ in range(9):
        s = play_round(s)
    s = play_round(s)  # round 10: seat 0 asks its fourth question
    s = play_round(s)
    s = play_round(s)
    assert s["round"] == 13 and s["genius"] == 0 and s["hand"][0] == 3
    assert s["discard"] == [0] and [q["asked"] for q in E.view(s, 0)["card"]] == [False] * 4


def test_an_endless_tie_ends_shared_after_the_safety_limit() -> None:
    s = new(3, whoami=[B] * 60)
    while s["phase"] != "over":
        s = play_round(s)
    assert s["round"] == 9 + MAX_TIE_ROUNDS and (E.outcome(s) or {})["winners"] == [0, 1, 2]


def test_an_empty_trivia_deck_takes_back_discards_with_unasked_questions() -> None:
    s = E.setup(3, {"shuffle": False, "cards": make_cards(6), "whoami": [B] * 60}, seed=1)
    for seat in range(3):
        s = E.apply(s, seat, {"type": "trade"})
    # 6 cards: 0-2 dealt, 3-5 taken in trades, so the deck is empty and 0-2 are discards
    assert s["deck"] == [] and s["hand"] == [3, 4, 5] and s["discard"] == [0, 1, 2]
    for _ in range(12):
        s = play_round(s)
    # round 13: seat 0's card 3 is used up; cards 0-2 come back, card 3 stays out
    assert s["genius"] == 0 and s["hand"][0] == 0 and s["deck"] == [1, 2] and s["discard"] == [3]


def test_with_every_card_used_up_cards_come_back_with_all_questions_askable() -> None:
    s = new(3, whoami=[B] * 60)
    d = E.dump(s)
    d["deck"], d["discard"] = [], [3, 4, 5, 6, 7]
    d["asked"] = {str(c): [True] * 4 for c in range(8)}
    d["asked"]["0"] = [False, True, True, True]
    s = play_round(E.load(d))
    # round 2: seat 1's card 1 is used up and nothing unasked is left outside the hands
    assert s["hand"][1] == 3 and "3" not in s["asked"] and s["deck"] == [4, 5, 6, 7]
    assert s["discard"] == [1] and E.legal_actions(s, 1) == [{"type": "ask", "index": i} for i in range(4)]


# --- options and bad input ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cards": "x"}, "Option 'cards'"),
        ({"cards": [[{"q": "Q?", "a": "x"}]]}, "every card needs exactly 4"),
        ({"cards": make_cards(7)}, "needs at least 8"),
        ({"whoami": ["idiot", "genius"]}, "whoami"),
        ({"whoami": ["idiot"] * 3}, "at least 4 cards \\(one per player\\)"),
        ({"first_genius": 4}, "no seat 4"),
        ({"first_genius": "1"}, "seat number"),
        ({"shuffle": "yes"}, "true or false"),
        ({"colour": "red"}, "Unknown options"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalAction, match=message) as e:
        E.validate_options(4, options)
    assert e.value.code == "bad_option"


def test_options_are_checked_while_the_lobby_fills() -> None:
    assert E.validate_options(None, {"cards": make_cards(6)})["cards"][0][0] == {
        "q": "Card 0 question 0?",
        "a": ["ans c0 q0"],
    }
    with pytest.raises(IllegalAction, match="smallest table"):
        E.validate_options(None, {"cards": make_cards(5)})
    assert E.player_range({}) == (3, 6)
    with pytest.raises(IllegalAction):
        E.validate_options(7, {})


def test_an_uploaded_pack_is_the_cards_option_and_no_other_name_is_taken() -> None:
    assert len(E.validate_options(3, {"cards": make_cards(6)})["cards"]) == 6
    with pytest.raises(IllegalAction, match="pack"):
        E.validate_options(3, {"pack": make_cards(6)})
    with pytest.raises(IllegalAction):
        E.import_option("pack", b"[]", "pack.json")


def test_validated_options_validate_to_themselves() -> None:
    opts = E.validate_options(4, {"cards": make_cards(8), "whoami": ["idiot"] * 5, "first_genius": 2})
    assert E.validate_options(4, opts) == opts
    assert E.validate_options(None, {}) == {
        "cards": None,
        "whoami": None,
        "shuffle": True,
        "first_genius": 0,
        "language": "en",
    }


def test_a_given_whoami_deck_is_shuffled_unless_shuffle_is_false() -> None:
    deck = ["idiot"] * 6 + ["brainiac"] * 24
    s = E.setup(4, {"whoami": deck}, seed=9)
    assert sorted(s["whoami"]) == sorted(deck) and s["whoami"] != deck
    assert E.setup(4, {"whoami": deck, "shuffle": False}, seed=9)["whoami"] == deck


@pytest.mark.skipif(not HAVE_PACKS, reason="the question bank module is not there yet")
def test_the_built_in_bank_loads_and_plays() -> None:
    s = E.setup(6, {}, seed=11)
    assert s["cards"] is None and len(s["deck"]) == 180 - 6
    v = E.view(s, 0)
    assert len(v["card"]) == 4 and all(q["q"].strip() for q in v["card"])


@pytest.mark.skipif(not HAVE_PACKS, reason="the question bank module is not there yet")
def test_an_uploaded_pack_file_becomes_the_cards_option() -> None:
    data = json.dumps(make_cards(6)).encode()
    cards = E.import_option("cards", data, "pack.json")
    assert E.validate_options(3, {"cards": cards})["cards"] == make_cards(6)
    with pytest.raises(IllegalAction) as e:
        E.import_option("cards", b"[1", "pack.json")
    assert e.value.code == "bad_file"


def test_actions_out_of_turn_or_phase_are_refused() -> None:
    s = new(3)
    cases = [
        (1, {"type": "ask", "index": 0}, "not_your_turn"),
        (0, {"type": "answer", "text": "x"}, "wrong_phase"),
        (0, {"type": "ask", "index": 4}, "malformed"),
        (0, {"type": "ask", "index": True}, "malformed"),
        (0, {"type": "ask"}, "malformed"),
        (0, {"type": "ask", "index": 0, "extra": 1}, "malformed"),
        (0, {"type": "dance"}, "unknown_action"),
        (0, "ask", "malformed"),
        (5, {"type": "ask", "index": 0}, "not_your_turn"),
        (0, {"type": "timeout"}, "not_your_turn"),
    ]
    before = E.dump(s)
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as e:
            E.apply(s, seat, action)
        assert e.value.code == code, (seat, action)
    assert E.dump(s) == before


def test_nothing_is_possible_once_the_game_is_over() -> None:
    s = new(3, whoami=[B] * 60)
    while s["phase"] != "over":
        s = play_round(s, correct={1} if s["genius"] != 1 else {2})
    with pytest.raises(IllegalAction) as e:
        E.apply(s, None, {"type": "timeout"})
    assert e.value.code == "game_over"
    assert E.legal_actions(s, 0) == [] and E.to_act(s) == set()


def test_legal_actions_in_each_phase() -> None:
    s = E.setup(3, {"shuffle": False, "cards": make_cards(6)}, seed=1)
    assert E.legal_actions(s, 0) == [{"type": "trade"}, {"type": "keep"}]
    s = new(3)
    assert E.legal_actions(s, 0) == [{"type": "ask", "index": i} for i in range(4)]
    assert E.legal_actions(s, 1) == []
    s = E.apply(s, None, {"type": "timeout"})
    assert E.legal_actions(s, 1) is None
    s = E.apply(s, None, {"type": "timeout"})
    judges = E.legal_actions(s, 0)
    assert judges is not None and len(judges) == 4 and {"type": "judge", "overrides": {}} in judges
    for a in judges:
        E.apply(s, 0, a)


# --- the round's reveal (results) ----------------------------------------------------------


def round_played(s: dict[str, Any]) -> dict[str, Any]:
    """One round as ``play_round`` plays it, but stopped on its reveal (``results``)."""
    g = s["genius"]
    s = E.apply(s, None, {"type": "timeout"})
    for p in range(s["players"]):
        if p != g:
            s = E.apply(s, p, {"type": "answer", "text": right(s) if p == 1 else "wrong"})
    s = E.apply(s, g, {"type": "judge", "overrides": {}})
    while s["phase"] == "accuse":
        s = E.apply(s, s["accuse_order"][s["accuse_pos"]], {"type": "accuse", "target": None})
    return s


def test_a_round_that_is_not_the_last_ends_in_results_showing_its_full_reveal_to_everyone() -> None:
    s = round_played(new(4, whoami=[I, B, B] + [B] * 20))
    for seat in (0, 1, 2, 3, None):
        v = E.view(s, seat)
        assert v["phase"] == "results" and v["round"] == 1 and v["genius"] == 0
        assert v["results"] == v["history"][-1]
        assert v["results"]["identities"] == [None, I, B, B] and v["results"]["answers"][2] == "wrong"
        assert v["results"]["changes"] == [0, 0, 0, 0] and v["to_act"] == [0, 1, 2, 3]


def test_next_round_waits_until_every_seat_is_ready() -> None:
    s = round_played(new(3, whoami=[B] * 20))
    s = E.apply(s, 2, {"type": "ready"})
    s = E.apply(s, 0, {"type": "ready"})
    assert s["phase"] == "results" and E.to_act(s) == {1} and E.view(s, None)["ready"] == [0, 2]
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 2, {"type": "ready"})
    assert e.value.code == "not_your_turn"
    s = E.apply(s, 1, {"type": "ready"})
    assert s["phase"] == "ask" and s["round"] == 2 and s["genius"] == 1


def test_results_phase_timeout_starts_the_next_round() -> None:
    s = E.apply(round_played(new(3, whoami=[B] * 20)), 1, {"type": "ready"})
    s = E.apply(s, None, {"type": "timeout"})
    assert s["phase"] == "ask" and s["round"] == 2 and E.to_act(s) == {1}


def test_results_phase_does_not_show_the_next_secret() -> None:
    # round 2's WHOAMI cards (from seat 2 on: idiot, brainiac, brainiac) are not dealt yet
    s = round_played(new(4, whoami=[B, B, B, B, I, B, B] + [B] * 10))
    for seat in (0, 1, 2, 3, None):
        v = E.view(s, seat)
        assert v["identity"] is None and v["revealed"] is None and v["question"] is None
        assert all("a" not in q for q in v.get("card", []))  # not even the next Genius's answers
    s = E.apply(s, None, {"type": "timeout"})
    assert [E.view(s, p)["identity"] for p in range(4)] == [B, None, I, B]


def test_ready_is_only_possible_in_results_and_takes_no_fields() -> None:
    with pytest.raises(IllegalAction) as e:
        E.apply(new(3), 1, {"type": "ready"})
    assert e.value.code == "wrong_phase"
    s = round_played(new(3, whoami=[B] * 20))
    with pytest.raises(IllegalAction) as e:
        E.apply(s, 1, {"type": "ready", "now": True})
    assert e.value.code == "malformed"
    assert E.legal_actions(s, 1) == [{"type": "ready"}]


def test_the_last_round_goes_straight_to_game_over() -> None:
    s = new(3, whoami=[B] * 60)
    while s["round"] < s["rounds_total"]:
        s = play_round(s, correct={1} if s["genius"] != 1 else {2})
    s = round_played(s)
    assert s["phase"] == "over" and "results" not in E.view(s, None)
