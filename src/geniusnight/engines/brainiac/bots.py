"""Bots for Brainiac or IDIOT!: ``random`` and ``trivia``.

A bot decides from its own seat's view, except that "knowing" an answer is simulated: when
it is meant to answer right it writes one of the accepted answers. A wrong answer (an IDIOT's,
or an honest bot's miss) is on topic, the guess a person would make: one of the question's own
decoys (``"d"`` in the pack) when it has any; else for a number question a nearby number as
round as the answer ("1908" for 1912, "200000" for 300000); for "What does X stand for?" the
right expansion with one word changed for another of the same initial; otherwise the answer of
the pack question most like the asked one: of the same kind (the noun after "which"/"what",
"type of" ..., or a person for "who"; in German "Welches Land", "Wie heißt der Berg", "Wer":
the words are the game's language's, ``bot_words.py``), then by shared content words
(weighted by how rare they are, triple for the first three) and, in the built-in bank, the
same category (a random one of the best three). It is checked so that the judge really rules
it wrong.

Both mark their answers and their verdicts as Genius ``"bot": true`` and never dispute a
verdict (they agree at once when they stand in for a person who is away).

- ``random``: trades half the time, asks any unasked question, answers right half the time
  as a Brainiac (never as an IDIOT, who must answer wrong), confirms the engine's verdicts
  and accuses a uniformly random wrong answerer or no one.
- ``trivia``: answers right with probability 0.95 / 0.80 / 0.60 / 0.45 by difficulty as a
  Brainiac (always wrong as an IDIOT; about 70 % right over a game), trades with probability
  0.1, asks a random unasked question and confirms the engine's verdicts as Genius, and
  accuses the wrong answerer most likely to be an IDIOT given the WHOAMI cards still unseen
  (Bayes with the chance that a Brainiac misses a question of that level), when a correct
  accusation is worth the risk.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from functools import cache, lru_cache
from typing import Any, NamedTuple

from ..base import Rng
from . import packs
from .bot_words import GuessWords, guess_words
from .cards import IDIOT, State, card_count, card_questions, known_others, language, question_decoys
from .judge import OTHER_WORDS, asks_for_person, judge, normalise
from .rules import accepted_answers
from .view import seat_view, shared_view

RIGHT_BY_LEVEL = (0.95, 0.80, 0.60, 0.45)  # about 70 % right over a game's questions
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
    lang = language(state)
    index = _index(state)
    entries, idf = index.entries, index.idf
    words, frame = _stems(question, lang), _frame(question, lang)
    kind = _related_kinds(_kind(question, lang), index, lang)
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
        if q == question or numeric or _stems(answer, lang) & words:
            continue
        overlap = sum(idf[w] for w in words & stems) + FRAME_WEIGHT * sum(idf[w] for w in frame & q_frame)
        bonus = (CATEGORY_BONUS if same else 0.0) + (KIND_BONUS if kind & q_kind else 0.0)
        scored.append((overlap + bonus, answer))
    scored.sort(key=lambda t: -t[0])
    ranked = [a for _, a in scored]
    # a random one of the best three, never from a lower tier (of another kind) than the best
    head = [a for score, a in scored[:3] if score > scored[0][0] - KIND_BONUS / 2]
    rng.shuffle(head)
    return _expansions(question, accepted[0], index, lang, rng) + head + ranked[len(head) :]


def _expansions(question: str, answer: str, index: Index, lang: str, rng: Rng) -> list[str]:
    """For "What does X stand for?" ("Wofür steht X?"): the right expansion with one word
    changed for a word of the same initial from another expansion of the pack ("Artificial
    Identity" for AI), or nothing."""
    words = answer.split()
    if not guess_words(lang).stands_for.search(question) or len(words) < 2:
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
_WORDS = re.compile(r"[^\W\d_]+")
_COMPOUND_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _words(text: str, lang: str) -> list[str]:
    """Content words of a question (no initials like the "C" of "C. S. Lewis"), cut to 5
    letters so "invented" meets "inventing"."""
    stop = guess_words(lang).stop
    return [w[:5] for w in normalise(text, lang).split() if w not in stop and (len(w) > 2 or w.isdigit())]


def _stems(text: str, lang: str) -> frozenset[str]:
    return frozenset(_words(text, lang))


def _frame(text: str, lang: str) -> frozenset[str]:
    """The first three content words, which name what kind of answer is wanted ("who wrote",
    "capital", "american painter", "german word")."""
    return frozenset(_words(text, lang)[:3])


def _kind(question: str, lang: str = "en") -> frozenset[str]:
    """The kind of answer ``question`` wants, as a word stem: ``{"person"}`` for a person, else
    the noun after "which"/"what" (the language's ask words, ``bot_words.py``), the last word
    of the phrase there ("which programming language" -> language; "what type of animal" ->
    animal; "what is the hardest natural substance" -> substance); in a language that writes
    nouns with a capital, the phrase's head noun ("Welche schwedische Band" -> band; "Wie
    heißt der höchste Berg Deutschlands" -> berg); or nothing.

    >>> sorted(_kind("In which country did cricket begin?")), sorted(_kind("Who painted it?"))
    (['count'], ['person'])
    >>> sorted(_kind("What is the name of the green Japanese paste, hot like horseradish?"))
    ['paste']
    >>> sorted(_kind("Aus welchem Land stammt die Pizza?", "de")), sorted(_kind("Wer malte sie?", "de"))
    (['land'], ['person'])
    >>> sorted(_kind("Wie heißt Michael Endes Roman über ein Mädchen?", "de"))
    ['roman']
    """
    if asks_for_person(question, lang):
        return frozenset({"person"})
    g = guess_words(lang)
    # a compound of a language that writes nouns with a capital is one word ("Cowboy-Puppe")
    letters = _COMPOUND_WORDS if g.capital_nouns else _WORDS
    for clause in re.split(r"[,;:?(]", question):
        tokens = letters.findall(clause)
        keys = [g.spelled(t) for t in tokens]
        at = next((i for i, k in enumerate(keys) if k in g.ask), None)
        if at is None:
            continue
        rest, rest_keys = tokens[at + 1 :], keys[at + 1 :]
        # "Welches Land", "Wie heißt der Berg": the noun's own determiner; "Wie heißt
        # Deutschlands längster Fluss" has none, and a name in the genitive may come first
        determined = keys[at] in g.determiners
        if rest_keys[1:2] and rest_keys[0] in g.kind_of and rest_keys[1] in g.kind_of_link:
            rest, rest_keys = rest[2:], rest_keys[2:]
        elif rest_keys[:1] and rest_keys[0] in g.link:
            # "what is the name of the galaxy ...", "what is the largest planet ...", "Wie heißt der ..."
            skipped = list(itertools.takewhile(g.skipped, rest_keys[1:]))
            determined = any(k in g.determiners for k in skipped)
            rest, rest_keys = rest[1 + len(skipped) :], rest_keys[1 + len(skipped) :]
        elif keys[at] in g.bare_ask:
            return frozenset()  # "Wie viele ...", "Was bedeutet ...": no noun names the kind
        head = _head_noun(rest, rest_keys, g, lang, determined) if g.capital_nouns else _last_of_phrase(rest_keys, g)
        return frozenset({head}) if head else frozenset()
    return frozenset()


def _last_of_phrase(keys: list[str], g: GuessWords) -> str | None:
    """The last word of the (at most three word) phrase before a verb or preposition, cut to
    5 letters: "programming language" -> "langu"."""
    phrase = list(itertools.takewhile(lambda k: k not in g.end and not k.endswith(g.verb), keys[:3]))
    return phrase[-1][:5] if phrase else None


def _head_noun(tokens: list[str], keys: list[str], g: GuessWords, lang: str, determined: bool) -> str | None:
    """The kind named by the head noun of the phrase that starts ``tokens``, in a language
    that writes nouns with a capital (:func:`_noun_kind`). The phrase runs over small words
    (adjectives, articles) to its nouns and ends at a verb or preposition or at a small word
    after a noun. The head is its first noun but a place adjective ("Liverpooler Band",
    "Schweizer Gericht"); a genitive after it is not the head ("Hauptstadt Österreichs",
    "Fluss Europas"). A phrase without a determiner may start with names in the genitive
    ("Michael Endes Roman", "Deutschlands längster Fluss"): the head follows them."""

    def genitive(i: int) -> bool:
        return not determined and tokens[i].endswith("s") and not tokens[i].endswith("ss")

    nouns: list[int] = []
    for i, (token, key) in enumerate(zip(tokens[:6], keys[:6], strict=False)):
        if token[:1].isupper():
            nouns.append(i)
        elif key in g.end or (nouns and not (nouns[-1] == i - 1 and genitive(i - 1))):
            break
    names = [n for n in nouns[:-1] if genitive(n)]
    candidates = [n for n in nouns if not names or n > names[-1]]
    for n, after in itertools.pairwise([*candidates, -1]):
        if tokens[n].endswith("er") and after >= 0 and not (after == candidates[-1] and genitive(after)):
            continue  # a place adjective before the noun
        return _noun_kind(keys[n].split("-")[-1], g, lang)  # "Cowboy-Puppe" -> "puppe"
    return None


def _noun_kind(noun: str, g: GuessWords, lang: str) -> str:
    """A head noun as a kind: ``"person"`` for a person ("Held", "Radrennfahrer",
    "Komponisten"), else its stem."""
    stem = _stem(noun)
    people = (*g.people, *OTHER_WORDS.get(lang, OTHER_WORDS["en"]).person)
    return "person" if noun.endswith(people) or stem.endswith(people) else stem


def _stem(word: str) -> str:
    """A German noun without its plural or case ending: "komponisten", "baumes", "tiere"
    ("ente" stays)."""
    for ending in ("en", "es", "e"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


def _related_kinds(kind: frozenset[str], index: Index, lang: str) -> frozenset[str]:
    """``kind`` and, in a language of compound nouns, the pack's kinds that one of them ends
    with or that end with one of them ("Hauptstadt" and "Stadt", "Säugetier" and "Tier")."""
    if not kind or not guess_words(lang).capital_nouns:
        return kind
    return kind | {k for k in index.kind_questions for mine in kind if k.endswith(mine) or mine.endswith(k)}


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
    ("capital", "telephone") says more than a common one ("who"). Built once per pack: the
    built-in bank's is kept, a custom pack's is looked up by its questions."""
    lang = language(state)
    if state["cards"] is None:
        return _builtin_index(lang)
    pack = tuple((q, tuple(a)) for card in range(card_count(state)) for q, a in card_questions(state, card))
    return _pack_index(pack, lang)


@cache
def _builtin_index(lang: str) -> Index:
    raw = json.loads(packs.bank_file(lang).read_text(encoding="utf-8"))
    return _build_index([(q["q"], q["a"], card["category"]) for card in raw["cards"] for q in card["questions"]], lang)


@lru_cache(maxsize=8)
def _pack_index(pack: tuple[tuple[str, tuple[str, ...]], ...], lang: str) -> Index:
    return _build_index([(q, list(a), None) for q, a in pack], lang)


def _build_index(questions: list[tuple[str, list[str], str | None]], lang: str) -> Index:
    entries = [
        (q, _stems(q, lang), _frame(q, lang), a[0], _NUMBER.fullmatch(a[0].strip()) is not None, c, _kind(q, lang))
        for q, a, c in questions
    ]
    df = Counter(w for _, stems, *_ in entries for w in stems)
    word_questions: dict[str, list[int]] = {}
    topic_questions: dict[str, list[int]] = {}
    kind_questions: dict[str, list[int]] = {}
    topics: dict[str, str | None] = {}
    answer_words: dict[str, list[str]] = {}
    stands_for = guess_words(lang).stands_for
    for i, (q, stems, _, answer, _, category, kind) in enumerate(entries):
        for w in stems:
            word_questions.setdefault(w, []).append(i)
        for k in kind:
            kind_questions.setdefault(k, []).append(i)
        if category is not None:
            topic_questions.setdefault(category, []).append(i)
        topics.setdefault(q, category)
        for word in re.findall(r"[^\W\d_]{4,}", answer) if stands_for.search(q) else ():
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
