"""Ingenious rules on small flat immutable structures (docs/rules/ingenious.md): the state,
the board queries, scoring, turns, and the ``place`` and ``swap`` moves.

The state is a slotted object whose fields are bytes, ints, strings and tuples; a transition
copies the object and rebuilds only the fields it changes, so the old state is never touched.

Tiles are ints ``a * 6 + b`` with colour indices ``a <= b`` (a tile has no orientation until
it is placed). The board is ``bytes`` indexed by cell id: 0 = empty, colour index + 1 else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import IllegalAction, Rng, check
from .geometry import COLOUR_INDEX, COLOURS, GEOMETRIES, Geometry, radius_for

Event = dict[str, Any]

VARIANTS = ("standard", "solo", "teams")
RACK_SIZE = 6
LOG_LIMIT = 60  # recent public events kept in the state (the full history is the action log)
COLOUR_PAIRS = tuple((a, b) for a in COLOURS for b in COLOURS)  # a tile's colours by its code (c1 * 6 + c2)


def tile_code(a: int, b: int) -> int:
    """The tile with colours ``a`` and ``b`` (in either order).

    >>> tile_code(2, 0) == tile_code(0, 2) == 2
    True
    """
    return a * 6 + b if a <= b else b * 6 + a


def full_set() -> list[int]:
    """The 120 tiles in canonical order: per colour pair (a <= b), 5 doubles or 6 mixed."""
    out: list[int] = []
    for a in range(6):
        for b in range(a, 6):
            out.extend([tile_code(a, b)] * (5 if a == b else 6))
    return out


FULL_SET_COUNTS: dict[int, int] = {}
for _t in full_set():
    FULL_SET_COUNTS[_t] = FULL_SET_COUNTS.get(_t, 0) + 1


def tile_json(code: int) -> list[str]:
    a, b = divmod(code, 6)
    return [COLOURS[a], COLOURS[b]]


class Variant:
    """What differs between standard, solo and teams: tracks, cap and bonus thresholds."""

    __slots__ = ("cap", "name", "thresholds")

    def __init__(self, name: str) -> None:
        self.name = name
        double = name in ("solo", "teams")
        self.cap = 36 if double else 18
        self.thresholds: tuple[int, ...] = (18, 36) if double else (18,)

    def tracks(self, players: int) -> int:
        return 2 if self.name == "teams" else players

    @staticmethod
    def track_of(name: str, seat: int) -> int:
        return seat % 2 if name == "teams" else seat

    def seats_of(self, track: int, players: int) -> list[int]:
        return [s for s in range(players) if self.track_of(self.name, s) == track]


VARIANT = {name: Variant(name) for name in VARIANTS}


class State:
    """One game position. Treat as immutable: every rule function returns a new one."""

    __slots__ = (
        "bag",
        "board",
        "end_reason",
        "events",
        "free",
        "log",
        "pairs",
        "pending",
        "phase",
        "players",
        "racks",
        "radius",
        "rng",
        "shuffle",
        "started",
        "tracks",
        "turn",
        "variant",
        "winners",
    )

    variant: str
    players: int
    radius: int
    board: bytes
    racks: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    tracks: tuple[tuple[int, ...], ...]
    turn: int
    phase: str  # "place" | "swap" | "over"
    pending: int  # placements the player to act still makes this turn (1 + open bonuses)
    started: tuple[bool, ...]  # has this seat placed its first tile (the first-round rule)
    pairs: tuple[tuple[int, int], ...]  # placed tiles as (cell of c1, cell of c2), in order
    log: tuple[Event, ...]
    events: int  # number of events ever logged (numbers them for the UI)
    free: int  # empty adjacent cell pairs left (derived from the board; kept to end the game fast)
    shuffle: bool
    rng: int
    winners: tuple[int, ...] | None
    end_reason: str | None

    def copy(self) -> State:
        new = State.__new__(State)
        new.variant = self.variant
        new.players = self.players
        new.radius = self.radius
        new.board = self.board
        new.racks = self.racks
        new.bag = self.bag
        new.tracks = self.tracks
        new.turn = self.turn
        new.phase = self.phase
        new.pending = self.pending
        new.started = self.started
        new.pairs = self.pairs
        new.log = self.log
        new.events = self.events
        new.free = self.free
        new.shuffle = self.shuffle
        new.rng = self.rng
        new.winners = self.winners
        new.end_reason = self.end_reason
        return new

    @property
    def geometry(self) -> Geometry:
        return GEOMETRIES[self.radius]

    @property
    def rules(self) -> Variant:
        return VARIANT[self.variant]

    def track_index(self, seat: int) -> int:
        return Variant.track_of(self.variant, seat)


# --- board queries ------------------------------------------------------------------------


def cell_gains(geom: Geometry, board: bytes, cell: int) -> list[int]:
    """Points per colour (index 0-5, slot 6 unused) a hex placed on ``cell`` would score.

    A placed hex scores the unbroken run of same-coloured hexes beyond it in each direction.
    The direction toward its partner needs no exclusion: before placing, that neighbour is
    empty, so the run there is 0 (and the partner never scores the placed tile itself).
    """
    gains = [0, 0, 0, 0, 0, 0, 0]
    for ray in geom.rays[cell]:
        if not ray:
            continue
        k = board[ray[0]]
        if not k:
            continue
        run = 1
        for x in ray[1:]:
            if board[x] != k:
                break
            run += 1
        gains[k - 1] += run
    return gains


def colour_gain(geom: Geometry, board: bytes, cell: int, colour: int) -> int:
    """What a hex of ``colour`` placed on ``cell`` scores: ``cell_gains(...)[colour]``,
    counting only the runs of that colour (a move scores two hexes, one colour each).

    >>> from .geometry import GEOMETRIES
    >>> geom = GEOMETRIES[6]
    >>> board = bytearray(geom.initial_board())
    >>> centre = geom.index[0, 0]
    >>> east = geom.rays[centre][0]  # the cells beyond the centre in the first direction
    >>> board[east[0]] = board[east[1]] = 1  # two red hexes in a row
    >>> colour_gain(geom, bytes(board), centre, 0), colour_gain(geom, bytes(board), centre, 1)
    (2, 0)
    """
    code = colour + 1
    gain = 0
    for ray in geom.rays[cell]:
        for x in ray:
            if board[x] != code:
                break
            gain += 1
    return gain


def free_start_cells(geom: Geometry, board: bytes) -> set[int]:
    """Cells next to a start symbol that no tile touches yet (the first-round targets)."""
    out: set[int] = set()
    for adjacent in geom.start_adjacent:
        if all(board[x] == 0 for x in adjacent):
            out.update(adjacent)
    return out


def free_starts(geom: Geometry, board: bytes) -> list[int]:
    """Start symbol cell ids that no tile touches yet."""
    return [
        cell
        for (cell, _), adjacent in zip(geom.starts, geom.start_adjacent, strict=True)
        if not any(board[x] for x in adjacent)
    ]


def empty_pairs(geom: Geometry, board: bytes) -> list[tuple[int, int]]:
    """Adjacent empty pairs, in ``geom.pairs`` order; visits only the empty cells."""
    out = []
    forward = geom.forward
    find = board.find
    a = find(0)
    while a >= 0:
        for b in forward[a]:
            if not board[b]:
                out.append((a, b))
        a = find(0, a + 1)
    return out


def count_empty_pairs(geom: Geometry, board: bytes) -> int:
    return sum(1 for a, b in geom.pairs if not board[a] and not board[b])


# by radius: the empty pairs of the board a game starts on, counted once, not at every deal
START_FREE = {radius: count_empty_pairs(geom, geom.initial_board()) for radius, geom in GEOMETRIES.items()}


def pairs_lost(geom: Geometry, board: bytes, x: int, y: int) -> int:
    """How many empty adjacent pairs covering ``x`` and ``y`` (both empty) removes."""
    lost = 1  # the pair x-y itself
    for c, other in ((x, y), (y, x)):
        for nb in geom.neighbours[c]:
            if nb >= 0 and nb != other and not board[nb]:
                lost += 1
    return lost


def first_round_pairs(geom: Geometry, board: bytes) -> list[tuple[int, int]]:
    """Empty pairs touching a start symbol no tile touches yet, in ``geom.pairs`` order."""
    found: set[int] = set()
    neighbours = geom.neighbours
    index = geom.pair_index
    for c in free_start_cells(geom, board):
        if board[c]:
            continue
        for nb in neighbours[c]:
            if nb >= 0 and not board[nb]:
                found.add(index[(c, nb)])
    pairs = geom.pairs
    return [pairs[i] for i in sorted(found)]


def legal_pairs(state: State, seat: int) -> list[tuple[int, int]]:
    """The unordered cell pairs ``seat`` may cover now (the first-round rule applied)."""
    geom = state.geometry
    if not state.started[seat]:
        restricted = first_round_pairs(geom, state.board)
        # a free start symbol always has room in practice; never leave a player stuck anyway
        if restricted:
            return restricted
    return empty_pairs(geom, state.board)


def first_round_ok(state: State, x: int, y: int) -> bool:
    """Does covering ``x``-``y`` obey the first-round rule (for a player's first tile)?"""
    geom = state.geometry
    allowed = free_start_cells(geom, state.board)
    if x in allowed or y in allowed:
        return True
    return not first_round_pairs(geom, state.board)  # the (never-seen) fallback: anything goes


def placements(state: State, seat: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """Every legal placement for ``seat`` with its raw score gain (before the cap).

    Each entry is ``(tile, cell1, cell2, colour1, colour2, gain1, gain2)``: colour1 goes on
    cell1 and scores gain1 points in colour1, likewise for the second hex. Each physical
    placement appears once (``[a, b]`` on ``[x, y]`` equals ``[b, a]`` on ``[y, x]``).
    """
    geom = state.geometry
    board = state.board
    tiles = sorted(set(state.racks[seat]))
    if not tiles:
        return []
    pairs = legal_pairs(state, seat)
    gains: dict[int, list[int]] = {}
    out: list[tuple[int, int, int, int, int, int, int]] = []
    append = out.append
    for x, y in pairs:
        gx = gains.get(x)
        if gx is None:
            gx = gains[x] = cell_gains(geom, board, x)
        gy = gains.get(y)
        if gy is None:
            gy = gains[y] = cell_gains(geom, board, y)
        for t in tiles:
            a, b = divmod(t, 6)
            append((t, x, y, a, b, gx[a], gy[b]))
            if a != b:
                append((t, x, y, b, a, gx[b], gy[a]))
    return out


def one_scoring(old: int, points: int, cap: int, thresholds: tuple[int, ...]) -> tuple[int, int]:
    """A colour's value after one symbol's points, and the bonuses that earns (0 or 1).

    A scoring stops at the next threshold above the colour's old value: 18, and on the double
    track 36 only for a colour already at 18 or more. Reaching it gives one bonus; points
    beyond it are lost.

    >>> one_scoring(16, 9, 36, (18, 36)), one_scoring(18, 5, 36, (18, 36)), one_scoring(35, 3, 36, (18, 36))
    ((18, 1), (23, 0), (36, 1))
    """
    stop = next((t for t in thresholds if old < t), cap)
    new = min(old + points, stop)
    return new, int(old < stop <= new)


def add_points(
    track: tuple[int, ...], c1: int, g1: int, c2: int, g2: int, cap: int, thresholds: tuple[int, ...]
) -> tuple[tuple[int, ...], int]:
    """The track after adding the gains, and how many bonus placements it earns.

    Each of the tile's two symbols is one scoring (:func:`one_scoring`), as the published rules
    score a tile symbol by symbol. A tile that shows one colour twice scores it twice in a row,
    in the order that leaves the colour highest (the player's choice, made for them): with red
    at 17 and hexes worth 9 and 3, the 3 stops at 18 (a bonus) and the 9 then moves on to 27.

    >>> add_points((17, 0, 0, 0, 0, 0), 0, 9, 0, 3, 36, (18, 36))
    ((27, 0, 0, 0, 0, 0), 1)
    >>> add_points((17, 0, 0, 0, 0, 0), 0, 9, 0, 3, 18, (18,))
    ((18, 0, 0, 0, 0, 0), 1)
    """
    new = list(track)
    if c1 == c2:
        orders = ((g1, g2), (g2, g1)) if g1 != g2 else ((g1, g2),)
        best = (track[c1], 0)
        for first, second in orders:
            mid, b1 = one_scoring(track[c1], first, cap, thresholds)
            end, b2 = one_scoring(mid, second, cap, thresholds)
            best = max(best, (end, b1 + b2))
        new[c1] = best[0]
        return tuple(new), best[1]
    bonuses = 0
    for c, g in ((c1, g1), (c2, g2)):
        new[c], bonus = one_scoring(track[c], g, cap, thresholds)
        bonuses += bonus
    return tuple(new), bonuses


def ranking_key(track: tuple[int, ...]) -> tuple[int, ...]:
    """Highest lowest colour wins, then the next lowest, and so on."""
    return tuple(sorted(track))


def swap_eligible(state: State, seat: int) -> bool:
    """No remaining tile shows a (tied) lowest colour of the seat's track.

    Rulings: with no tile left there is nothing to swap, and with fewer than 6 tiles in the
    bag the exchange can't draw six new tiles before the old ones go back, so no offer is made.
    """
    rack = state.racks[seat]
    if not rack or len(state.bag) < RACK_SIZE:
        return False
    track = state.tracks[state.track_index(seat)]
    low = min(track)
    return all(track[t // 6] != low and track[t % 6] != low for t in rack)


def to_act(state: State) -> set[int]:
    return set() if state.phase == "over" else {state.turn}


def scores(state: State) -> list[dict[str, int]]:
    """Each seat's track by colour name (a team's two seats share one)."""
    return [dict(zip(COLOURS, state.tracks[state.track_index(s)], strict=True)) for s in range(state.players)]


def outcome(state: State) -> dict[str, Any] | None:
    if state.winners is None:
        return None
    lowest = [min(state.tracks[state.track_index(s)]) for s in range(state.players)]
    result: dict[str, Any] = {
        "winners": list(state.winners),
        "scores": scores(state),
        "lowest": lowest,
        "reason": state.end_reason,
    }
    if state.variant == "solo":
        result["solo_score"] = lowest[0]
    return result


def placement_gains(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal placement for ``seat`` with its score gain per colour (capped and raw).

    A readable wrapper over :func:`placements` (which the bots use directly).
    """
    if state.phase != "place" or seat != state.turn:
        return []
    rules = state.rules
    track = state.tracks[state.track_index(seat)]
    cells = state.geometry.cells
    out = []
    cache: dict[tuple[int, int, int, int], tuple[dict[str, int], int]] = {}
    for _t, x, y, c1, c2, g1, g2 in placements(state, seat):
        key = (c1, c2, g1, g2)
        hit = cache.get(key)
        if hit is None:
            new, bonuses = add_points(track, c1, g1, c2, g2, rules.cap, rules.thresholds)
            gained = {COLOURS[c]: new[c] - track[c] for c in dict.fromkeys((c1, c2)) if new[c] != track[c]}
            hit = cache[key] = (gained, bonuses)
        out.append(
            {
                "colors": [COLOURS[c1], COLOURS[c2]],
                "cells": [list(cells[x]), list(cells[y])],
                "gained": dict(hit[0]),
                "bonus": hit[1],
            }
        )
    return out


# --- transitions (inputs already validated) -------------------------------------------------


def frozen(value: Any) -> Any:
    """A logged event's value as the rules log it: lists as tuples (all the way down), so
    that an event read back from JSON (``Engine.load``) equals the one logged."""
    if isinstance(value, list | tuple):
        return tuple(map(frozen, value))
    if isinstance(value, dict):
        return {k: frozen(v) for k, v in value.items()}
    return value


def _log(state: State, event: Event) -> None:
    """Append an event to a fresh state's log (mutates ``state``; call only on copies)."""
    event["n"] = state.events
    state.events += 1
    log = (*state.log, event)
    if len(log) > LOG_LIMIT:
        log = log[-LOG_LIMIT:]
    state.log = log


def _draw(state: State, seat: int, count: int) -> None:
    bag = state.bag
    take = bag[:count]
    state.bag = bag[count:]
    racks = list(state.racks)
    racks[seat] = racks[seat] + take
    state.racks = tuple(racks)


def _finish(state: State, reason: str, winners: list[int] | None = None) -> None:
    if winners is None:
        keys = [ranking_key(state.tracks[state.track_index(s)]) for s in range(state.players)]
        best = max(keys)
        winners = [s for s in range(state.players) if keys[s] == best]
    state.phase = "over"
    state.pending = 0
    state.winners = tuple(winners)
    state.end_reason = reason
    _log(state, {"type": "end", "reason": reason, "winners": tuple(winners)})


def _next_turn(state: State) -> None:
    """Pass the turn on, skipping players with an empty rack (they pass)."""
    seat = state.turn
    for _ in range(state.players):
        seat = (seat + 1) % state.players
        if state.racks[seat]:
            state.turn = seat
            state.phase = "place"
            state.pending = 1
            return
        _log(state, {"type": "pass", "seat": seat})
    _finish(state, "no_tiles")  # every rack is empty and the bag too


def _end_turn(state: State, seat: int) -> None:
    """After the last placement: offer the swap or refill, then pass the turn."""
    if swap_eligible(state, seat):
        state.phase = "swap"
        state.pending = 0
        return
    _draw(state, seat, RACK_SIZE - len(state.racks[seat]))
    _next_turn(state)


def place(state: State, seat: int, tile: int, x: int, y: int, c1: int, c2: int) -> State:
    """Place ``tile`` with colour ``c1`` on cell ``x`` and ``c2`` on ``y`` (already legal)."""
    geom = state.geometry
    board = state.board
    g1 = colour_gain(geom, board, x, c1)
    g2 = colour_gain(geom, board, y, c2)
    rules = state.rules
    ti = state.track_index(seat)
    old_track = state.tracks[ti]
    track, bonuses = add_points(old_track, c1, g1, c2, g2, rules.cap, rules.thresholds)

    new = state.copy()
    nb = bytearray(board)
    nb[x] = c1 + 1
    nb[y] = c2 + 1
    new.board = bytes(nb)
    tracks = list(state.tracks)
    tracks[ti] = track
    new.tracks = tuple(tracks)
    rack = list(state.racks[seat])
    rack.remove(tile)
    racks = list(state.racks)
    racks[seat] = tuple(rack)
    new.racks = tuple(racks)
    new.pairs = (*state.pairs, (x, y))
    new.free = state.free - pairs_lost(geom, board, x, y)
    if not state.started[seat]:
        started = list(state.started)
        started[seat] = True
        new.started = tuple(started)
    gained: dict[str, int] = {}
    for c in (c1, c2):
        if track[c] != old_track[c]:
            gained[COLOURS[c]] = track[c] - old_track[c]
    raw: dict[str, int] = {}
    for c, g in ((c1, g1), (c2, g2)):
        if g:
            raw[COLOURS[c]] = raw.get(COLOURS[c], 0) + g
    _log(
        new,
        {
            "type": "place",
            "seat": seat,
            # tuples built once and shared: a busy server keeps thousands of logged events,
            # and these add no containers of their own for the cyclic garbage collector
            "colors": COLOUR_PAIRS[c1 * 6 + c2],
            "cells": geom.pair_cells[x, y],
            "gained": gained,
            "raw": raw,
            "bonus": bonuses,
        },
    )
    if bonuses:
        reached = tuple(
            COLOURS[c] for c in dict.fromkeys((c1, c2)) if any(old_track[c] < t <= track[c] for t in rules.thresholds)
        )
        _log(new, {"type": "bonus", "seat": seat, "count": bonuses, "colors": reached})
    new.pending = state.pending - 1 + bonuses

    if min(track) >= rules.cap:
        _finish(new, "all_colours_capped", rules.seats_of(ti, state.players))
        return new
    if not new.free:
        _finish(new, "board_full")
        return new
    if new.pending > 0 and new.racks[seat]:
        return new  # a bonus placement from the current rack, before refilling
    # Ruling: a bonus that cannot be used (the rack is empty) is lost.
    _end_turn(new, seat)
    return new


def swap(state: State, seat: int, accept: bool) -> State:
    """Answer the swap offer: trade the remaining tiles for 6 new ones, or just refill.

    The shown tiles are set aside, six new ones drawn, and only then do the old ones go back
    into the bag (shuffled in unless ``shuffle`` is false, else at its back), so an exchange
    never draws back a tile just given up.
    """
    new = state.copy()
    if accept:
        shown = state.racks[seat]
        racks = list(state.racks)
        racks[seat] = ()
        new.racks = tuple(racks)
        _log(new, {"type": "swap", "seat": seat, "tiles": tuple(COLOUR_PAIRS[t] for t in shown)})
        _draw(new, seat, RACK_SIZE)
        bag = list(new.bag) + list(shown)
        if state.shuffle:
            rng = Rng(state.rng)
            rng.shuffle(bag)
            new.rng = rng.state
        new.bag = tuple(bag)
    else:
        _log(new, {"type": "keep", "seat": seat})
        _draw(new, seat, RACK_SIZE - len(state.racks[seat]))
    _next_turn(new)
    return new


def new_game(variant: str, players: int, bag: list[int], shuffle: bool, rng: Rng) -> State:
    """Deal 6 tiles per seat in seat order from the bag's front; seat 0 starts."""
    radius = radius_for(players)
    s = State.__new__(State)
    s.variant = variant
    s.players = players
    s.radius = radius
    s.board = GEOMETRIES[radius].initial_board()
    s.bag = tuple(bag)
    s.racks = tuple(() for _ in range(players))
    s.tracks = tuple((0,) * 6 for _ in range(VARIANT[variant].tracks(players)))
    s.turn = 0
    s.phase = "place"
    s.pending = 1
    s.started = (False,) * players
    s.pairs = ()
    s.log = ()
    s.events = 0
    s.free = START_FREE[radius]
    s.shuffle = shuffle
    s.rng = rng.state
    s.winners = None
    s.end_reason = None
    for seat in range(players):
        _draw(s, seat, RACK_SIZE)
    return s


# --- actions (a player's move as sent, checked here, then made) ------------------------------

PLACE_KEYS = frozenset(("type", "colors", "cells"))
BAD_COLOUR = f"Colours are {', '.join(COLOURS)}."

# Every move of a game passes through the checks below: they raise where a condition fails
# rather than call ``check``, whose message would be made (formatted, too) on every move.


def _parse_place(action: Mapping[str, Any]) -> tuple[int, int, tuple[int, int], tuple[int, int]]:
    """Colour indices and the two (q, r) cells of a placement, or IllegalAction."""
    colors = action.get("colors")
    if type(colors) is not list or len(colors) != 2:
        raise IllegalAction("malformed", "'colors' must be two colour names.")
    a, b = colors
    if type(a) is not str or type(b) is not str:
        raise IllegalAction("malformed", "'colors' must be two colour names.")
    c1 = COLOUR_INDEX.get(a, -1)
    c2 = COLOUR_INDEX.get(b, -1)
    if c1 < 0 or c2 < 0:
        raise IllegalAction("bad_colour", BAD_COLOUR)
    cells = action.get("cells")
    if type(cells) is not list or len(cells) != 2:
        raise IllegalAction("malformed", "'cells' must be two [q, r] pairs.")
    p, q = cells
    if type(p) is not list or type(q) is not list or len(p) != 2 or len(q) != 2:
        raise IllegalAction("malformed", "'cells' must be two [q, r] pairs.")
    (p0, p1), (q0, q1) = p, q
    if type(p0) is not int or type(p1) is not int or type(q0) is not int or type(q1) is not int:
        raise IllegalAction("malformed", "'cells' must be two [q, r] pairs of integers.")
    return c1, c2, (p0, p1), (q0, q1)


def apply_place(state: State, seat: int, action: Mapping[str, Any]) -> State:
    """A ``place`` action by the seat whose turn it is."""
    if state.phase != "place":
        raise IllegalAction("wrong_phase", "Answer the swap offer first.")
    if not PLACE_KEYS.issuperset(action):
        raise IllegalAction("malformed", "A placement has only 'colors' and 'cells'.")
    c1, c2, p1, p2 = _parse_place(action)
    geom = state.geometry
    x = geom.index.get(p1, -1)
    y = geom.index.get(p2, -1)
    if x < 0 or y < 0:
        raise IllegalAction("off_board", "Both cells must be on the board.")
    if y not in geom.neighbours[x]:
        raise IllegalAction("not_adjacent", "The two cells must be neighbours.")
    if state.board[x] or state.board[y]:
        raise IllegalAction("occupied", "Both cells must be empty.")
    tile = tile_code(c1, c2)
    if tile not in state.racks[seat]:
        raise IllegalAction("not_in_rack", f"You have no {COLOURS[c1]}/{COLOURS[c2]} tile.")
    if not state.started[seat]:
        check(
            first_round_ok(state, x, y),
            "first_round",
            "Your first tile must touch a start symbol that no tile touches yet.",
        )
    return place(state, seat, tile, x, y, c1, c2)


def apply_swap(state: State, seat: int, action: Mapping[str, Any]) -> State:
    """A ``swap`` action (the answer to the swap offer) by the seat whose turn it is."""
    check(state.phase == "swap", "wrong_phase", "There is no swap offer now; place a tile.")
    check(set(action) <= {"type", "accept"}, "malformed", "A swap has only 'accept'.")
    accept = action.get("accept")
    check(isinstance(accept, bool), "malformed", "'accept' must be true or false.")
    return swap(state, seat, bool(accept))
