"""Brainiac bots beside people: honest bots answer the question asked, IDIOTs answer wrong but
plausibly, so a wrong answer alone never gives an IDIOT away.

A person judges an answer *on topic* when it is right, or when it is the kind of answer the
question wants: a number for a number question, of the same size (a year for a year); for any
other question, the answer to a question of the bank that shares a content word with this one
(an inventor for "who ... inventing the telephone", a capital for "capital of Peru"), never a
number.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

import pytest

from geniusnight.engines import Rng
from geniusnight.engines.brainiac import bots
from geniusnight.engines.brainiac.cards import IDIOT, card_questions
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.engines.brainiac.judge import judge


def bank() -> list[tuple[str, str, list[str]]]:
    """(category, question, accepted answers) of every question in the built-in bank."""
    raw = json.loads(resources.files("geniusnight.engines.brainiac").joinpath("data/questions.json").read_text())
    return [(card["category"], q["q"], q["a"]) for card in raw["cards"] for q in card["questions"]]


BANK = bank()
CATEGORY = {q: category for category, q, _ in BANK}
STOP = {"the", "what", "which", "that", "with", "from", "this", "does", "have", "known", "name", "called"}


def stems(question: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", question.lower()) if w not in STOP}


def is_number(text: str) -> bool:
    return re.fullmatch(r"[\d.,/:% -]*\d[\d.,/:% -]*", text) is not None


def on_topic(answer: str, question: str, accepted: list[str]) -> bool:
    """Right; or a number of the same shape for a number; or, for any other question, the
    answer to another bank question of the same category or sharing a word with this one."""
    if judge(answer, accepted):
        return True
    if is_number(accepted[0]):
        return is_number(answer) and len(answer) == len(accepted[0])
    words = stems(question)
    return any(
        answer in answers and q != question and (CATEGORY.get(question) == category or words & stems(q))
        for category, q, answers in BANK
    )


@cache
def answers_in_games(bot: str, games: int) -> list[dict[str, Any]]:
    """Every answer the bots give in full games of 3-6 bot players with the built-in bank
    (played once per bot; the tests only read the list)."""
    seen: list[dict[str, Any]] = []
    for seed in range(games):
        players = 3 + seed % 4
        s = E.setup(players, {}, seed=seed)
        step = 0
        while E.outcome(s) is None:
            seat = min(E.to_act(s))
            action = E.bot_action(s, seat, bot, seed * 10_007 + step)
            assert action is not None
            if action["type"] == "answer":
                card = card_questions(s, s["hand"][s["genius"]])
                question, accepted = card[s["question"]]
                others = [a for i, (_, a) in enumerate(card) if i != s["question"]]
                seen.append(
                    {
                        "idiot": s["identity"][seat] == IDIOT,
                        "text": action["text"],
                        "question": question,
                        "accepted": accepted,
                        "card_answers": {x for a in others for x in a},
                    }
                )
            s = E.apply(s, seat, action)
            step += 1
    return seen


@pytest.mark.parametrize("bot", ["random", "trivia"])
def test_honest_bots_answer_the_question_asked_in_every_round(bot: str) -> None:
    honest = [a for a in answers_in_games(bot, 12) if not a["idiot"]]
    assert len(honest) > 150
    for a in honest:
        assert on_topic(a["text"], a["question"], a["accepted"]), a
    wrong = [a for a in honest if not judge(a["text"], a["accepted"])]
    assert len(wrong) > 30  # the honest misses were checked too


@pytest.mark.parametrize("bot", ["random", "trivia"])
def test_idiot_bots_answer_wrong_but_on_topic(bot: str) -> None:
    idiots = [a for a in answers_in_games(bot, 12) if a["idiot"]]
    assert len(idiots) > 20
    for a in idiots:
        assert not judge(a["text"], a["accepted"])
        assert on_topic(a["text"], a["question"], a["accepted"]), a


def test_a_missed_answer_is_never_just_another_answer_from_the_same_card() -> None:
    misses = [a for a in answers_in_games("trivia", 12) if not judge(a["text"], a["accepted"])]
    unrelated = [
        a for a in misses if a["text"] in a["card_answers"] and not on_topic(a["text"], a["question"], a["accepted"])
    ]
    assert misses and not unrelated


def test_the_telephone_question_gets_a_person_not_a_greeting() -> None:
    question = "Who is generally credited with inventing the telephone in 1876?"
    accepted = ["Alexander Graham Bell", "Graham Bell", "Bell"]
    guesses = {bots.wrong_answer({"cards": None}, question, accepted, Rng.from_seed(k)) for k in range(20)}
    assert "Ciao" not in guesses
    assert all(on_topic(g, question, accepted) and not judge(g, accepted) for g in guesses)


def test_a_wrong_number_is_a_nearby_number_as_round_as_the_answer() -> None:
    for accepted, allowed in ((["300000"], {"200000", "400000"}), (["1912"], {str(y) for y in range(1900, 1925)})):
        guesses = {bots.wrong_answer({"cards": None}, "How far?", accepted, Rng.from_seed(k)) for k in range(30)}
        assert guesses <= allowed - set(accepted) and len(guesses) > 1
