"""Bots for Brainiac or IDIOT!: ``random`` and ``trivia``.

A bot decides from its own seat's view, except that "knowing" an answer is simulated: when
it is meant to answer right it writes one of the accepted answers. A wrong answer (an IDIOT's,
or an honest bot's miss) is on topic, the guess a person would make: one of the question's own
decoys (``"d"`` in the pack) when it has any; else for a number question a nearby number as
round as the answer ("1908" for 1912, "200000" for 300000); for "What does X stand for?" the
right expansion with one word changed for another of the same initial; otherwise the answer of
the pack question most like the asked one: of the same kind (the noun after "which"/"what",
"type of" ..., or a person for "who"), then by shared content words (weighted by how rare they
are, triple for the first three) and, in the built-in bank, the same category (a random one of
the best three). It is checked so that the judge really rules it wrong.

Both mark their answers and their verdicts as Genius ``"bot": true`` and never dispute a
verdict (they agree at once when they stand in for a person who is away).

- ``random``: trades half the time, asks any unasked question, answers right half the time
  as a Brainiac (never as an IDIOT, who must answer wrong), confirms the engine's verdicts
  and accuses a uniformly random wrong answerer or no one.
- ``trivia``: answers right with probability 0.85 / 0.65 / 0.45 / 0.25 by difficulty as a
  Brainiac (always wrong as an IDIOT), trades with probability 0.1, asks a random unasked
  question and confirms the engine's verdicts as Genius, and accuses the wrong answerer most
  likely to be an IDIOT given the WHOAMI cards still unseen (Bayes with the chance that a
  Brainiac misses a question of that level), when a correct accusation is worth the risk.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from functools import cache
from typing import Any, NamedTuple

from ..base import Rng
from . import packs
from .cards import IDIOT, State, card_count, card_questions, known_others, language, question_decoys
from .judge import asks_for_person, judge, normalise
from .rules import accepted_answers
from .view import seat_view, shared_view

RIGHT_BY_LEVEL = (0.85, 0.65, 0.45, 0.25)
FRAME_WEIGHT = 3.0  # a shared answer kind ("which painter") counts triple
CATEGORY_BONUS = 4.0  # built-in bank: a question of the same category, as much as a rare shared word
KIND_BONUS = 20.0  # a question asking for the same kind of answer (a country, a drink, a person) beats any words
# the last resort of a bot that finds no wrong answer, in the game's language
NO_IDEA = {"en": "I don't know", "de": "Weiß ich nicht"}


def choose(state: State, seat: int, bot: str, seed: int) -> dict[str, Any]:
    """The move of bot policy ``bot`` (unknown ids play as ``random``) for ``seat``."""
    rng = Rng.from_seed(f"brainiac-bot:{seed}:{seat}:{state['round']}:{state['phase']}")
    view = {**shared_view(state), **seat_view(state, seat)}  # the seat's view, as the engine gives it
    phase = view["phase"]
    smart = bot == "trivia"
    if phase == "results":
        return {"type": "ready"}  # a bot has seen the reveal at once
    if phase == "trade":
        return {"type": "trade" if rng.random() < (0.1 if smart else 0.5) else "keep"}
    if phase == "ask":
        unasked = [q["level"] - 1 for q in view["card"] if not q["asked"]]
        return {"type": "ask", "index": rng.choice(unasked)}
    # a bot's answer and verdicts say a bot made them, so people may dispute them
    if phase == "answer":
        level = view["question"]["level"]
        chance = RIGHT_BY_LEVEL[level - 1] if smart else 0.5
        right = view["identity"] != IDIOT and rng.random() < chance
        return {"type": "answer", "text": _answer(state, right, rng), "bot": True}
    if phase == "judge":
        return {"type": "judge", "overrides": {}, "bot": True}
    if phase == "dispute":
        return {"type": "agree"}  # bots never dispute (a person's seat while they are away)
    # accuse
    targets = view["accuse_targets"]
    if not smart:
        return {"type": "accuse", "target": rng.choice([None, *targets])}
    return {"type": "accuse", "target": _suspect(view, seat, targets, rng)}


def _answer(state: State, right: bool, rng: Rng) -> str:
    accepted = accepted_answers(state)
    if right:
        return rng.choice(accepted)
    card, index = state["hand"][state["genius"]], state["question"]
    question = card_questions(state, card)[index][0]
    return wrong_answer(state, question, accepted, rng, question_decoys(state, card, index))


def wrong_answer(state: State, question: str, accepted: list[str], rng: Rng, decoys: list[str] | None = None) -> str:
    """A wrong answer to ``question`` that a person might give, checked with the judge: one of
    its ``decoys`` (in random order) when the pack gives any, else :func:`_near_misses`."""
    others, lang = known_others(state), language(state)
    for guess in rng.shuffled(decoys or []):
        if not judge(guess, accepted, question, lang, others):
            return guess
    entries = _index(state).entries
    fallback = [rng.choice(entries)[3] for _ in range(8)]  # for a question like no other
    for guess in [*_near_misses(state, question, accepted, rng), *fallback]:
        if not judge(guess, accepted, question, lang, others):
            return guess
    return NO_IDEA.get(lang, NO_IDEA["en"])


def _near_misses(state: State, question: str, accepted: list[str], rng: Rng) -> list[str]:
    """Wrong answers a person might give, best first: for a number, nearby numbers of the same
    size; otherwise the answers of the pack's questions most like this one (a capital for a
    capital, an inventor for an inventor), a random one of the closest three first."""
    number = _NUMBER.fullmatch(accepted[0].strip())
    if number:  # "1912", "3.14", "1/4": change the last figure
        head, digits, tail = number.groups()
        return [f"{head}{n}{tail}" for n in _nearby(int(digits), rng)]
    index = _index(state)
    entries, idf = index.entries, index.idf
    words, frame, kind = _stems(question), _frame(question), _kind(question)
    topic = index.topics.get(question)
    # only the questions that share a word, the kind of answer or the category with this one
    # can score: look them up instead of walking the whole pack
    near = set(index.topic_questions.get(topic, ())) if topic is not None else set()
    for word in words:
        near.update(index.word_questions.get(word, ()))
    for k in kind:
        near.update(index.kind_questions.get(k, ()))
    scored = []
    for i in sorted(near):  # in the pack's order, as ties are ranked
        q, stems, q_frame, answer, numeric, category, q_kind = entries[i]
        same = topic is not None and category == topic
        # an answer made of the question's own words gives itself away ("Red blood cells"
        # for the protein in red blood cells)
        if q == question or numeric or _stems(answer) & words:
            continue
        overlap = sum(idf[w] for w in words & stems) + FRAME_WEIGHT * sum(idf[w] for w in frame & q_frame)
        bonus = (CATEGORY_BONUS if same else 0.0) + (KIND_BONUS if kind & q_kind else 0.0)
        scored.append((overlap + bonus, answer))
    scored.sort(key=lambda t: -t[0])
    ranked = [a for _, a in scored]
    # a random one of the best three, never from a lower tier (of another kind) than the best
    head = [a for score, a in scored[:3] if score > scored[0][0] - KIND_BONUS / 2]
    rng.shuffle(head)
    return _expansions(question, accepted[0], index, rng) + head + ranked[len(head) :]


_STANDS_FOR = re.compile(r"\bstands? for\b", re.IGNORECASE)


def _expansions(question: str, answer: str, index: Index, rng: Rng) -> list[str]:
    """For "What does X stand for?": the right expansion with one word changed for a word of
    the same initial from another expansion of the pack ("Artificial Identity" for AI), or
    nothing."""
    words = answer.split()
    if not _STANDS_FOR.search(question) or len(words) < 2:
        return []
    out = []
    for i in rng.shuffled(list(range(len(words)))):
        initial = words[i][:1].casefold()
        others = [w for w in index.answer_words.get(initial, ()) if w.casefold() != words[i].casefold()]
        if others:
            word = rng.choice(others)
            word = word.capitalize() if words[i][:1].isupper() else word.lower()
            out.append(" ".join([*words[:i], word, *words[i + 1 :]]))
    return out


def _nearby(n: int, rng: Rng) -> list[int]:
    """Numbers a guesser would say instead of ``n``, in random order: as round as ``n`` (300000
    suggests 200000, not 314903), with as many digits, within 12 years of a year or else within
    a tenth of ``n`` (at least one step)."""
    text = str(n)
    step = 10 ** (len(text) - len(text.rstrip("0"))) if n > 0 else 1
    spread = 12 if 1000 <= n <= 2100 else n // 10
    options = [n + k * step for k in range(-max(1, spread // step), max(1, spread // step) + 1) if k != 0]
    options = [m for m in options if m >= 0 and len(str(m)) == len(text)] or [n + 1]
    rng.shuffle(options)
    return options


_NUMBER = re.compile(r"([\d.,/:% -]*?)(\d+)([.,/:% -]*)")
_STOP = frozenset(
    {
        *("a", "an", "and", "are", "as", "at", "be", "by", "called", "can", "did", "do", "does", "for"),
        *("from", "has", "have", "in", "is", "it", "its", "known", "name", "of", "on", "or", "that"),
        *("the", "this", "to", "us", "was", "were", "what", "which", "with", "call", "you", "we", "your"),
    }
)


def _words(text: str) -> list[str]:
    """Content words of a question (no initials like the "C" of "C. S. Lewis"), cut to 5
    letters so "invented" meets "inventing"."""
    return [w[:5] for w in normalise(text).split() if w not in _STOP and (len(w) > 2 or w.isdigit())]


def _stems(text: str) -> frozenset[str]:
    return frozenset(_words(text))


def _frame(text: str) -> frozenset[str]:
    """The first three content words, which name what kind of answer is wanted ("who wrote",
    "capital", "american painter", "german word")."""
    return frozenset(_words(text)[:3])


# words that end the noun after "which"/"what" (a verb, an article, a preposition)
_KIND_STOP = frozenset(
    {
        *("is", "was", "are", "were", "do", "does", "did", "has", "have", "had", "can", "could", "would"),
        *("will", "the", "a", "an", "of", "in", "on", "to", "from", "for", "by", "with", "that", "at"),
        *("which", "who", "whose", "where", "when", "like", "as", "than", "and", "or"),
        *("built", "made", "wrote", "won", "became", "gave", "took", "lies", "flows", "carry", "carries"),
    }
)
_KIND_SKIP = frozenset({"the", "a", "an", "of", "for", "name", "term", "word", "called", "most", "main", "only"})


def _kind(question: str) -> frozenset[str]:
    """The kind of answer ``question`` wants, as a word stem: ``{"person"}`` for a person, else
    the head noun after "which"/"what", the last word of the phrase there ("which programming
    language" -> language; "what type of animal" -> animal; "what is the hardest natural
    substance" -> substance), or nothing.

    >>> sorted(_kind("In which country did cricket begin?")), sorted(_kind("Who painted it?"))
    (['count'], ['person'])
    >>> sorted(_kind("What is the name of the green Japanese paste, hot like horseradish?"))
    ['paste']
    """
    if asks_for_person(question):
        return frozenset({"person"})
    clause = re.split(r"[,;:?(]", question.casefold())
    w = re.findall(r"[a-z]+", next((c for c in clause if re.search(r"\b(which|what)\b", c)), ""))
    at = next((i for i, x in enumerate(w) if x in ("which", "what")), None)
    if at is None:
        return frozenset()
    rest = w[at + 1 :]
    if rest[1:2] == ["of"] and rest[0] in ("type", "kind", "sort", "breed", "species"):
        rest = rest[2:]
    elif rest[:1] and rest[0] in ("is", "was", "are", "were"):
        # "what is the name of the galaxy ...", "what is the largest planet ..."
        rest = list(itertools.dropwhile(lambda x: x in _KIND_SKIP or x.endswith("est"), rest[1:]))
    phrase = list(itertools.takewhile(lambda x: x not in _KIND_STOP and not x.endswith("ed"), rest[:3]))
    return frozenset({phrase[-1][:5]}) if phrase else frozenset()


Entry = tuple[str, frozenset[str], frozenset[str], str, bool, str | None, frozenset[str]]


class Index(NamedTuple):
    entries: list[Entry]  # (question, stems, frame, canonical answer, is it a number, category, kind)
    idf: dict[str, float]  # each stem's inverse document frequency
    word_questions: dict[str, list[int]]  # stem -> the entries that hold it, in order
    topic_questions: dict[str, list[int]]  # category -> its entries, in order
    topics: dict[str, str | None]  # question -> the category of its first entry
    kind_questions: dict[str, list[int]]  # kind stem -> the entries asking for that kind
    answer_words: dict[str, list[str]]  # initial -> the words of 4+ letters of the pack's expansions


def _index(state: State) -> Index:
    """(question, stems, frame, canonical answer, whether it is a number, category) for every
    question of the game's pack, and each stem's inverse document frequency: a rare shared word
    ("capital", "telephone") says more than a common one ("who"). The built-in bank's index is
    built once."""
    if state["cards"] is None:
        return _builtin_index(language(state))
    return _build_index([(q, a, None) for card in range(card_count(state)) for q, a in card_questions(state, card)])


@cache
def _builtin_index(lang: str) -> Index:
    raw = json.loads(packs.bank_file(lang).read_text(encoding="utf-8"))
    return _build_index([(q["q"], q["a"], card["category"]) for card in raw["cards"] for q in card["questions"]])


def _build_index(questions: list[tuple[str, list[str], str | None]]) -> Index:
    entries = [
        (q, _stems(q), _frame(q), a[0], _NUMBER.fullmatch(a[0].strip()) is not None, c, _kind(q))
        for q, a, c in questions
    ]
    df = Counter(w for _, stems, *_ in entries for w in stems)
    word_questions: dict[str, list[int]] = {}
    topic_questions: dict[str, list[int]] = {}
    kind_questions: dict[str, list[int]] = {}
    topics: dict[str, str | None] = {}
    answer_words: dict[str, list[str]] = {}
    for i, (q, stems, _, answer, _, category, kind) in enumerate(entries):
        for w in stems:
            word_questions.setdefault(w, []).append(i)
        for k in kind:
            kind_questions.setdefault(k, []).append(i)
        if category is not None:
            topic_questions.setdefault(category, []).append(i)
        topics.setdefault(q, category)
        for word in re.findall(r"[A-Za-z]{4,}", answer) if _STANDS_FOR.search(q) else ():
            same = answer_words.setdefault(word[0].casefold(), [])
            if word not in same:
                same.append(word)
    idf = {w: math.log(len(entries) / n) for w, n in df.items()}
    return Index(entries, idf, word_questions, topic_questions, topics, kind_questions, answer_words)


def _suspect(view: dict[str, Any], seat: int, targets: list[int], rng: Rng) -> int | None:
    """Accuse the likeliest IDIOT among the wrong answerers when 3p - 1 > 0 (a correct
    accusation is +2, a wrong one -1), with a little noise so bots are not predictable."""
    if not targets:
        return None
    w = view["whoami"]
    unseen_idiots = w["idiots_total"] - w["idiots_seen"]
    # the deck, the unrevealed answerers' cards and the Genius's card set aside
    unseen_cards = w["left"] + sum(1 for p, r in enumerate(view["revealed"]) if r is None and p != view["genius"]) + 1
    if view["identity"] == IDIOT:
        unseen_idiots -= 1  # its own card is seen by itself
    if view["identity"] is not None:
        unseen_cards -= 1
    prior = max(0.0, min(1.0, unseen_idiots / unseen_cards)) if unseen_cards > 0 else 0.0
    miss = 1.0 - RIGHT_BY_LEVEL[view["question"]["level"] - 1]
    p = prior / (prior + (1 - prior) * miss) if prior > 0 else 0.0
    pick = rng.choice(targets)
    if rng.random() < max(0.05, min(0.95, 3 * p - 0.5)):
        return pick
    return None
