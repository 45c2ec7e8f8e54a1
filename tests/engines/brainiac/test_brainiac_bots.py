"""The Brainiac bots: legal, deterministic, plausible, and good enough to fill a table."""

from __future__ import annotations

from typing import Any

import pytest
from brainiac_helpers import B, I, make_cards, new

from geniusnight.engines.brainiac.bots import RIGHT_BY_LEVEL
from geniusnight.engines.brainiac.cards import card_questions, known_others, question_decoys
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.engines.brainiac.judge import judge


def answering(whoami: list[str], index: int, seed: int = 1) -> dict[str, Any]:
    s = new(4, whoami=whoami + [B] * 20)
    return E.apply(s, 0, {"type": "ask", "index": index})


@pytest.mark.parametrize("bot", ["random", "trivia"])
def test_an_idiot_bot_always_answers_wrong_and_plausibly(bot: str) -> None:
    for seed in range(60):
        s = answering([I, I, I], seed % 4)
        a = E.bot_action(s, 1, bot, seed)
        assert a is not None and a["type"] == "answer"
        assert not judge(a["text"], E.accepted(s))
        assert a["text"].startswith("ans c")  # an answer from the deck, not gibberish


def test_the_trivia_bot_answers_right_more_often_on_easy_questions() -> None:
    rates = []
    for index in range(4):
        s = answering([B, B, B], index)
        texts = [(E.bot_action(s, 2, "trivia", seed) or {})["text"] for seed in range(400)]
        hits = sum(judge(t, E.accepted(s)) for t in texts)
        rates.append(hits / 400)
    assert rates[0] > rates[1] > rates[2] > rates[3]
    assert all(abs(rate - want) < 0.07 for rate, want in zip(rates, RIGHT_BY_LEVEL, strict=True)), rates


@pytest.mark.parametrize("lang", ["en", "de"])
def test_honest_trivia_bots_are_right_about_70_percent_over_full_games(lang: str) -> None:
    """The product's figure: honest bots right about 70 % of the time over the questions a
    game asks, every miss one of the question's decoys (docs/bots.md, "Brainiac bots")."""
    right = misses = 0
    for seed in range(1000, 1040):
        s, step = E.setup(3 + seed % 4, {"language": lang}, seed=seed), 0
        while E.outcome(s) is None:
            seat = min(E.to_act(s))
            a = E.bot_action(s, seat, "trivia", seed * 7919 + step)
            assert a is not None
            if a["type"] == "answer" and s["identity"][seat] != I:
                card, index = s["hand"][s["genius"]], s["question"]
                question, accepted = card_questions(s, card)[index]
                if judge(a["text"], accepted, question, lang, known_others(s)):
                    right += 1
                else:
                    assert a["text"] in question_decoys(s, card, index)
                    misses += 1
            s, step = E.apply(s, seat, a), step + 1
    assert right + misses > 1000
    assert 0.65 <= right / (right + misses) <= 0.75


def test_bots_are_deterministic_for_a_seed() -> None:
    s = answering([B, B, B], 1)
    assert [E.bot_action(s, 3, "trivia", k) for k in range(20)] == [E.bot_action(s, 3, "trivia", k) for k in range(20)]


def test_a_bot_that_is_not_to_act_waits() -> None:
    s = answering([B, B, B], 0)
    assert E.bot_action(s, 0, "trivia", 1) is None


def test_the_genius_bot_asks_an_unasked_question_and_confirms_the_verdicts() -> None:
    s = new(3, whoami=[B] * 20)
    for seed in range(10):
        a = E.bot_action(s, 0, "trivia", seed)
        assert a is not None and a["type"] == "ask" and 0 <= a["index"] < 4
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    s = E.apply(s, 1, {"type": "answer", "text": "x"})
    s = E.apply(s, 2, {"type": "answer", "text": "y"})
    assert E.bot_action(s, 0, "trivia", 3) == {"type": "judge", "overrides": {}, "bot": True}


def test_the_trivia_bot_trades_rarely() -> None:
    s = E.setup(4, {"cards": make_cards(8)}, seed=2)
    trades = sum(E.bot_action(s, 0, "trivia", k) == {"type": "trade"} for k in range(300))
    assert 10 <= trades <= 60


def test_bots_accuse_only_wrong_answerers_and_never_themselves() -> None:
    s = new(4, whoami=[B, B, B] + [B] * 20)
    s = E.apply(s, 0, {"type": "ask", "index": 3})
    for p in (1, 2, 3):
        s = E.apply(s, p, {"type": "answer", "text": "wrong"})
    s = E.apply(s, 0, {"type": "judge", "overrides": {}})
    s = E.apply(s, 0, {"type": "accuse", "target": None})
    targets = set()
    for bot in ("random", "trivia"):
        for k in range(100):
            a = E.bot_action(s, 1, bot, k)
            assert a is not None and a["type"] == "accuse" and a["target"] in (None, 2, 3)
            targets.add(a["target"])
    assert targets == {None, 2, 3}


@pytest.mark.parametrize("humans", [1, 2])
def test_bots_make_full_games_playable_with_one_or_two_humans(humans: int) -> None:
    # the humans never act: the system times their turns out, the bots play the rest
    for players in (3, 6):
        s = E.setup(players, {}, seed=players * 10 + humans)
        for step in range(2000):
            if E.outcome(s) is not None:
                break
            acting = sorted(E.to_act(s))
            bots = [p for p in acting if p >= humans]
            if bots:
                seat = bots[0]
                s = E.apply(s, seat, E.bot_action(s, seat, "trivia", step))
            else:
                s = E.apply(s, None, {"type": "timeout"})
        assert E.outcome(s) is not None
