"""The bot Riddler beside people: a person who reads its hints solves its riddles.

The simulated person waits for all 5 hints (revealed by the bot Disruptor, least helpful
first, and ordered by the bot Riddler), then picks the public card that shares the most with
them. Two readers are used, so the result does not hinge on the bot's own measure:

- the *theme reader* sums the curated associations (``associations.txt``) alone;
- the *embedding reader* sums the sentence-embedding cosines alone (``similarity.json``), each
  card's mean cosine to the deck subtracted once per hint so that "hub" words do not win.

Chance is 1 in 16 (15 cards from the supply plus the answer).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea.rules import HINTS
from geniusnight.engines.genius_idea.similarity import _cosine, association, builtin_words, themes

CHANCE = 1 / 16

Reader = Callable[[list[str], list[str], str], str]  # hints, live cards, language -> a card


def theme_reader(hints: list[str], cards: list[str], language: str) -> str:
    return max(cards, key=lambda c: (sum(association(h, c, language) for h in hints), c))


@cache
def mean_cosine(word: str, language: str) -> float:
    deck = builtin_words(language)
    return sum(_cosine(word, w, language) for w in deck if w != word) / (len(deck) - 1)


def embedding_reader(hints: list[str], cards: list[str], language: str) -> str:
    return max(cards, key=lambda c: (sum(_cosine(h, c, language) - mean_cosine(c, language) for h in hints), c))


def read_riddles(players: int, seed: int, riddler_bot: str, reader: Reader, language: str = "en") -> list[bool]:
    """Play a game: the Riddler and Disruptor are bots, every Solver is the reader, who passes
    until all hints are out and then guesses. One entry per riddle: did the reader solve it?"""
    state = E.setup(players, {"language": language}, seed)
    solved: list[bool] = []
    step = 0
    while E.outcome(state) is None:
        seat = min(E.to_act(state))
        cur = state["cur"]
        action: dict[str, Any] | None
        if state["phase"] == "guess":
            if len(cur["revealed"]) < HINTS:
                action = {"type": "pass"}
            else:
                live = [c for c in cur["public"] if c not in cur["wrong"]]
                pick = reader(list(cur["revealed"]), live, language)
                if not cur["wrong"]:
                    solved.append(pick == cur["answer"])
                action = {"type": "guess", "card": pick}
        else:
            bot = riddler_bot if state["phase"] == "prepare" else "normal"
            action = E.bot_action(state, seat, bot, seed * 7919 + step)
        assert action is not None
        state = E.apply(state, seat, action)
        step += 1
    return solved


def solve_rate(riddler_bot: str, reader: Reader, language: str = "en") -> float:
    riddles = [
        hit
        for players in (3, 4, 5)
        for seed in range(10)
        for hit in read_riddles(players, seed, riddler_bot, reader, language)
    ]
    return sum(riddles) / len(riddles)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("reader", [theme_reader, embedding_reader], ids=["theme reader", "embedding reader"])
def test_a_person_reading_the_bot_riddlers_hints_solves_far_more_often_than_chance(
    reader: Reader, language: str
) -> None:
    normal = solve_rate("normal", reader, language)
    assert normal > 4 * CHANCE
    assert normal > solve_rate("random", reader, language) + 0.15


def test_every_deck_word_has_themes_shared_with_several_other_deck_words() -> None:
    deck = builtin_words()
    assert set(themes()) == set(deck)
    for word in deck:
        related = [w for w in deck if w != word and association(word, w) > 0]
        assert len(related) >= 4, word
