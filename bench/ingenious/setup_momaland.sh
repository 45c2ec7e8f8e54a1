#!/usr/bin/env bash
# Make a separate venv holding MOMAland 0.2.0 for the comparison benchmark (never the project venv).
set -euo pipefail
VENV="${MOMALAND_VENV:-/tmp/momaland-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet "momaland==0.2.0"
"$VENV/bin/python" -c "import momaland; print('momaland', momaland.__version__ if hasattr(momaland, '__version__') else 'installed')"
