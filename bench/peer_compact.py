"""The peer benchmark's load client, made to take Genius Night's compact form.

The peer benchmark (the same game, count21, on Genius Night, boardgame.io and Colyseus under one
load client) ships a worker whose Genius Night client asks for RFC 6902 patch frames. The
pages ask for the compact form instead, with each move's ack in its patch (docs/protocol.md,
"The compact form"). This copies the benchmark's ``harness`` folder to ``harness-compact``
beside it and changes its worker's Genius Night client alone: its hello asks for
``"patches": "compact", "ack_in_patch": true``, it reads the arrays as the objects they stand
for, and applies ``[sign, path, value]`` operations. The other systems' clients are left as
they are, so a round of ``harness-compact/bench.mjs --system gn`` beside ``harness/bench.mjs
--system colyseus-imm`` compares what a page's socket gets with Colyseus's.

    .venv/bin/python bench/peer_compact.py /tmp/peer-bench
    cd /tmp/peer-bench && PEER_ROOT=/tmp/peer-bench PYTHONPATH=$OLDPWD/src \\
        node harness-compact/bench.mjs --system gn --rooms 200 --clients 4 --warmup 5 --duration 15 --ramp 2

Each change is looked for as a whole line or statement of the shipped worker; one that is not
found stops the script (a newer worker needs this script brought up to date, not a guess).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

# (what the shipped worker says, what the compact client says instead)
CHANGES = [
    (
        "seq: null, patches: true }",
        "seq: null, patches: 'compact', ack_in_patch: true }",
    ),
    (
        "  for (const op of ops) {\n    const parts = op.path",
        "  for (let op of ops) {\n"
        "    if (Array.isArray(op)) op = { op: op[0] === '+' ? 'add' : op[0] === '-' ? 'remove' : 'replace', "
        "path: op[1], value: op[2] };\n"
        "    const parts = op.path",
    ),
    (
        "                const f = JSON.parse(data);\n                if (f.type === 'welcome')",
        "                let f = JSON.parse(data);\n"
        "                if (Array.isArray(f)) {\n"
        "                  if (f[0] === 'p') f = { type: 'patch', game_id: f[1], seq: f[2], base: f[3], ops: f[4] };\n"
        "                  else if (f[0] === 's') f = { type: 'state', game_id: f[1], seq: f[2], view: f[5] };\n"
        "                  else f = { type: 'other' };\n"
        "                }\n"
        "                if (f.type === 'welcome')",
    ),
]


def make_compact(peer_root: Path) -> Path:
    """``peer_root``'s ``harness`` copied to ``harness-compact``, its worker changed; returns
    the new folder."""
    source, target = peer_root / "harness", peer_root / "harness-compact"
    worker = (source / "worker.mjs").read_text()
    for old, new in CHANGES:
        if worker.count(old) != 1:
            raise SystemExit(f"the worker does not say this once; bring the script up to date:\n{old}")
        worker = worker.replace(old, new)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    (target / "worker.mjs").write_text(worker)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("peer_root", type=Path, help="the peer benchmark's set-up folder (its PEER_ROOT)")
    print(make_compact(parser.parse_args().peer_root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
