"""How related two words are, for the bots (never for the rules).

The built-in deck has a precomputed table (``similarity.json``, written offline by
``scripts/genius_idea_similarity.py`` from a sentence-embedding model: cosine similarity in
thousandths). Any pair with a word outside that table (custom decks) falls back to a plain
string measure: the Jaccard overlap of padded character trigrams, plus 0.05 per shared
leading character (at most 0.2), scaled into roughly the model's range. It only finds
spelling relatives ("sun"/"sunflower"), which is the best a model-free measure can do.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def _table() -> tuple[dict[str, int], list[list[int]], int]:
    raw = json.loads(resources.files(__package__).joinpath("similarity.json").read_text(encoding="utf-8"))
    index = {w: i for i, w in enumerate(raw["words"])}
    return index, raw["matrix"], int(raw["scale"])


@cache
def builtin_words() -> tuple[str, ...]:
    """The built-in deck (243 words) in file order."""
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return tuple(w.strip() for w in text.splitlines() if w.strip())


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


def similarity(a: str, b: str) -> float:
    """Relatedness of two words: the model's cosine for built-in pairs, else the fallback."""
    index, matrix, scale = _table()
    i, j = index.get(a), index.get(b)
    if i is not None and j is not None:
        return matrix[i][j] / scale
    return fallback_similarity(a, b)
