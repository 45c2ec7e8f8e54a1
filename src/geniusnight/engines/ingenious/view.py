"""What each seat sees of an Ingenious game: the shared part (board, tracks, log) and each
seat's own part (its rack, a swap offer). Views only read the state."""

from __future__ import annotations

from typing import Any

from ..base import is_seat
from .geometry import COLOURS, GEOMETRIES, Geometry
from .rules import VARIANT, State, free_starts, outcome, scores, tile_json, to_act


class Pieces:
    """The JSON pieces of one board size, built once: each cell as ``[q, r]``, each cell
    holding each colour as ``[q, r, colour]``, the start symbols. Every view shares them, as
    it shares the log's events: nothing changes a view once it is built (the engine contract
    test pins that), and a piece that stayed where it was is then the same object in the next
    view, which is what the patch frames' diff looks for first."""

    def __init__(self, geom: Geometry) -> None:
        self.cells = [list(cell) for cell in geom.cells]
        # by the board's code for a cell: 0 is empty, k holds COLOURS[k - 1]
        self.placed: list[list[Any]] = [[None, *([*cell, colour] for colour in COLOURS)] for cell in geom.cells]
        self.starts = [[*geom.cells[c], COLOURS[k]] for c, k in geom.starts]
        # the cells a tile must cover to take a start symbol off the free ones
        self.near_starts = frozenset(cell for adjacent in geom.start_adjacent for cell in adjacent)

    def tile(self, pair: tuple[int, int], board: bytes) -> list[list[Any]]:
        """A placed tile as ``[[q1, r1, c1], [q2, r2, c2]]``: the cells of ``pair``, in the
        order it was laid, with the colours ``board`` holds there."""
        a, b = pair
        return [self.placed[a][board[a]], self.placed[b][board[b]]]


PIECES = {radius: Pieces(geom) for radius, geom in GEOMETRIES.items()}
TILES = [tile_json(code) for code in range(len(COLOURS) ** 2)]  # a tile's code -> its colours


TURN_KEYS = (
    "phase",
    "to_act",
    "over",
    "rack_sizes",
    "bag_count",
    "placements_left",
    "bonus_pending",
    "first_round",
)


def _turn_values(state: State) -> tuple[Any, ...]:
    """The shared view's small values, by ``TURN_KEYS``: those a move may change, each
    compared whole by ``shared_view_ops`` (a tuple: it is made twice a move, a dict would cost
    more to make and to compare)."""
    over = state.phase == "over"
    placing = state.phase == "place"
    return (
        state.phase,
        sorted(to_act(state)),
        over,
        [len(r) for r in state.racks],
        len(state.bag),
        state.pending if placing else 0,
        max(0, state.pending - 1) if placing else 0,
        (not over) and not state.started[state.turn],
    )


def shared_view(state: State) -> dict[str, Any]:
    geom = GEOMETRIES[state.radius]
    pieces = PIECES[state.radius]
    cells, board = pieces.cells, state.board
    rules = VARIANT[state.variant]
    v: dict[str, Any] = {
        **dict(zip(TURN_KEYS, _turn_values(state), strict=True)),
        "scores": scores(state),
        "variant": state.variant,
        "players": state.players,
        "radius": state.radius,
        # the board is the start symbols and the tiles' cells: each cell is sent once
        "starts": pieces.starts,
        "tiles": [pieces.tile(pair, board) for pair in state.pairs],
        "cap": rules.cap,
        "bonus_at": list(rules.thresholds),
        "free_starts": [cells[c] for c in free_starts(geom, state.board)],
        # Events are never changed once logged (see rules._log), so views share them.
        "log": list(state.log),
    }
    if state.variant == "teams":
        v["teams"] = [[0, 2], [1, 3]]
    if state.phase == "over":
        v["result"] = outcome(state)
    return v


def shared_view_ops(old: State, new: State) -> list[dict[str, Any]] | None:
    """The JSON Patch operations that turn ``shared_view(old)`` into ``shared_view(new)``,
    for ``new`` a later position of the same game (None otherwise: the server then diffs
    the two views). Built from what the moves between them changed, without building
    either view: placed tiles are added to the tiles, new events are added
    to the log (and the oldest dropped, as the log keeps its last ``LOG_LIMIT``), and only
    the tracks that moved are compared.

    >>> from geniusnight.engines import get_engine
    >>> engine = get_engine("ingenious")
    >>> a = engine.setup(2, {}, seed=1)
    >>> b = engine.apply(a, a.turn, engine.bot_action(a, a.turn, "greedy", 0))
    >>> [(op["op"], op["path"]) for op in shared_view_ops(a, b)]  # doctest: +NORMALIZE_WHITESPACE
    [('replace', '/to_act'), ('replace', '/bag_count'), ('replace', '/scores/0/red'), ('add', '/tiles/0'),
     ('replace', '/free_starts'), ('add', '/log/0')]
    """
    n = len(old.pairs)
    if (old.variant, old.players, old.radius) != (new.variant, new.players, new.radius) or new.pairs[:n] != old.pairs:
        return None
    first_old, first_new = old.events - len(old.log), new.events - len(new.log)
    if new.events < old.events or first_new < first_old:
        return None
    ops: list[dict[str, Any]] = []
    for key, was, value in zip(TURN_KEYS, _turn_values(old), _turn_values(new), strict=True):
        if was != value:
            ops.append({"op": "replace", "path": f"/{key}", "value": value})
    if old.tracks != new.tracks:
        for seat in range(new.players):
            track = new.track_index(seat)  # the same in both: the variant is
            a, b = old.tracks[track], new.tracks[track]
            if a != b:
                ops += [
                    {"op": "replace", "path": f"/scores/{seat}/{colour}", "value": y}
                    for colour, x, y in zip(COLOURS, a, b, strict=True)
                    if x != y
                ]
    added = new.pairs[n:]
    if added:
        pieces, board = PIECES[new.radius], new.board
        ops += [
            {"op": "add", "path": f"/tiles/{i}", "value": pieces.tile(pair, board)} for i, pair in enumerate(added, n)
        ]
        covered = [c for pair in added for c in pair]
        if not pieces.near_starts.isdisjoint(covered):
            # a start symbol leaves the free ones when a new tile touches it and none did before
            geom, was_board, touched = GEOMETRIES[new.radius], old.board, set(covered)
            if any(
                not touched.isdisjoint(adjacent) and not any(was_board[x] for x in adjacent)
                for adjacent in geom.start_adjacent
            ):
                starts = free_starts(geom, new.board)
                ops.append({"op": "replace", "path": "/free_starts", "value": [pieces.cells[c] for c in starts]})
    if new.log is not old.log:
        dropped = first_new - first_old
        if dropped and dropped >= len(old.log):
            ops.append({"op": "replace", "path": "/log", "value": list(new.log)})
        else:
            kept = len(old.log) - dropped
            ops += [{"op": "remove", "path": "/log/0"}] * dropped
            ops += [{"op": "add", "path": f"/log/{i}", "value": event} for i, event in enumerate(new.log[kept:], kept)]
    if new.phase == "over":
        result = outcome(new)
        if old.phase != "over":
            ops.append({"op": "add", "path": "/result", "value": result})
        elif outcome(old) != result:
            ops.append({"op": "replace", "path": "/result", "value": result})
    elif old.phase == "over":
        ops.append({"op": "remove", "path": "/result"})
    return ops


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {}
    if is_seat(seat, state.players):
        v["rack"] = [TILES[t] for t in state.racks[seat]]
        if state.phase == "swap" and seat == state.turn:
            v["swap_offer"] = True
    return v


def seat_view_ops(old: State, new: State, seat: int | None) -> list[dict[str, Any]] | None:
    """The JSON Patch operations that turn ``seat_view(old, seat)`` into ``seat_view(new,
    seat)``, for ``new`` a later position of the same game (None otherwise), without building
    either view: the rack as the moves changed it (a tile taken out, tiles drawn at its end,
    or a new rack), and the swap offer added or taken away.

    >>> from geniusnight.engines import get_engine
    >>> engine = get_engine("ingenious")
    >>> a = engine.setup(2, {}, seed=1)
    >>> b = engine.apply(a, a.turn, engine.bot_action(a, a.turn, "greedy", 0))
    >>> [(op["op"], op["path"]) for op in seat_view_ops(a, b, a.turn)]
    [('remove', '/rack/1'), ('add', '/rack/5')]
    >>> seat_view_ops(a, b, 1 - a.turn), seat_view_ops(a, b, None)
    ([], [])
    """
    if (old.variant, old.players, old.radius) != (new.variant, new.players, new.radius):
        return None
    if not is_seat(seat, new.players):
        return []  # a spectator's own part is empty in both
    ops = _rack_ops(old.racks[seat], new.racks[seat])
    offered, offers = (
        old.phase == "swap" and seat == old.turn,
        new.phase == "swap" and seat == new.turn,
    )
    if offers and not offered:
        ops.append({"op": "add", "path": "/swap_offer", "value": True})
    elif offered and not offers:
        ops.append({"op": "remove", "path": "/swap_offer"})
    return ops


def _rack_ops(old: tuple[int, ...], new: tuple[int, ...]) -> list[dict[str, Any]]:
    """The operations on ``/rack`` from rack ``old`` to ``new``: the tile a placement took
    out (where it was) and the tiles drawn (at the end), or the new rack whole."""
    if old == new:
        return []
    n = len(old)
    i = 0
    while i < n and i < len(new) and old[i] == new[i]:
        i += 1
    ops: list[dict[str, Any]] = []
    if i < n and old[i + 1 :] == new[i : n - 1]:  # one tile out, maybe tiles drawn after
        ops.append({"op": "remove", "path": f"/rack/{i}"})
        kept = n - 1
    elif new[:n] == old:  # only tiles drawn
        kept = n
    else:  # a swap: a new rack
        return [{"op": "replace", "path": "/rack", "value": [TILES[t] for t in new]}]
    ops += [{"op": "add", "path": f"/rack/{k}", "value": TILES[new[k]]} for k in range(kept, len(new))]
    return ops
