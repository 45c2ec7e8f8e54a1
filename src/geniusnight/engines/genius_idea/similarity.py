"""How related two words are, for the bots (never for the rules).

Built-in deck words are related by two tables shipped with the package:

- ``associations.txt``: curated themes for every deck word ("planet: space sky star round"),
  the links a person makes. Two words' *association* is the cosine of their theme sets, a
  word's own name counting as one of its themes (so "cheese" on the pizza line links pizza to
  cheese): 0 for words with nothing in common, 1 for the same themes.
- ``similarity.json``: cosine similarity of every pair from a sentence-embedding model
  (thousandths), written offline by ``scripts/genius_idea_similarity.py``. A raw cosine
  favours "hub" words that are close to everything ("turtle" scores higher against "planet"
  than "star" does), so only its deviation from the two words' mean cosine to the deck counts,
  at half weight: it ranks words inside a shared theme and links words the themes miss.

Any pair with a word outside the deck (custom decks) falls back to a plain string measure: the
Jaccard overlap of padded character trigrams, plus 0.05 per shared leading character (at most
0.2). It only finds spelling relatives ("sun"/"sunflower"), the best a model-free measure can do.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

EMBEDDING_WEIGHT = 0.5


def _data(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


@cache
def _table() -> tuple[dict[str, int], list[list[int]], int]:
    raw = json.loads(_data("similarity.json"))
    index = {w: i for i, w in enumerate(raw["words"])}
    return index, raw["matrix"], int(raw["scale"])


@cache
def builtin_words() -> tuple[str, ...]:
    """The built-in deck (243 words) in file order."""
    return tuple(w.strip() for w in _data("words.txt").splitlines() if w.strip())


@cache
def themes() -> dict[str, frozenset[str]]:
    """Each built-in word's curated themes, its own name included."""
    out: dict[str, frozenset[str]] = {}
    for line in _data("associations.txt").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(":")
        out[word.strip()] = frozenset(rest.split()) | {word.strip()}
    return out


def association(a: str, b: str) -> float:
    """Cosine of the two words' theme sets (both must be deck words), in [0, 1]."""
    ta, tb = themes()[a], themes()[b]
    return len(ta & tb) / math.sqrt(len(ta) * len(tb))


def _cosine(a: str, b: str) -> float:
    index, matrix, scale = _table()
    return matrix[index[a]][index[b]] / scale


@cache
def _mean_cosine() -> dict[str, float]:
    words = builtin_words()
    return {a: sum(_cosine(a, b) for b in words if b != a) / (len(words) - 1) for a in words}


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


def embedding(a: str, b: str) -> float:
    """The hub-corrected embedding cosine of two deck words: ``cos(a, b)`` minus the mean of
    their mean cosines to the deck (about 0 for unrelated words, 0.3 and more for close ones)."""
    if a == b:
        return 1.0
    mean = _mean_cosine()
    return _cosine(a, b) - (mean[a] + mean[b]) / 2


def similarity(a: str, b: str) -> float:
    """Relatedness of two words, the Riddler's model: association plus half the hub-corrected
    embedding cosine for deck words (about 0 for unrelated words, 1 and more for close ones),
    else the fallback."""
    known = themes()
    if a not in known or b not in known:
        return fallback_similarity(a, b)
    return association(a, b) + EMBEDDING_WEIGHT * embedding(a, b)


def embedding_similarity(a: str, b: str) -> float:
    """Relatedness by the embedding alone (the Solvers' model, which never reads the curated
    themes): :func:`embedding` for deck words, else the fallback."""
    known = themes()
    if a not in known or b not in known:
        return fallback_similarity(a, b)
    return embedding(a, b)
