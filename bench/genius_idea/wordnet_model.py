"""An independent word model for judging Genius Idea riddles: WordNet 3.0 (Debian package
``wordnet-base``, read from ``/usr/share/wordnet``), shared with no bot.

Each word becomes a bag of the words WordNet says about its first noun senses (earlier senses
weigh more): the synset's lemmas, its gloss, its hypernyms two levels up, its hyponyms, its
part/member/substance meronyms and holonyms, and their glosses. Two words are as related as the
IDF-weighted cosine of their bags, plus a bonus when one word is named in the other's bag
("honey: a sweet yellow liquid produced by bees" names "bee"). Only this benchmark reads it.

A German card is read through its English gloss (``content/de/glosses.txt``), which may give
several senses ("ice cream, ice"): each comma-separated sense is read as the longest WordNet
noun its first words make ("black pepper"; "letter" for "letter in the mail"; a bracketed
remark is ignored), the first sense weighing most, as a word's first WordNet sense does. A
one-word text, every English card, reads as before.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
SENSES = 3  # noun senses read per word
NAMED_BONUS = 0.35  # one word appears in the other's bag
STOP_WORDS = """a an the of or and to in on for with by as at from that which who is are be been it its this
these those any some other used use usually especially often something someone one two into out
up such has have having not no very more most than can made make kind form part type small
large etc e g i s various consisting being having also either when where"""
STOP = frozenset(STOP_WORDS.split())
POINTERS = {"@": 1.0, "@i": 1.0, "~": 0.7, "~i": 0.7, "%p": 0.8, "%m": 0.8, "%s": 0.8, "#p": 0.8, "#m": 0.8, "#s": 0.8}


def stem(word: str) -> str:
    """A crude plural stem, so 'bees' meets 'bee' and 'berries' meets 'berry'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    return [stem(t) for t in re.findall(r"[a-z]+", text.lower()) if t not in STOP and len(t) > 2]


@cache
def _index() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for line in (WORDNET / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split()
        lemma, p_cnt = parts[0], int(parts[3])
        offsets = parts[4 + p_cnt + 2 :]
        out[lemma] = [int(o) for o in offsets]
    return out


@cache
def _synsets() -> dict[int, tuple[list[str], list[tuple[str, int]], str]]:
    """offset -> (lemmas, pointers (symbol, noun offset), gloss)."""
    out: dict[int, tuple[list[str], list[tuple[str, int]], str]] = {}
    for line in (WORDNET / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        offset, w_cnt = int(parts[0]), int(parts[3], 16)
        lemmas = [parts[4 + 2 * i].lower() for i in range(w_cnt)]
        at = 4 + 2 * w_cnt
        p_cnt = int(parts[at])
        pointers = []
        for i in range(p_cnt):
            sym, off, pos = parts[at + 1 + 4 * i], int(parts[at + 2 + 4 * i]), parts[at + 3 + 4 * i]
            if pos == "n":
                pointers.append((sym, off))
        out[offset] = (lemmas, pointers, gloss)
    return out


def _synset_words(offset: int) -> Counter[str]:
    lemmas, _, gloss = _synsets()[offset]
    bag: Counter[str] = Counter()
    for lemma in lemmas:
        for t in tokens(lemma.replace("_", " ")):
            bag[t] += 1.0  # type: ignore[assignment]
    for t in tokens(gloss.split(";")[0] if '"' in gloss else gloss):
        bag[t] += 1.0  # type: ignore[assignment]
    return bag


@cache
def bag(word: str) -> dict[str, float]:
    """The weighted words WordNet gives ``word`` (empty if WordNet lacks it as a noun)."""
    out: Counter[str] = Counter()
    for rank, offset in enumerate(_index().get(word, [])[:SENSES]):
        weight = 1.0 / (1 + rank)
        _, pointers, _ = _synsets()[offset]
        for t, n in _synset_words(offset).items():
            out[t] += weight * n  # type: ignore[assignment]
        for sym, off in pointers:
            factor = POINTERS.get(sym)
            if factor is None:
                continue
            for t, n in _synset_words(off).items():
                out[t] += weight * factor * 0.5 * n  # type: ignore[assignment]
            if sym in ("@", "@i"):  # and the grandparent
                for sym2, off2 in _synsets()[off][1]:
                    if sym2 in ("@", "@i"):
                        for t, n in _synset_words(off2).items():
                            out[t] += weight * 0.25 * n  # type: ignore[assignment]
    return dict(out)


def senses(text: str) -> list[str]:
    """The WordNet nouns a text names, one per comma-separated sense: for "ice cream, ice",
    ``["ice_cream", "ice"]``; the longest run of a sense's first words that is a noun, its last
    word as written or in the singular ("boots": ``boot``)."""
    out = []
    for phrase in re.sub(r"\([^)]*\)", " ", text.lower()).split(","):
        words = re.findall(r"[a-z]+", phrase)
        for end in range(len(words), 0, -1):
            singular = "_".join([*words[: end - 1], stem(words[end - 1])])
            found = [m for m in ("_".join(words[:end]), singular) if m in _index()]
            if found:
                out.append(found[0])
                break
    return out


@cache
def text_bag(text: str) -> dict[str, float]:
    """:func:`bag` of every sense of ``text``, the i-th sense weighing 1 / i: for a one-word
    text, its :func:`bag`."""
    out: Counter[str] = Counter()
    for rank, lemma in enumerate(senses(text)):
        for t, v in bag(lemma).items():
            out[t] += v / (1 + rank)  # type: ignore[assignment]
    return dict(out)


class WordNetModel:
    """Relatedness of words of one vocabulary (the deck, or its English glosses), by WordNet
    alone."""

    def __init__(self, vocabulary: list[str]) -> None:
        df: Counter[str] = Counter()
        for w in vocabulary:
            df.update(set(text_bag(w)))
        n = len(vocabulary)
        self.idf = {t: math.log((n + 1) / (c + 0.5)) for t, c in df.items()}
        self.vectors = {w: {t: v * self.idf[t] for t, v in text_bag(w).items()} for w in vocabulary}
        # the nouns a text names, each as its stemmed words: the text itself for an English card
        self.names = {w: [[stem(t) for t in s.split("_")] for s in senses(w)] or [[stem(w)]] for w in vocabulary}
        self.norms = {w: math.sqrt(sum(x * x for x in v.values())) or 1.0 for w, v in self.vectors.items()}
        self._cache: dict[tuple[str, str], float] = {}

    def relatedness(self, a: str, b: str) -> float:
        key = (a, b) if a <= b else (b, a)
        got = self._cache.get(key)
        if got is not None:
            return got
        va, vb = self.vectors.get(a, {}), self.vectors.get(b, {})
        dot = sum(x * vb.get(t, 0.0) for t, x in va.items())
        value = dot / (self.norms.get(a, 1.0) * self.norms.get(b, 1.0))
        if self._named(a, va) or self._named(b, vb):
            value += NAMED_BONUS
        self._cache[key] = value
        return value

    def _named(self, word: str, vector: dict[str, float]) -> bool:
        """Is one of the nouns ``word`` names in ``vector`` (every word of it)?"""
        return any(name and all(t in vector for t in name) for name in self.names.get(word, [[stem(word)]]))
