"""How related two words are, for the bots (never for the rules).

Each built-in deck (one per content language, ``content/<language>/``, docs/i18n.md) comes
with two tables, read once per language:

- ``associations.txt``: curated themes for every deck word ("planet: space sky star round"),
  the links a person of that language makes. Two words' *association* is the cosine of their
  theme sets, a word's own name counting as one of its themes (so "cheese" on the pizza line
  links pizza to cheese): 0 for words with nothing in common, 1 for the same themes.
- ``similarity.json``: cosine similarity of every pair from a sentence-embedding model
  (thousandths), written offline by ``scripts/genius_idea_similarity.py`` (a German word is
  embedded through its English gloss, ``glosses.txt``: the model reads English only). A raw
  cosine favours "hub" words that are close to everything ("turtle" scores higher against
  "planet" than "star" does), so only its deviation from the two words' mean cosine to the
  deck counts, at half weight: it ranks words inside a shared theme and links words the
  themes miss.

Any pair with a word outside the room language's deck (custom decks, in any language) falls
back to a plain string measure: the Jaccard overlap of padded character trigrams, plus 0.05
per shared leading character (at most 0.2). It only finds spelling relatives
("sun"/"sunflower"), the best a model-free measure can do.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..base import DEFAULT_LANGUAGE

EMBEDDING_WEIGHT = 0.5


@dataclass(frozen=True)
class DeckTables:
    """One language's built-in deck and the tables the bots read it with."""

    words: tuple[str, ...]  # the deck, in file order
    themes: dict[str, frozenset[str]]  # each word's curated themes, its own name included
    index: dict[str, int]  # word -> row of ``matrix``
    matrix: list[list[int]]  # embedding cosines, in units of 1/scale
    scale: int
    mean_cosine: dict[str, float]  # each word's mean cosine to the rest of the deck


def _data(language: str, name: str) -> str:
    return (
        resources.files(__package__).joinpath("content").joinpath(language).joinpath(name).read_text(encoding="utf-8")
    )


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


@cache
def deck_tables(language: str = DEFAULT_LANGUAGE) -> DeckTables:
    """The language's deck and tables, read from ``content/<language>/`` once."""
    words = tuple(_lines(_data(language, "words.txt")))
    themes: dict[str, frozenset[str]] = {}
    for line in _lines(_data(language, "associations.txt")):
        word, _, rest = line.partition(":")
        themes[word.strip()] = frozenset(rest.split()) | {word.strip()}
    raw = json.loads(_data(language, "similarity.json"))
    index = {w: i for i, w in enumerate(raw["words"])}
    matrix, scale = raw["matrix"], int(raw["scale"])
    mean = {a: sum(matrix[index[a]][index[b]] / scale for b in words if b != a) / (len(words) - 1) for a in words}
    return DeckTables(words, themes, index, matrix, scale, mean)


def builtin_words(language: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """The language's built-in deck (243 words) in file order."""
    return deck_tables(language).words


def themes(language: str = DEFAULT_LANGUAGE) -> dict[str, frozenset[str]]:
    """Each built-in word's curated themes, its own name included."""
    return deck_tables(language).themes


def glosses(language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Each built-in word's English gloss (``content/<language>/glosses.txt``, "Apfel: apple"),
    what the embedding model read for it; an English word is its own gloss. Read by the
    offline script and the benchmarks, not by the bots."""
    words = builtin_words(language)
    if language == DEFAULT_LANGUAGE:
        return {w: w for w in words}
    pairs = (line.partition(":") for line in _lines(_data(language, "glosses.txt")))
    return {word.strip(): gloss.strip() for word, _, gloss in pairs}


def association(a: str, b: str, language: str = DEFAULT_LANGUAGE) -> float:
    """Cosine of the two words' theme sets (both must be deck words), in [0, 1]."""
    known = themes(language)
    ta, tb = known[a], known[b]
    return len(ta & tb) / math.sqrt(len(ta) * len(tb))


def _cosine(a: str, b: str, language: str = DEFAULT_LANGUAGE) -> float:
    t = deck_tables(language)
    return t.matrix[t.index[a]][t.index[b]] / t.scale


def _trigrams(word: str) -> frozenset[str]:
    padded = f"  {word.lower()} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def fallback_similarity(a: str, b: str) -> float:
    """Trigram Jaccard + shared-prefix bonus, in [0, 1]; 1 for the same word."""
    if a == b:
        return 1.0
    ta, tb = _trigrams(a), _trigrams(b)
    jac = len(ta & tb) / len(ta | tb) if ta | tb else 0.0
    prefix = 0
    for x, y in zip(a.lower(), b.lower(), strict=False):
        if x != y:
            break
        prefix += 1
    return min(1.0, 0.8 * jac + min(0.2, 0.05 * prefix))


def embedding(a: str, b: str, language: str = DEFAULT_LANGUAGE) -> float:
    """The hub-corrected embedding cosine of two deck words: ``cos(a, b)`` minus the mean of
    their mean cosines to the deck (about 0 for unrelated words, 0.3 and more for close ones)."""
    if a == b:
        return 1.0
    mean = deck_tables(language).mean_cosine
    return _cosine(a, b, language) - (mean[a] + mean[b]) / 2


def similarity(a: str, b: str, language: str = DEFAULT_LANGUAGE) -> float:
    """Relatedness of two words, the Riddler's model: association plus half the hub-corrected
    embedding cosine for deck words (about 0 for unrelated words, 1 and more for close ones),
    else the fallback."""
    known = themes(language)
    if a not in known or b not in known:
        return fallback_similarity(a, b)
    return association(a, b, language) + EMBEDDING_WEIGHT * embedding(a, b, language)


def embedding_similarity(a: str, b: str, language: str = DEFAULT_LANGUAGE) -> float:
    """Relatedness by the embedding alone (the Solvers' model, which never reads the curated
    themes): :func:`embedding` for deck words, else the fallback."""
    known = themes(language)
    if a not in known or b not in known:
        return fallback_similarity(a, b)
    return embedding(a, b, language)
