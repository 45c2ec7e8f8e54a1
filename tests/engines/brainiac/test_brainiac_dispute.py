"""Disputing a bot Genius's verdicts (docs/rules/brainiac.md, "Disputing a bot Genius"), one
test per rule, on fixed deals: seat 0 is the Genius of round 1."""

from __future__ import annotations

from typing import Any

import pytest
from brainiac_helpers import B, I, new, right

from geniusnight.engines.base import IllegalAction
from geniusnight.engines.brainiac.engine import ENGINE as E


def answered(players: int, texts: dict[int, str], bots: set[int], whoami: list[str] | None = None) -> dict[str, Any]:
    """Round 1 asked (question 0 of the Genius's card) and answered: ``texts`` by seat
    ("right" for an accepted answer), the seats in ``bots`` answering as bots."""
    s = new(players, whoami=whoami or [B] * 30)
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    for p, text in texts.items():
        action: dict[str, Any] = {"type": "answer", "text": right(s) if text == "right" else text}
        if p in bots:
            action["bot"] = True
        s = E.apply(s, p, action)
    return s


def bot_judges(s: dict[str, Any]) -> dict[str, Any]:
    return E.apply(s, s["genius"], {"type": "judge", "overrides": {}, "bot": True})


def refused(s: dict[str, Any], seat: int | None, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as e:
        E.apply(s, seat, action)
    return e.value.code


def test_after_a_bot_genius_the_people_who_answered_may_dispute_before_the_accusations() -> None:
    s = bot_judges(answered(4, {1: "eye of the hurricane centre", 2: "wrong", 3: "x"}, bots={3}))
    assert s["phase"] == "dispute" and E.to_act(s) == {1, 2}
    v = E.view(s, 2)
    assert v["dispute"] == {"voters": [1, 2], "disputes": [], "agreed": [], "overturned": None}
    assert v["dispute_targets"] == [1] and E.view(s, 1)["dispute_targets"] == [2]
    assert E.view(s, 3)["dispute_targets"] == [] and E.view(s, None)["dispute_targets"] == []
    assert v["verdicts"]["final"] == [None, False, False, False]  # the Genius's, still open
    assert v["scores"] == [0, 0, 0, 0] and v["revealed"] == [None] * 4  # nothing read out yet


def test_a_majority_of_the_other_people_overturns_a_verdict() -> None:
    # two people: the other one alone is a majority of the people other than the answerer
    s = bot_judges(answered(4, {1: "centre", 2: "wrong", 3: "x"}, bots={3}))
    s = E.apply(s, 2, {"type": "dispute", "target": 1})
    assert E.to_act(s) == {1}  # seat 2 has disputed all it can: done
    s = E.apply(s, 1, {"type": "agree"})
    assert s["phase"] == "accuse"
    v = E.view(s, None)
    assert v["dispute"]["overturned"] == [1] and v["verdicts"]["final"] == [None, True, False, False]
    assert v["scores"] == [0, 2, 0, 0] and v["revealed"][1] == B  # read out as right: +2, revealed
    assert v["accusations"] == [] and E.view(s, 0)["accuse_targets"] == [2, 3]


def test_one_of_two_other_people_is_not_a_majority_but_both_are() -> None:
    texts = {1: "centre", 2: "wrong", 3: "other", 4: "x"}
    one = bot_judges(answered(5, texts, bots={4}))
    assert one["dispute_voters"] == [1, 2, 3]
    one = E.apply(one, 2, {"type": "dispute", "target": 1})
    for p in (1, 2, 3):
        if p in E.to_act(one):
            one = E.apply(one, p, {"type": "agree"})
    assert one["overturned"] == [] and one["verdicts"][1] is False
    both = bot_judges(answered(5, texts, bots={4}))
    both = E.apply(both, 2, {"type": "dispute", "target": 1})
    both = E.apply(both, 3, {"type": "dispute", "target": 1})
    for p in (1, 2, 3):
        if p in E.to_act(both):
            both = E.apply(both, p, {"type": "agree"})
    assert both["overturned"] == [1] and both["verdicts"][1] is True


def test_a_right_verdict_can_be_overturned_to_wrong_too() -> None:
    s = bot_judges(answered(4, {1: "right", 2: "wrong", 3: "x"}, bots={3}))
    s = E.apply(s, 2, {"type": "dispute", "target": 1})
    s = E.apply(s, 1, {"type": "agree"})
    assert s["verdicts"][1] is False and s["scores"] == [0, 0, 0, 0]
    assert 1 in E.view(s, 0)["accuse_targets"]


def test_nobody_disputes_their_own_a_bots_or_the_same_verdict_twice() -> None:
    s = bot_judges(answered(5, {1: "a", 2: "b", 3: "c", 4: "d"}, bots={4}))
    assert refused(s, 1, {"type": "dispute", "target": 1}) == "bad_target"  # own answer
    assert refused(s, 1, {"type": "dispute", "target": 4}) == "bad_target"  # a bot's answer
    assert refused(s, 1, {"type": "dispute", "target": 0}) == "bad_target"  # the Genius
    assert refused(s, 4, {"type": "dispute", "target": 1}) == "not_your_turn"  # a bot seat
    assert refused(s, 0, {"type": "agree"}) == "not_your_turn"
    assert refused(s, 1, {"type": "dispute", "target": "2"}) == "malformed"
    assert refused(s, 1, {"type": "dispute"}) == "malformed"
    assert refused(s, 1, {"type": "agree", "now": True}) == "malformed"
    s = E.apply(s, 1, {"type": "dispute", "target": 2})
    assert refused(s, 1, {"type": "dispute", "target": 2}) == "bad_target"
    assert s["phase"] == "dispute" and E.view(s, 1)["dispute_targets"] == [3]


def test_no_dispute_after_a_person_genius_or_with_fewer_than_two_people() -> None:
    person = answered(4, {1: "a", 2: "b", 3: "c"}, bots={3})
    assert E.apply(person, 0, {"type": "judge", "overrides": {}})["phase"] == "accuse"
    alone = bot_judges(answered(4, {1: "a", 2: "b", 3: "c"}, bots={2, 3}))
    assert alone["phase"] == "accuse" and E.view(alone, None)["dispute"] is None


def test_the_dispute_timeout_keeps_the_verdicts_a_majority_disputed_so_far() -> None:
    s = bot_judges(answered(4, {1: "a", 2: "b", 3: "c"}, bots={3}))
    s = E.apply(s, 1, {"type": "dispute", "target": 2})
    s = E.apply(s, None, {"type": "timeout"})
    assert s["phase"] == "accuse" and s["overturned"] == [2] and s["verdicts"][1:] == [False, True, False]


def test_an_idiot_the_table_overturns_to_right_is_revealed_and_scores_nothing() -> None:
    s = bot_judges(answered(4, {1: "a", 2: "b", 3: "c"}, bots={3}, whoami=[I, B, B, B] + [B] * 20))
    s = E.apply(s, 2, {"type": "dispute", "target": 1})
    s = E.apply(s, 1, {"type": "agree"})
    assert s["revealed"][1] and s["scores"][1] == 0


def test_the_round_record_keeps_who_disputed_and_what_was_overturned() -> None:
    s = bot_judges(answered(4, {1: "a", 2: "b", 3: "c"}, bots={3}))
    s = E.apply(s, 2, {"type": "dispute", "target": 1})
    s = E.apply(s, 1, {"type": "agree"})
    while s["phase"] == "accuse":
        s = E.apply(s, s["accuse_order"][s["accuse_pos"]], {"type": "accuse", "target": None})
    last = s["history"][-1]
    assert last["disputes"] == [{"by": 2, "target": 1}] and last["overturned"] == [1]
    assert last["verdicts"][1] is True and last["engine_verdicts"][1] is False


def test_bots_mark_their_moves_and_never_dispute() -> None:
    s = new(4, whoami=[B] * 30)
    s = E.apply(s, 0, E.bot_action(s, 0, "trivia", 1))
    answer = E.bot_action(s, 1, "trivia", 2)
    assert answer is not None and answer["bot"] is True
    s = E.apply(s, 1, {"type": "answer", "text": "a"})
    s = E.apply(s, 2, {"type": "answer", "text": "b"})
    s = E.apply(s, 3, {"type": "answer", "text": "c", "bot": True})
    judge = E.bot_action(s, 0, "trivia", 3)
    assert judge == {"type": "judge", "overrides": {}, "bot": True}
    s = E.apply(s, 0, judge)
    # a bot standing in for an away person agrees at once
    assert s["phase"] == "dispute" and E.bot_action(s, 1, "trivia", 4) == {"type": "agree"}
    assert refused(s, 1, {"type": "answer", "text": "x", "bot": "yes"}) == "wrong_phase"
    assert {"type": "dispute", "target": 2} in (E.legal_actions(s, 1) or [])


def test_bot_must_be_true_or_false() -> None:
    s = new(4, whoami=[B] * 30)
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    assert refused(s, 1, {"type": "answer", "text": "x", "bot": "yes"}) == "malformed"
