"""Brainiac bots beside people: honest bots answer the question asked, IDIOTs answer wrong but
plausibly, so a wrong answer alone never gives an IDIOT away.

A person judges an answer *on topic* when it is right, or when it is the kind of answer the
question wants: one of the question's own decoys (``"d"`` in the bank); a number for a number
question, of the same size (a year for a year); for "What does X stand for?" an expansion of
the same initials; for any other question, the answer to a question of the bank that shares a
content word with this one (an inventor for "who ... inventing the telephone", a capital for
"capital of Peru"), never a number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import pytest

from geniusnight.engines import Rng
from geniusnight.engines.brainiac import bots
from geniusnight.engines.brainiac.cards import IDIOT, State, card_questions, known_others, question_decoys
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.engines.brainiac.judge import judge


def bank() -> list[tuple[str, str, list[str]]]:
    """(category, question, accepted answers) of every question in the built-in bank."""
    return [(card["category"], q["q"], q["a"]) for card in raw_bank() for q in card["questions"]]


def raw_bank() -> list[dict[str, Any]]:
    raw = json.loads(resources.files("geniusnight.engines.brainiac").joinpath("content/en/questions.json").read_text())
    cards: list[dict[str, Any]] = raw["cards"]
    return cards


BANK = bank()
CATEGORY = {q: category for category, q, _ in BANK}
DECOYS = {q["q"]: q.get("d", []) for card in raw_bank() for q in card["questions"]}
STOP = {"the", "what", "which", "that", "with", "from", "this", "does", "have", "known", "name", "called"}


def stems(question: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{3,}", question.lower()) if w not in STOP}


def is_number(text: str) -> bool:
    return re.fullmatch(r"[\d.,/:% -]*\d[\d.,/:% -]*", text) is not None


def initials(text: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-z]+", text)).casefold()


def on_topic(answer: str, question: str, accepted: list[str]) -> bool:
    """Right; or a number of the same shape for a number; or, for any other question, the
    answer to another bank question of the same category or sharing a word with this one."""
    if judge(answer, accepted, question) or answer in DECOYS.get(question, ()):
        return True
    if "stand for" in question:
        return initials(answer) == initials(accepted[0])
    if is_number(accepted[0]):
        return is_number(answer) and len(answer) == len(accepted[0])
    words = stems(question)
    return any(
        answer in answers and q != question and (CATEGORY.get(question) == category or words & stems(q))
        for category, q, answers in BANK
    )


def bot_answers(bot: str, games: int, options: dict[str, Any]) -> Iterator[tuple[State, int, dict[str, Any]]]:
    """Every answer the bots give in full games of 3-6 bot players with ``options``: the
    state it is given in, the answering seat and the answer action."""
    for seed in range(games):
        s = E.setup(3 + seed % 4, options, seed=seed)
        step = 0
        while E.outcome(s) is None:
            seat = min(E.to_act(s))
            action = E.bot_action(s, seat, bot, seed * 10_007 + step)
            assert action is not None
            if action["type"] == "answer":
                yield s, seat, action
            s = E.apply(s, seat, action)
            step += 1


@cache
def answers_in_games(bot: str, games: int) -> list[dict[str, Any]]:
    """Every answer the bots give in full games with the built-in bank (played once per bot;
    the tests only read the list)."""
    seen: list[dict[str, Any]] = []
    for s, seat, action in bot_answers(bot, games, {}):
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


def test_the_bots_bluff_with_a_built_in_questions_own_decoys_never_a_right_one() -> None:
    """For every built-in question with decoys: the engine hands the bots those decoys, a
    wrong answer is one of them, and the judge (as the engine calls it, with the bank's other
    answers) rules none of the answers given right."""
    state: dict[str, Any] = {"cards": None}
    others = known_others(state)
    for c, card in enumerate(raw_bank()):
        for i, q in enumerate(card["questions"]):
            decoys = q.get("d", [])
            assert question_decoys(state, c, i) == decoys
            wrong = [d for d in decoys if not judge(d, q["a"], q["q"], others=others)]
            for k in range(4):
                guess = bots.wrong_answer(state, q["q"], q["a"], Rng.from_seed(k), decoys)
                assert not judge(guess, q["a"], q["q"], others=others), (q, guess)
                if wrong:
                    assert guess in wrong, (q, guess)


def decoy_pack() -> list[list[dict[str, Any]]]:
    """Twelve cards whose every question has three decoys, one of them a right answer in
    other words (which the bots must never give)."""
    return [
        [
            {
                "q": f"Card {c} question {j}: which river?",
                "a": [f"Nile{c}{j}"],
                "d": [f"Amazon{c}{j}", f"Danube{c}{j}", f"the river Nile{c}{j}"],
            }
            for j in range(4)
        ]
        for c in range(12)
    ]


@pytest.mark.parametrize("bot", ["random", "trivia"])
def test_with_a_custom_pack_of_decoys_every_wrong_answer_is_a_wrong_decoy(bot: str) -> None:
    cards = decoy_pack()
    decoys = {q["q"]: q["d"][:2] for card in cards for q in card}
    wrong = 0
    for s, seat, action in bot_answers(bot, 6, {"cards": cards}):
        question, accepted = card_questions(s, s["hand"][s["genius"]])[s["question"]]
        if s["identity"][seat] == IDIOT or not judge(action["text"], accepted, question):
            assert action["text"] in decoys[question]
            wrong += 1
    assert wrong > 20
