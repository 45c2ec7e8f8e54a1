"""Patch frames over whole 4-player bot games, per engine.

    .venv/bin/python bench/patches.py [--games 5] [--browser]

For every accepted move and every seat (and a spectator): the ``patch`` frame's bytes, as RFC
6902 objects and in the compact form the pages take, beside the full ``state`` frame's, and
the time to compute the patch with our diff (``geniusnight.server.play.patches.diff``) beside
``jsonpatch.make_patch`` on the same two views. Both diffs' results are checked: applying
either gives the new view, and so does applying the compact frame's operations. With
``--browser``, the page's own ``static/js/patch.js`` applies seat 0's frames of every game
in each form under Node.js (``bench/apply_patches.mjs``), timed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import jsonpatch

from geniusnight.engines import get_engine
from geniusnight.server.play.games import LiveGame
from geniusnight.server.play.outbound import expand
from geniusnight.server.play.patches import COMPACT, JSON_PATCH, apply_patch, diff

GAMES = ("ingenious", "genius-idea", "brainiac")
PLAYERS = 4


def play_one(game: str, seed: int, frames: list[dict[str, Any]]) -> dict[str, list[float]]:
    """One game's figures; seat 0's first view and frames in each form go to ``frames``."""
    engine = get_engine(game)
    options = engine.validate_options(PLAYERS, {})
    live = LiveGame(1, "r", engine, options, seed, PLAYERS, [{}] * PLAYERS, {}, engine.setup(PLAYERS, options, seed))
    seats: list[int | None] = [*range(PLAYERS), None]
    live.observe(64, JSON_PATCH)
    live.observe(64, COMPACT)
    views = {seat: live.view(seat) for seat in seats}
    seat0: dict[str, Any] = {"game": game, "view": json.loads(live.state_text(0))["view"], JSON_PATCH: [], COMPACT: []}
    frames.append(seat0)
    out: dict[str, list[float]] = {"patch": [], "compact": [], "state": [], "ours_us": [], "jsonpatch_us": []}
    step = 0
    while not live.over and step < 5000:
        actors = sorted(engine.to_act(live.state))
        seat = actors[step % len(actors)] if actors else None
        action = engine.bot_action(live.state, seat, "random", seed + step) if seat is not None else None
        live.state = engine.apply(live.state, seat if action else None, action or {"type": "timeout"})
        live.seq += 1
        step += 1
        for s in seats:
            texts = live.patch_texts(s, live.seq - 1, 64, JSON_PATCH)
            compact = live.patch_texts(s, live.seq - 1, 64, COMPACT)
            assert texts is not None and len(texts) == 1 and compact is not None
            new = live.view(s)
            as_sent = json.loads(json.dumps(views[s])), json.loads(json.dumps(new))
            assert apply_patch(as_sent[0], expand(json.loads(compact[0]))["ops"]) == as_sent[1]
            if s == 0:
                seat0[JSON_PATCH] += texts
                seat0[COMPACT] += compact
            out["patch"].append(len(texts[0].encode()))
            out["compact"].append(len(compact[0].encode()))
            out["state"].append(len(live.state_text(s)))
            start = time.perf_counter()
            ours = diff(views[s], new)
            out["ours_us"].append((time.perf_counter() - start) * 1e6)
            # jsonpatch gets plain JSON copies, as a client holds them: on views that share
            # pieces (an Ingenious rack's tiles) the patches it makes are wrong
            plain_old, plain_new = json.loads(json.dumps(views[s])), json.loads(json.dumps(new))
            start = time.perf_counter()
            theirs = jsonpatch.make_patch(plain_old, plain_new)
            out["jsonpatch_us"].append((time.perf_counter() - start) * 1e6)
            assert apply_patch(views[s], ours) == new and theirs.apply(plain_old) == plain_new
            views[s] = new
    return out


def summary(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return f"{statistics.median(values):>8.0f} {p90:>8.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="games per engine")
    parser.add_argument("--browser", action="store_true", help="time the page's patch code on the frames (Node.js)")
    args = parser.parse_args()
    frames: list[dict[str, Any]] = []
    head = ["patch B p50", "p90", "compact p50", "p90", "state B p50", "p90"]
    head += ["ours µs p50", "p90", "jsonpatch µs p50", "p90"]
    print(f"{'game':<12} {'frames':>7} " + " ".join(f"{h:>8}" for h in head))
    for game in GAMES:
        totals: dict[str, list[Any]] = {"patch": [], "compact": [], "state": [], "ours_us": [], "jsonpatch_us": []}
        for seed in range(args.games):
            for key, values in play_one(game, 1000 + seed, frames).items():
                totals[key] += values
        cells = " ".join(summary(totals[k]) for k in ("patch", "compact", "state", "ours_us", "jsonpatch_us"))
        print(f"{game:<12} {len(totals['patch']):>7} {cells}", flush=True)
    if args.browser:
        with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
            json.dump(frames, file)
            file.flush()
            subprocess.run(["node", str(Path(__file__).with_name("apply_patches.mjs")), file.name], check=True)


if __name__ == "__main__":
    main()
