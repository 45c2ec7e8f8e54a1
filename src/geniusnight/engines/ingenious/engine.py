"""The Ingenious engine object: info, option checks, setup, ``apply`` (which hands each move
to ``rules.py``), the views from ``view.py``, legal actions, bots and dump/load."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..base import BotSpec, GameInfo, IllegalAction, OptionSpec, Rng, check, is_int, read_json_option, require_type
from . import bots, rules, view
from .geometry import COLOUR_INDEX, COLOURS, GEOMETRIES
from .rules import (
    FULL_SET_COUNTS,
    VARIANTS,
    State,
    count_empty_pairs,
    frozen,
    full_set,
    legal_pairs,
    new_game,
    tile_code,
)

OPTION_NAMES = ("variant", "bag", "shuffle")
PLAYER_RANGE = {"standard": (2, 4), "solo": (1, 1), "teams": (4, 4)}


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
                "Standard: 2 to 4 players, each for themselves. Solo: play alone and raise your weakest "
                "colour as high as you can (up to 36). Teams: 4 players, Player 1 & 3 against Player 2 & 4, "
                "each team on one shared score.",
                choices=VARIANTS,
            ),
            OptionSpec("shuffle", "bool", True, "Shuffle the bag", advanced=True),
            OptionSpec(
                "bag",
                "json",
                None,
                "Tiles in a fixed order",
                "All 120 tiles in the order they are drawn, each a pair of colours (for setting up a particular game).",
                advanced=True,
            ),
        ),
        bots=(
            BotSpec("random", "Random", "Places any allowed tile at random."),
            BotSpec("greedy", "Greedy", "Raises its lowest colours and takes bonuses."),
            BotSpec("search", "Planner", "Thinks one turn ahead and guesses which tiles the others may hold."),
        ),
        default_bot="search",
        timed_phases={
            "place": "the game places for you the tile the Greedy bot would choose",
            "swap": "the game skips the swap and refills your rack",
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
        return rules.to_act(state)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome(state)

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
        """Every legal placement for ``seat`` with its score gain per colour (capped and raw)."""
        return rules.placement_gains(state, seat)

    # --- apply ----------------------------------------------------------------------------

    def apply(self, state: State, seat: int | None, action: Any) -> State:
        kind = require_type(action, "place", "swap", "timeout")
        check(state.phase != "over", "game_over", "The game is over.")
        if kind == "timeout":
            check(seat is None, "system_only", "Only the server applies timeouts.")
            check(set(action) == {"type"}, "malformed", "A timeout has no other fields.")
            if state.phase == "swap":
                return rules.swap(state, state.turn, False)
            # The default placement is the greedy bot's; the bots import the rules, so the
            # engine (which sees both) makes this move rather than rules.py.
            p = bots.greedy_placement(state, state.turn)
            assert p is not None
            return rules.place(state, state.turn, p[0], p[1], p[2], p[3], p[4])
        if not is_int(seat) or seat != state.turn:  # (its message is made only then)
            raise IllegalAction("not_your_turn", f"It is seat {state.turn}'s turn.")
        if kind == "swap":
            return rules.apply_swap(state, seat, action)
        return rules.apply_place(state, seat, action)

    def bot_action(self, state: State, seat: int, bot: str, seed: int) -> dict[str, Any] | None:
        if state.phase == "over" or seat != state.turn:
            return None
        if bot == "greedy":
            return bots.greedy_action(state, seat)
        if bot == "search":
            return bots.search_action(state, seat, seed)
        return bots.random_action(state, seat, Rng.from_seed(seed))

    # --- views ----------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**view.shared_view(state), **view.seat_view(state, seat)}

    def shared_view(self, state: State) -> dict[str, Any]:
        return view.shared_view(state)

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.seat_view(state, seat)

    def shared_view_ops(self, old: State, new: State) -> list[dict[str, Any]] | None:
        return view.shared_view_ops(old, new)

    def seat_view_ops(self, old: State, new: State, seat: int | None) -> list[dict[str, Any]] | None:
        return view.seat_view_ops(old, new, seat)

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
        s.log = tuple(map(frozen, data["log"]))
        s.events = int(data["events"])
        s.free = count_empty_pairs(GEOMETRIES[s.radius], s.board)
        s.shuffle = bool(data["shuffle"])
        s.rng = int(data["rng"], 16)
        s.winners = None if data["winners"] is None else tuple(data["winners"])
        s.end_reason = data["end_reason"]
        return s


ENGINE = IngeniousEngine()
