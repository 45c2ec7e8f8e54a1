"""What each seat sees of an Ingenious game: the shared part (board, tracks, log) and each
seat's own part (its rack, a swap offer). Views only read the state."""

from __future__ import annotations

from typing import Any

from .geometry import COLOURS, GEOMETRIES, Geometry
from .rules import VARIANT, State, free_starts, is_int, outcome, scores, tile_json, to_act


class Pieces:
    """The JSON pieces of one board size, built once: each cell as ``[q, r]``, each cell
    holding each colour as ``[q, r, colour]``, the start symbols, each placed tile's two cells
    as ``[[q, r], [q, r]]`` (by the cell pair, either way round). Every view shares them, as
    it shares the log's events: nothing changes a view once it is built (the engine contract
    test pins that), and a piece that stayed where it was is then the same object in the next
    view, which is what the patch frames' diff looks for first."""

    def __init__(self, geom: Geometry) -> None:
        self.cells = [list(cell) for cell in geom.cells]
        # by the board's code for a cell: 0 is empty, k holds COLOURS[k - 1]
        self.placed = [[None, *([*cell, colour] for colour in COLOURS)] for cell in geom.cells]
        self.starts = [[*geom.cells[c], COLOURS[k]] for c, k in geom.starts]
        self.tiles = {(a, b): [self.cells[a], self.cells[b]] for a, b in geom.pair_index}  # both ways round


PIECES = {radius: Pieces(geom) for radius, geom in GEOMETRIES.items()}
TILES = [tile_json(code) for code in range(len(COLOURS) ** 2)]  # a tile's code -> its colours


def shared_view(state: State) -> dict[str, Any]:
    geom = GEOMETRIES[state.radius]
    pieces = PIECES[state.radius]
    cells, placed, tiles = pieces.cells, pieces.placed, pieces.tiles
    board = state.board
    rules = VARIANT[state.variant]
    over = state.phase == "over"
    v: dict[str, Any] = {
        "phase": state.phase,
        "to_act": sorted(to_act(state)),
        "scores": scores(state),
        "over": over,
        "variant": state.variant,
        "players": state.players,
        "radius": state.radius,
        "board": [placed[i][k] for i, k in enumerate(board) if k],
        "starts": pieces.starts,
        "tiles": [tiles[pair] for pair in state.pairs],
        "rack_sizes": [len(r) for r in state.racks],
        "bag_count": len(state.bag),
        "turn": state.turn,
        "cap": rules.cap,
        "bonus_at": list(rules.thresholds),
        "placements_left": state.pending if state.phase == "place" else 0,
        "bonus_pending": max(0, state.pending - 1) if state.phase == "place" else 0,
        "first_round": (not over) and not state.started[state.turn],
        "free_starts": [cells[c] for c in free_starts(geom, board)],
        # Events are never changed once logged (see rules._log), so views share them.
        "log": list(state.log),
    }
    if state.variant == "teams":
        v["teams"] = [[0, 2], [1, 3]]
    if over:
        v["result"] = outcome(state)
    return v


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {}
    if seat is not None and is_int(seat) and 0 <= seat < state.players:
        v["rack"] = [TILES[t] for t in state.racks[seat]]
        if state.phase == "swap" and seat == state.turn:
            v["swap_offer"] = True
    return v
