"""The hex board as flat tables: cells by id, neighbours, rays and adjacent pairs per radius.

Everything here is computed once at import for the three radii the game uses (5, 6, 7), so
the rules only ever index tuples. A cell id is its position in ``Geometry.cells``.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "green", "blue", "orange", "yellow", "purple")
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}

# Directions in this order (docs/rules/ingenious.md); DIRS[d] and DIRS[(d + 3) % 6] are opposite.
DIRS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# The start symbols sit at the corners of the R=5 area for every player count.
START_SYMBOLS: tuple[tuple[int, int, int], ...] = (
    (0, -5, COLOUR_INDEX["red"]),
    (5, -5, COLOUR_INDEX["green"]),
    (5, 0, COLOUR_INDEX["blue"]),
    (0, 5, COLOUR_INDEX["orange"]),
    (-5, 5, COLOUR_INDEX["yellow"]),
    (-5, 0, COLOUR_INDEX["purple"]),
)


class Geometry:
    """Precomputed tables for one board radius.

    >>> g = GEOMETRIES[5]
    >>> g.n, len(GEOMETRIES[6].cells), len(GEOMETRIES[7].cells)
    (91, 127, 169)
    >>> g.cells[g.index[(0, 0)]]
    (0, 0)
    """

    __slots__ = (
        "cells",
        "forward",
        "index",
        "n",
        "neighbours",
        "pair_cells",
        "pair_index",
        "pairs",
        "radius",
        "rays",
        "start_adjacent",
        "starts",
    )

    def __init__(self, radius: int) -> None:
        self.radius = radius
        cells = [
            (q, r)
            for r in range(-radius, radius + 1)
            for q in range(-radius, radius + 1)
            if max(abs(q), abs(r), abs(q + r)) <= radius
        ]
        self.cells: tuple[tuple[int, int], ...] = tuple(cells)
        self.index: dict[tuple[int, int], int] = {c: i for i, c in enumerate(cells)}
        self.n = len(cells)
        neighbours = []
        rays = []
        for q, r in cells:
            neighbours.append(tuple(self.index.get((q + dq, r + dr), -1) for dq, dr in DIRS))
            cell_rays = []
            for dq, dr in DIRS:
                ray = []
                k = 1
                while (q + k * dq, r + k * dr) in self.index:
                    ray.append(self.index[(q + k * dq, r + k * dr)])
                    k += 1
                cell_rays.append(tuple(ray))
            rays.append(tuple(cell_rays))
        # neighbours[c][d] is the cell one step in DIRS[d] (or -1 off the board)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        # rays[c][d] are the cells beyond c in DIRS[d], nearest first, up to the edge
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        # every unordered adjacent pair once (directions 0-2 only), as (a, b)
        self.pairs: tuple[tuple[int, int], ...] = tuple(
            (c, nb[d]) for c, nb in enumerate(self.neighbours) for d in (0, 1, 2) if nb[d] >= 0
        )
        # (a, b) and (b, a) -> position of that pair in ``pairs``
        self.pair_index: dict[tuple[int, int], int] = {}
        for i, (a, b) in enumerate(self.pairs):
            self.pair_index[(a, b)] = self.pair_index[(b, a)] = i
        # (a, b) -> (cells[a], cells[b]), either way round: a place event's cells, one shared
        # tuple per pair (see rules.place)
        self.pair_cells: dict[tuple[int, int], tuple[tuple[int, int], tuple[int, int]]] = {
            (a, b): (self.cells[a], self.cells[b]) for a, b in self.pair_index
        }
        # forward[c]: the neighbours in directions 0-2, so each pair is seen from one end only
        self.forward: tuple[tuple[int, ...], ...] = tuple(tuple(x for x in nb[:3] if x >= 0) for nb in self.neighbours)
        # start symbols as (cell id, colour index), and the on-board cells next to each
        self.starts: tuple[tuple[int, int], ...] = tuple((self.index[(q, r)], colour) for q, r, colour in START_SYMBOLS)
        self.start_adjacent: tuple[tuple[int, ...], ...] = tuple(
            tuple(x for x in self.neighbours[cell] if x >= 0) for cell, _ in self.starts
        )

    def initial_board(self) -> bytes:
        """The empty board with the six start symbols (0 = empty, colour index + 1 otherwise)."""
        board = bytearray(self.n)
        for cell, colour in self.starts:
            board[cell] = colour + 1
        return bytes(board)


GEOMETRIES: dict[int, Geometry] = {r: Geometry(r) for r in (5, 6, 7)}


def radius_for(players: int) -> int:
    """R = 5 for 1-2 players, 6 for 3, 7 for 4."""
    return 5 if players <= 2 else 6 if players == 3 else 7
