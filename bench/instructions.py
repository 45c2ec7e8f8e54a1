"""Instructions per accepted move in our server, counted by callgrind in the load benchmark.

The load benchmark's closed loop is the target's measure, but on this shared 2-core machine
its figures move by 10-15 % from run to run (the bare server's too), so a change worth 2 % of
a move cannot be seen in it, nor in a few alternating pairs. Instructions are steady: the
server runs under ``valgrind --tool=callgrind`` with counting off, the load benchmark's
clients play as usual (``--rooms`` rooms of four, real games, patch frames), and counting is
on for exactly its timed window. The figure is the instructions the server executed in the
window divided by the moves the clients saw acknowledged and delivered to all four in it.
Each run plays other games (the server deals from random seeds): two runs of one build have
agreed within about half a percent on Ingenious, but differed by 1.7 % on Brainiac, whose
phases vary in cost. Compare a change smaller than that over several runs of each build.

    .venv/bin/python bench/instructions.py                      # the three games, 20 rooms
    .venv/bin/python bench/instructions.py --game ingenious --repeat 2
    .venv/bin/python bench/instructions.py --server-src /tmp/base/src --patches json-patch  # another build

What it leaves out: the kernel's work (socket writes, fsync), and anything the server gains
or loses in wall time only (waiting, batching). Under callgrind the server runs about thirty
times slower, so its commits hold more moves than at full speed. Use it to compare two
builds' CPU path on the same workload; the moves per second to compare with the bare server
come from ``geniusnight bench load`` (docs/performance.md, "How figures are taken").
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

from geniusnight.bench import load

GAMES = ("ingenious", "genius-idea", "brainiac")


def callgrind_prefix(out: str) -> list[str]:
    """The command before the server's: callgrind, counting nothing until told (count_window)."""
    return ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]


def count_window(pid: int, edge: str) -> None:
    """callgrind counts the server's instructions from the window's ``start`` to its ``end``,
    and dumps them then (read by window_total)."""
    steps = [["--zero"], ["--instr=on"]] if edge == "start" else [["--instr=off"], ["--dump=window"]]
    for step in steps:
        subprocess.run(["callgrind_control", *step, str(pid)], check=True, capture_output=True)


def measure(
    game: str, rooms: int, duration: float, server_src: str | None = None, patches: str = "compact"
) -> dict[str, Any]:
    """One run: the server (from ``server_src`` if given, a checkout's ``src``) under callgrind,
    ``rooms`` rooms playing ``game`` for ``duration`` seconds of counted play, the clients
    taking ``patches`` frames (see ``geniusnight bench load --patches``)."""
    parser = argparse.ArgumentParser()
    load.add_arguments(parser)
    argv = ["--game", game, "--rooms", str(rooms), "--duration", str(duration), "--ramp", "2", "--idle", "0"]
    args = parser.parse_args([*argv, "--patches", patches])
    with tempfile.TemporaryDirectory(prefix="gn-instructions-") as tmp:
        db_url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        out = f"{tmp}/callgrind.out"
        (server,) = load.our_servers(args, db_url, callgrind_prefix(out))
        if server_src is not None:
            server.env["PYTHONPATH"] = server_src
        server.start(timeout=600)  # imports under valgrind take a minute
        assert server.proc is not None
        window = partial(count_window, server.proc.pid)
        load.WINDOW_HOOKS.append(window)
        try:
            args.deals_db, args.server_pids = db_url, []
            result = load.run_clients(args, [server.base], bare=False)
        finally:
            load.WINDOW_HOOKS.remove(window)
            server.stop()
        instructions = window_total(Path(tmp))
    moves = result["moves"]
    return {
        "game": game,
        "moves": moves,
        "games": result["games"],
        "errors": result["errors"],
        "instructions": instructions,
        "instructions_per_move": round(instructions / moves) if moves else None,
    }


def window_total(folder: Path) -> int:
    """The instructions of the dump made at the window's end."""
    for path in folder.glob("callgrind.out*"):
        text = path.read_text(errors="replace")
        head = text.split("\nevents:", 1)[0]
        if "Trigger: dump window" in head:
            found = re.search(r"^totals: *(\d+)", text, re.M)
            if found:
                return int(found.group(1))
    raise RuntimeError("no callgrind dump of the window")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="all", help="an engine id, or all (the three games)")
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of counted play")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each game (and their median)")
    parser.add_argument("--server-src", help="run the server from this src folder (another checkout's build)")
    parser.add_argument(
        "--patches",
        choices=list(load.HELLO_PATCHES),
        default="compact",
        help="the patch frames the clients ask for (json-patch for a build that knows no other form)",
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)")
        return 1
    games = GAMES if args.game == "all" else tuple(args.game.split(","))
    for game in games:
        runs = [measure(game, args.rooms, args.duration, args.server_src, args.patches) for _ in range(args.repeat)]
        per_move = [r["instructions_per_move"] for r in runs if r["instructions_per_move"]]
        for r in runs:
            print(json.dumps(r), flush=True)
        if per_move:
            print(f"{game}: {statistics.median(per_move):,.0f} instructions per move (median of {len(per_move)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
