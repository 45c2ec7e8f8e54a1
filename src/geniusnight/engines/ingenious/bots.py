"""Bot policies: ``random``, ``greedy`` and ``search``.

- ``random``: a random legal placement (random free cell pair, rack tile and orientation);
  accepts a swap offer half the time.
- ``greedy``: the placement that most improves a concave value of its own track (so low
  colours count most), valuing a bonus placement; accepts a swap unless its remaining tiles
  still hold a bonus. Deterministic (also the system's timeout move).
- ``search``: determinizes the hidden tiles (other racks and bag reshuffled from the seat's
  point of view, with the bot's own seed), then for the best greedy candidates plays out the
  rest of its own turn and the next player's turn greedily, and keeps the candidate with the
  best value difference against the strongest opponent. Bounded: at most ``CANDIDATES``
  candidates times ``SAMPLES`` samples.
"""

from __future__ import annotations

from typing import Any

from ..base import Rng
from .geometry import COLOURS
from .rules import State, add_points, legal_pairs, placements, swap
from .rules import place as do_place

CANDIDATES = 8
SAMPLES = 2


def track_value(track: tuple[int, ...], cap: int) -> float:
    """Concave in each colour: raising a low colour is worth more than a high one."""
    return -float(sum((cap - v) * (cap - v) for v in track))


def bonus_value(track: tuple[int, ...], cap: int) -> float:
    """Roughly what one more placement is worth: a few points in a lowish colour."""
    return 6.0 * (cap - min(track)) + 10.0


Placement = tuple[int, int, int, int, int, int, int]


def scored_placements(state: State, seat: int) -> list[tuple[float, Placement]]:
    """Every legal placement with the greedy value of the track it leaves."""
    rules = state.rules
    cap, thresholds = rules.cap, rules.thresholds
    track = state.tracks[state.track_index(seat)]
    out = []
    cache: dict[tuple[int, int, int, int], float] = {}
    for p in placements(state, seat):
        c1, c2, g1, g2 = p[3], p[4], p[5], p[6]
        key = (c1, g1, c2, g2)
        value = cache.get(key)
        if value is None:
            new, bonuses = add_points(track, c1, g1, c2, g2, cap, thresholds)
            value = track_value(new, cap) + bonuses * bonus_value(new, cap)
            cache[key] = value
        out.append((value, p))
    return out


def greedy_placement(state: State, seat: int) -> Placement | None:
    best: Placement | None = None
    best_value = 0.0
    for value, p in scored_placements(state, seat):
        if best is None or value > best_value:
            best, best_value = p, value
    return best


def greedy_swap(state: State, seat: int) -> bool:
    """Accept unless a remaining tile can still earn a bonus right now."""
    track = state.tracks[state.track_index(seat)]
    rules = state.rules
    for p in placements(state, seat):
        _, bonuses = add_points(track, p[3], p[5], p[4], p[6], rules.cap, rules.thresholds)
        if bonuses:
            return False
    return True


def place_action(state: State, p: Placement) -> dict[str, Any]:
    cells = state.geometry.cells
    return {"type": "place", "colors": [COLOURS[p[3]], COLOURS[p[4]]], "cells": [list(cells[p[1]]), list(cells[p[2]])]}


def random_pair(state: State, seat: int, rng: Rng) -> tuple[int, int]:
    """A random legal cell pair: rejection sampling on the board, so no full enumeration."""
    pairs = state.geometry.pairs
    total = len(pairs)
    if state.started[seat] and state.free * 16 >= total:
        board = state.board
        while True:  # at least 1 in 16 pairs is free; four 16-bit draws per PRNG call
            bits = rng.next64()
            for _ in range(4):
                x, y = pairs[(bits & 0xFFFF) % total]  # bias below 1%: fine for a random bot
                if not board[x] and not board[y]:
                    return (x, y) if bits & 0x10000 else (y, x)
                bits >>= 16
    return rng.choice(legal_pairs(state, seat))


def random_action(state: State, seat: int, rng: Rng) -> dict[str, Any]:
    if state.phase == "swap":
        return {"type": "swap", "accept": rng.randbelow(2) == 1}
    x, y = random_pair(state, seat, rng)
    t = rng.choice(state.racks[seat])
    a, b = divmod(t, 6)
    if rng.randbelow(2):
        a, b = b, a
    cells = state.geometry.cells
    return {"type": "place", "colors": [COLOURS[a], COLOURS[b]], "cells": [list(cells[x]), list(cells[y])]}


def greedy_action(state: State, seat: int) -> dict[str, Any]:
    if state.phase == "swap":
        return {"type": "swap", "accept": greedy_swap(state, seat)}
    p = greedy_placement(state, seat)
    assert p is not None  # the place phase always has a legal placement
    return place_action(state, p)


# --- search -------------------------------------------------------------------------------


def determinize(state: State, seat: int, rng: Rng) -> State:
    """The state with every tile ``seat`` can't see (other racks, bag) dealt afresh."""
    hidden = list(state.bag)
    for s, rack in enumerate(state.racks):
        if s != seat:
            hidden.extend(rack)
    hidden.sort()  # forget where each tile was, then deal from the bot's own shuffle
    rng.shuffle(hidden)
    racks = []
    for s, rack in enumerate(state.racks):
        if s == seat:
            racks.append(rack)
        else:
            racks.append(tuple(hidden[: len(rack)]))
            hidden = hidden[len(rack) :]
    new = state.copy()
    new.racks = tuple(racks)
    new.bag = tuple(hidden)
    new.shuffle = True
    new.rng = rng.next64()
    return new


def _play_turn_greedily(state: State, seat: int) -> State:
    """Finish ``seat``'s turn with greedy placements and swap answer."""
    while state.phase != "over" and state.turn == seat:
        if state.phase == "swap":
            state = swap(state, seat, greedy_swap(state, seat))
            break
        p = greedy_placement(state, seat)
        if p is None:
            break
        state = do_place(state, seat, p[0], p[1], p[2], p[3], p[4])
    return state


def evaluate(state: State, seat: int) -> float:
    """Own track value against the best opponent track (solo: just its own)."""
    cap = state.rules.cap
    mine = state.track_index(seat)
    if state.phase == "over" and state.winners is not None:
        if seat in state.winners:
            return 1e9 if len(state.winners) == 1 else 1e8
        return -1e9
    own = track_value(state.tracks[mine], cap)
    others = [track_value(t, cap) for i, t in enumerate(state.tracks) if i != mine]
    return own - (max(others) if others else 0.0)


def search_placement(state: State, seat: int, seed: int) -> Placement | None:
    scored = scored_placements(state, seat)
    if not scored:
        return None
    # keep the first best entries in a stable order so equal values stay deterministic
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    candidates = [scored[i][1] for i in order[:CANDIDATES]]
    if len(candidates) == 1:
        return candidates[0]
    rng = Rng.from_seed(seed)
    samples = [determinize(state, seat, rng) for _ in range(SAMPLES)]
    best, best_value = candidates[0], float("-inf")
    for p in candidates:
        total = 0.0
        for sample in samples:
            s1 = do_place(sample, seat, p[0], p[1], p[2], p[3], p[4])
            s1 = _play_turn_greedily(s1, seat)
            if s1.phase != "over":
                s1 = _play_turn_greedily(s1, s1.turn)
            total += evaluate(s1, seat)
        if total > best_value:
            best, best_value = p, total
    return best


def search_action(state: State, seat: int, seed: int) -> dict[str, Any]:
    if state.phase == "swap":
        return {"type": "swap", "accept": greedy_swap(state, seat)}
    p = search_placement(state, seat, seed)
    assert p is not None
    return place_action(state, p)
