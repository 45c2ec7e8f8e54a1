"""Random full-game playouts in MOMAland 0.2.0's Ingenious environment (run in its own venv).

Usage: /tmp/momaland-venv/bin/python bench/ingenious/momaland_playouts.py PLAYERS GAMES SEED
Prints one JSON line: {"games", "moves", "seconds", "moves_per_second"}. A move is one
env.step with a random action drawn from the action mask of env.last() (what an agent sees).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from momaland.envs.ingenious import moingenious_v0


def main() -> None:
    players, games, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(seed)
    env = moingenious_v0.env(num_agents=players)
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        while True:
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                break
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
            moves += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"games": games, "moves": moves, "seconds": seconds, "moves_per_second": moves / seconds}))


if __name__ == "__main__":
    main()
