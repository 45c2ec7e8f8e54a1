"""Hand-built positions for the Ingenious rule tests."""

from __future__ import annotations

from typing import Any

from geniusnight.engines.ingenious import ENGINE
from geniusnight.engines.ingenious.geometry import COLOUR_INDEX, COLOURS, GEOMETRIES
from geniusnight.engines.ingenious.rules import State, count_empty_pairs, full_set, tile_code, tile_json

E = ENGINE


def tile(c1: str, c2: str) -> int:
    return tile_code(COLOUR_INDEX[c1], COLOUR_INDEX[c2])


def bag_with_front(front: list[tuple[str, str]]) -> list[list[str]]:
    """The full 120-tile bag with ``front`` first (in that order), the rest canonical."""
    rest = full_set()
    out = []
    for a, b in front:
        rest.remove(tile(a, b))
        out.append([a, b])
    return out + [tile_json(t) for t in rest]


def position(
    players: int = 2,
    variant: str = "standard",
    board: dict[tuple[int, int], str] | None = None,
    racks: list[list[tuple[str, str]]] | None = None,
    tracks: list[dict[str, int]] | None = None,
    started: bool = True,
    turn: int = 0,
) -> State:
    """A position on the fixed deal with the given extra hexes, racks and scores.

    ``started=True`` means every player has already placed a first tile (so the first-round
    rule is out of the way); the tiles under ``board`` are not added to ``pairs``.
    """
    s = E.setup(players, {"variant": variant, "shuffle": False}, 0).copy()
    geom = GEOMETRIES[s.radius]
    b = bytearray(s.board)
    for (q, r), c in (board or {}).items():
        b[geom.index[(q, r)]] = COLOUR_INDEX[c] + 1
    s.board = bytes(b)
    s.free = count_empty_pairs(geom, s.board)
    if racks is not None:
        s.racks = tuple(tuple(tile(a, c) for a, c in rack) for rack in racks)
    if tracks is not None:
        s.tracks = tuple(tuple(t.get(c, 0) for c in COLOURS) for t in tracks)
    s.started = (started,) * players
    s.turn = turn
    return s


def place(state: State, seat: int, c1: str, c2: str, cell1: tuple[int, int], cell2: tuple[int, int]) -> State:
    action: dict[str, Any] = {"type": "place", "colors": [c1, c2], "cells": [list(cell1), list(cell2)]}
    return E.apply(state, seat, action)


def score(state: State, seat: int) -> dict[str, int]:
    return E.view(state, seat)["scores"][seat]
