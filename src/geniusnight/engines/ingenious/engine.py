"""The Ingenious engine object: option checks, action parsing, views, dump/load, bots."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..base import BotSpec, GameInfo, OptionSpec, Rng, check, read_json_option, require_type
from . import bots
from .geometry import COLOUR_INDEX, COLOURS, GEOMETRIES
from .rules import (
    FULL_SET_COUNTS,
    VARIANT,
    VARIANTS,
    State,
    add_points,
    count_empty_pairs,
    first_round_ok,
    free_starts,
    full_set,
    legal_pairs,
    new_game,
    place,
    placements,
    swap,
    tile_code,
    tile_json,
)

OPTION_NAMES = ("variant", "bag", "shuffle")
PLAYER_RANGE = {"standard": (2, 4), "solo": (1, 1), "teams": (4, 4)}


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_bag(value: object) -> list[int]:
    """Check a fixed bag: exactly the 120-tile multiset, as ``[c1, c2]`` colour names."""
    check(isinstance(value, list), "bad_option", "Option 'bag' must be a list of 120 [colour, colour] tiles.")
    assert isinstance(value, list)
    check(len(value) == 120, "bad_option", f"Option 'bag' must hold exactly 120 tiles, not {len(value)}.")
    out = []
    for item in value:
        ok = (
            isinstance(item, list | tuple)
            and len(item) == 2
            and all(isinstance(c, str) and c in COLOUR_INDEX for c in item)
        )
        check(ok, "bad_option", f"Bag tile {item!r} is not a pair of colours {list(COLOURS)}.")
        out.append(tile_code(COLOUR_INDEX[item[0]], COLOUR_INDEX[item[1]]))
    counts: dict[int, int] = {}
    for t in out:
        counts[t] = counts.get(t, 0) + 1
    check(
        counts == FULL_SET_COUNTS,
        "bad_option",
        "Option 'bag' must be the full set: 5 of each double and 6 of each two-colour pair.",
    )
    return out


PLACE_KEYS = frozenset(("type", "colors", "cells"))


def _parse_place(action: Mapping[str, Any]) -> tuple[int, int, tuple[int, int], tuple[int, int]]:
    """Colour indices and the two (q, r) cells of a placement, or IllegalAction (fast path)."""
    colors = action.get("colors")
    check(type(colors) is list and len(colors) == 2, "malformed", "'colors' must be two colour names.")
    assert isinstance(colors, list)
    a, b = colors
    check(type(a) is str and type(b) is str, "malformed", "'colors' must be two colour names.")
    c1 = COLOUR_INDEX.get(a, -1)
    c2 = COLOUR_INDEX.get(b, -1)
    check(c1 >= 0 and c2 >= 0, "bad_colour", f"Colours are {', '.join(COLOURS)}.")
    cells = action.get("cells")
    check(type(cells) is list and len(cells) == 2, "malformed", "'cells' must be two [q, r] pairs.")
    assert isinstance(cells, list)
    p, q = cells
    check(
        type(p) is list and type(q) is list and len(p) == 2 and len(q) == 2,
        "malformed",
        "'cells' must be two [q, r] pairs.",
    )
    check(
        type(p[0]) is int and type(p[1]) is int and type(q[0]) is int and type(q[1]) is int,
        "malformed",
        "'cells' must be two [q, r] pairs of integers.",
    )
    return c1, c2, (p[0], p[1]), (q[0], q[1])


class IngeniousEngine:
    """Ingenious (Einfach Genial) for 1-4 players: standard, solo and teams (docs/rules/ingenious.md)."""

    info = GameInfo(
        id="ingenious",
        title="Ingenious",
        min_players=1,
        max_players=4,
        summary="Lay two-colour hex tiles; your score is your weakest colour.",
        options=(
            OptionSpec(
                "variant",
                "choice",
                "standard",
                "Variant",
                "standard: 2-4 players; solo: 1 player (track to 36); teams: 4 players, 0+2 vs 1+3.",
                choices=VARIANTS,
            ),
            OptionSpec("shuffle", "bool", True, "Shuffle the bag", advanced=True),
            OptionSpec(
                "bag",
                "json",
                None,
                "Fixed bag",
                "120 [colour, colour] tiles in draw order (the full set).",
                advanced=True,
            ),
        ),
        bots=(
            BotSpec("random", "Random", "Places a random legal tile."),
            BotSpec("greedy", "Greedy", "Raises its lowest colours and takes bonuses."),
            BotSpec("search", "Search", "Looks one turn ahead, sampling the hidden tiles."),
        ),
        default_bot="search",
        timed_phases={
            "place": "the system places the greedy bot's tile for the player",
            "swap": "the system declines the swap and refills the rack",
        },
    )

    # --- options and setup --------------------------------------------------------------

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        variant = options.get("variant") or "standard"
        return PLAYER_RANGE.get(variant, (1, 4))

    def validate_options(self, players: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        check(isinstance(options, Mapping), "bad_option", "Options must be an object.")
        unknown = sorted(set(options) - set(OPTION_NAMES))
        check(not unknown, "bad_option", f"Unknown options {unknown}.")
        variant = options.get("variant")
        if variant is None:
            # Ruling: a single player with no variant given plays solo.
            variant = "solo" if players == 1 else "standard"
        check(variant in VARIANTS, "bad_option", f"Option 'variant' must be one of {list(VARIANTS)}.")
        lo, hi = PLAYER_RANGE[variant]
        if players is not None:
            check(
                lo <= players <= hi,
                "bad_option",
                f"The {variant} variant needs {lo} players."
                if lo == hi
                else f"The {variant} variant needs {lo}-{hi} players.",
            )
        shuffle = options.get("shuffle", True)
        check(isinstance(shuffle, bool), "bad_option", "Option 'shuffle' must be true or false.")
        bag = options.get("bag")
        if bag is not None:
            parse_bag(bag)
            bag = [list(t) for t in bag]
        return {"variant": variant, "shuffle": shuffle, "bag": bag}

    def setup(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        opts = self.validate_options(players, options or {})
        rng = Rng.from_seed(seed)
        bag = parse_bag(opts["bag"]) if opts["bag"] is not None else full_set()
        if opts["shuffle"]:
            rng.shuffle(bag)
        return new_game(opts["variant"], players, bag, opts["shuffle"], rng)

    # --- queries --------------------------------------------------------------------------

    def phase(self, state: State) -> str:
        return state.phase

    def to_act(self, state: State) -> set[int]:
        return set() if state.phase == "over" else {state.turn}

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.winners is None:
            return None
        lowest = [min(state.tracks[state.track_index(s)]) for s in range(state.players)]
        result: dict[str, Any] = {
            "winners": list(state.winners),
            "scores": self._scores(state),
            "lowest": lowest,
            "reason": state.end_reason,
        }
        if state.variant == "solo":
            result["solo_score"] = lowest[0]
        return result

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if state.phase == "over" or seat != state.turn:
            return []
        if state.phase == "swap":
            return [{"type": "swap", "accept": True}, {"type": "swap", "accept": False}]
        cells = state.geometry.cells
        out = []
        tiles = sorted(set(state.racks[seat]))
        for x, y in legal_pairs(state, seat):
            for t in tiles:
                a, b = divmod(t, 6)
                for c1, c2 in ((a, b), (b, a)) if a != b else ((a, b),):
                    out.append(
                        {
                            "type": "place",
                            "colors": [COLOURS[c1], COLOURS[c2]],
                            "cells": [list(cells[x]), list(cells[y])],
                        }
                    )
        return out

    def placements(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every legal placement for ``seat`` with its score gain per colour (capped and raw).

        A readable wrapper over :func:`rules.placements` (which the bots use directly).
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

    # --- apply ----------------------------------------------------------------------------

    def apply(self, state: State, seat: int | None, action: Any) -> State:
        kind = require_type(action, "place", "swap", "timeout")
        check(state.phase != "over", "game_over", "The game is over.")
        if kind == "timeout":
            check(seat is None, "system_only", "Only the server applies timeouts.")
            check(set(action) == {"type"}, "malformed", "A timeout has no other fields.")
            if state.phase == "swap":
                return swap(state, state.turn, False)
            p = bots.greedy_placement(state, state.turn)
            assert p is not None
            return place(state, state.turn, p[0], p[1], p[2], p[3], p[4])
        check(
            _is_int(seat) and seat == state.turn,
            "not_your_turn",
            f"It is seat {state.turn}'s turn.",
        )
        assert seat is not None
        if kind == "swap":
            check(state.phase == "swap", "wrong_phase", "There is no swap offer now; place a tile.")
            check(set(action) <= {"type", "accept"}, "malformed", "A swap has only 'accept'.")
            accept = action.get("accept")
            check(isinstance(accept, bool), "malformed", "'accept' must be true or false.")
            return swap(state, seat, bool(accept))
        check(state.phase == "place", "wrong_phase", "Answer the swap offer first.")
        for key in action:
            check(key in PLACE_KEYS, "malformed", "A placement has only 'colors' and 'cells'.")
        c1, c2, p1, p2 = _parse_place(action)
        geom = state.geometry
        x = geom.index.get(p1, -1)
        y = geom.index.get(p2, -1)
        check(x >= 0 and y >= 0, "off_board", "Both cells must be on the board.")
        check(y in geom.neighbours[x], "not_adjacent", "The two cells must be neighbours.")
        check(not state.board[x] and not state.board[y], "occupied", "Both cells must be empty.")
        tile = tile_code(c1, c2)
        check(tile in state.racks[seat], "not_in_rack", f"You have no {COLOURS[c1]}/{COLOURS[c2]} tile.")
        if not state.started[seat]:
            check(
                first_round_ok(state, x, y),
                "first_round",
                "Your first tile must touch a start symbol that no tile touches yet.",
            )
        return place(state, seat, tile, x, y, c1, c2)

    def bot_action(self, state: State, seat: int, bot: str, seed: int) -> dict[str, Any] | None:
        if state.phase == "over" or seat != state.turn:
            return None
        if bot == "greedy":
            return bots.greedy_action(state, seat)
        if bot == "search":
            return bots.search_action(state, seat, seed)
        return bots.random_action(state, seat, Rng.from_seed(seed))

    # --- views ----------------------------------------------------------------------------

    def _scores(self, state: State) -> list[dict[str, int]]:
        return [dict(zip(COLOURS, state.tracks[state.track_index(s)], strict=True)) for s in range(state.players)]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**self.shared_view(state), **self.seat_view(state, seat)}

    def shared_view(self, state: State) -> dict[str, Any]:
        geom = GEOMETRIES[state.radius]
        cells = geom.cells
        board = state.board
        rules = VARIANT[state.variant]
        over = state.phase == "over"
        v: dict[str, Any] = {
            "phase": state.phase,
            "to_act": sorted(self.to_act(state)),
            "scores": self._scores(state),
            "over": over,
            "variant": state.variant,
            "players": state.players,
            "radius": state.radius,
            "board": [[*cells[i], COLOURS[k - 1]] for i, k in enumerate(board) if k],
            "starts": [[*cells[c], COLOURS[k]] for c, k in geom.starts],
            "tiles": [[list(cells[a]), list(cells[b])] for a, b in state.pairs],
            "rack_sizes": [len(r) for r in state.racks],
            "bag_count": len(state.bag),
            "turn": state.turn,
            "cap": rules.cap,
            "bonus_at": list(rules.thresholds),
            "placements_left": state.pending if state.phase == "place" else 0,
            "bonus_pending": max(0, state.pending - 1) if state.phase == "place" else 0,
            "first_round": (not over) and not state.started[state.turn],
            "free_starts": [list(cells[c]) for c in free_starts(geom, board)],
            # Events are never changed once logged (see rules._log), so views share them.
            "log": list(state.log),
        }
        if state.variant == "teams":
            v["teams"] = [[0, 2], [1, 3]]
        if over:
            v["result"] = self.outcome(state)
        return v

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {}
        if seat is not None and _is_int(seat) and 0 <= seat < state.players:
            v["rack"] = [tile_json(t) for t in state.racks[seat]]
            if state.phase == "swap" and seat == state.turn:
                v["swap_offer"] = True
        return v

    # --- persistence ----------------------------------------------------------------------

    def import_option(self, name: str, data: bytes, filename: str = "") -> Any:
        """A fixed deal or custom content for a ``json`` option, uploaded as a JSON file."""
        return read_json_option(self.info, name, data)

    def dump(self, state: State) -> dict[str, Any]:
        return {
            "variant": state.variant,
            "players": state.players,
            "radius": state.radius,
            "board": list(state.board),
            "racks": [list(r) for r in state.racks],
            "bag": list(state.bag),
            "tracks": [list(t) for t in state.tracks],
            "turn": state.turn,
            "phase": state.phase,
            "pending": state.pending,
            "started": list(state.started),
            "pairs": [list(p) for p in state.pairs],
            "log": copy.deepcopy(list(state.log)),
            "events": state.events,
            "shuffle": state.shuffle,
            "rng": format(state.rng, "x"),  # a string: 64-bit ints don't survive every JSON reader
            "winners": None if state.winners is None else list(state.winners),
            "end_reason": state.end_reason,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        s = State.__new__(State)
        s.variant = str(data["variant"])
        s.players = int(data["players"])
        s.radius = int(data["radius"])
        s.board = bytes(data["board"])
        s.racks = tuple(tuple(r) for r in data["racks"])
        s.bag = tuple(data["bag"])
        s.tracks = tuple(tuple(t) for t in data["tracks"])
        s.turn = int(data["turn"])
        s.phase = str(data["phase"])
        s.pending = int(data["pending"])
        s.started = tuple(bool(x) for x in data["started"])
        s.pairs = tuple((int(a), int(b)) for a, b in data["pairs"])
        s.log = tuple(copy.deepcopy(list(data["log"])))
        s.events = int(data["events"])
        s.free = count_empty_pairs(GEOMETRIES[s.radius], s.board)
        s.shuffle = bool(data["shuffle"])
        s.rng = int(data["rng"], 16)
        s.winners = None if data["winners"] is None else tuple(data["winners"])
        s.end_reason = data["end_reason"]
        return s


ENGINE = IngeniousEngine()
