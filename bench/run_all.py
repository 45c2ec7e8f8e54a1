"""`make bench`: every benchmark, one after the other, on this machine.

What each measures: docs/benchmarks.md; the figures, with their commands: docs/performance.md.
Benchmarks are not tests: they print what they measure and never fail on a number.

    .venv/bin/python bench/run_all.py            # everything
    .venv/bin/python bench/run_all.py --quick    # smaller runs, for a smoke check
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
MOMALAND = Path(os.environ.get("MOMALAND_PYTHON", "/tmp/momaland-venv/bin/python"))


def run(title: str, *cmd: str) -> None:
    print(f"\n=== {title}\n$ {' '.join(cmd)}", flush=True)
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode:
        print(f"({title} exited with {result.returncode})", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    quick = args.quick
    if not MOMALAND.exists():
        # MOMAland lives only in its own environment, never in the project's
        run("MOMAland 0.2.0 in its own venv", "bash", "bench/ingenious/setup_momaland.sh")
    run(
        "Ingenious: playouts vs MOMAland, move listing",
        PY,
        "bench/ingenious/bench.py",
        "--games",
        "40" if quick else "200",
    )
    run("Ingenious: bot strength (2 players)", PY, "bench/ingenious/match.py", "--games", "20" if quick else "100")
    run(
        "Ingenious: bot strength (4 players)",
        PY,
        "bench/ingenious/match.py",
        "--games",
        "10" if quick else "40",
        "--players",
        "4",
    )
    run("Views: view, view + JSON, deep-copied baseline, per game", PY, "bench/views.py")
    run("Moves: one move's apply, per game", PY, "bench/moves.py", "--games", "20" if quick else "60")
    starts = ["bench/starts.py", "--rooms", "50" if quick else "200"]
    run("Game starts: the server's CPU per start and per room read", PY, *starts)
    run("SQLite: sessions, the move writer, group commits (driver beside Core)", PY, "bench/sqlite_sessions.py")
    run(
        "Frames: every seat's encoded state frame per seq",
        PY,
        "bench/frames.py",
        "--repeat",
        "200" if quick else "2000",
    )
    run(
        "Patch frames: bytes per move per client in each form, our diff vs jsonpatch, the page applying them",
        PY,
        "bench/patches.py",
        "--games",
        "2" if quick else "5",
        *(["--browser"] if shutil.which("node") else []),
    )
    run(
        "Fan-out: every seat's patch frame per accepted move, beside the move's apply",
        PY,
        "bench/fanout.py",
        "--games",
        "5" if quick else "20",
    )
    run("Genius Idea: smart vs random Solvers", PY, "bench/genius_idea/match.py", "--games", "40" if quick else "200")
    # the load targets are stated for 200 rooms x 4 clients of each real game on SQLite, each
    # beside the bare server in the same run; the toy game is the transport's baseline only
    load = [PY, "-m", "geniusnight.cli", "bench", "load"]
    if quick:
        load += ["--rooms", "20", "--duration", "5", "--idle", "200"]
    run("Load: one process on SQLite, closed loop, the three games, each beside the bare server", *load)
    run("Load: one process on SQLite, 1,000 moves/s offered, the three games", *load, "--idle", "0", "--rate", "1000")
    run("Load: the toy game (the transport's baseline)", *load, "--game", "count21", "--idle", "0")
    run(
        "Load: the server's instructions per move under callgrind, the three games (for comparing builds)",
        PY,
        "bench/instructions.py",
        *(["--duration", "10"] if quick else []),
    )
    run(
        "Soak: bot games over time on one process, RSS sampled",
        PY,
        "bench/soak.py",
        "--games",
        "200" if quick else "2000",
    )
    pg = os.environ.get("GENIUSNIGHT_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    redis = os.environ.get("GENIUSNIGHT_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    for processes in ("1", "2"):
        for rate in ([], ["--rate", "1000"]):
            run(
                f"Load: {processes} process(es) on PostgreSQL + Redis, Ingenious"
                + (", 1,000 moves/s offered" if rate else ""),
                *load,
                "--game",
                "ingenious",
                "--idle",
                "0",
                *rate,
                "--database-url",
                pg,
                "--redis-url",
                redis,
                "--processes",
                processes,
                "--no-bare",
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
