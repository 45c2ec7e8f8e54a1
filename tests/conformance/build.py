"""Writes the conformance cases (``<game>.json``) from hand-written scenarios.

Run ``.venv/bin/python tests/conformance/build.py`` after a rule change. Every step's expected
``phase``, ``to_act`` and ``scores`` is taken from the engine only after this script has
checked it: each scenario states, next to its actions, what the rule it is named after says
must happen (``case.check``), and every Ingenious placement is re-scored by the independent
reference scorer below. A scenario whose engine output breaks its rule stops the script.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from geniusnight.engines import IllegalAction, get_engine

HERE = Path(__file__).parent
Action = dict[str, Any]


class Case:
    """One case being written: the setup, then each action with what must follow it."""

    def __init__(self, game: str, cid: str, rule: str, players: int, options: dict[str, Any], seed: int = 0) -> None:
        self.engine = get_engine(game)
        self.id, self.rule = cid, rule
        self.setup = {"players": players, "options": options, "seed": seed}
        self.state = self.engine.setup(players, options, seed=seed)
        self.start = self.expectation(self.state, None, ())
        self.steps: list[dict[str, Any]] = []
        # party games: a round that ends goes on past its reveal (every seat ready) unless a
        # case is about the reveal itself
        self.through_results = True

    def expectation(self, state: Any, view_of: int | None, keys: tuple[str, ...]) -> dict[str, Any]:
        view = self.engine.view(state, view_of)
        out: dict[str, Any] = {"phase": view["phase"], "to_act": view["to_act"], "scores": view["scores"]}
        if view["over"]:
            out["winners"] = view["result"]["winners"]
        if view_of is not None:
            out["view_of"] = view_of
        if keys:
            out["view"] = {k: view[k] for k in keys}
        return out

    @property
    def view(self) -> dict[str, Any]:
        return self.engine.view(self.state, None)

    def seat_view(self, seat: int) -> dict[str, Any]:
        return self.engine.view(self.state, seat)

    def act(
        self,
        seat: int | None,
        action: Action,
        refused: str | None = None,
        keys: tuple[str, ...] = (),
        view_of: int | None = None,
    ) -> dict[str, Any]:
        """Apply ``action``; it must be refused with exactly ``refused`` (or accepted)."""
        before = self.state
        try:
            self.state = self.engine.apply(self.state, seat, action)
            code = None
        except IllegalAction as e:
            code = e.code
        self.check(code == refused, f"expected refusal {refused!r}, got {code!r} for {action}")
        if code is not None:
            self.check(self.engine.dump(before) == self.engine.dump(self.state), "a refusal changed the state")
        step = {"seat": seat, "action": action, "refused": code, **self.expectation(self.state, view_of, keys)}
        self.steps.append(step)
        return step

    def ready_all(self, after: Action) -> None:
        if isinstance(after, dict) and after.get("type") == "ready":
            return
        while self.view["phase"] == "results":
            self.act(self.view["to_act"][0], {"type": "ready"})

    def check(self, condition: object, message: str) -> None:
        if not condition:
            sys.exit(f"case {self.id}: {message}")

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "rule": self.rule, "setup": self.setup, "start": self.start, "steps": self.steps}


# --- Ingenious ------------------------------------------------------------------------------

COLOURS = ("red", "green", "blue", "orange", "yellow", "purple")
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def reference_hex_gains(view: dict[str, Any], colours: list[str], cells: list[list[int]]) -> list[int]:
    """The rules page's scoring, written again: each placed hex scores, in its colour, the
    unbroken run of same-coloured hexes beyond it along each of its 5 outward lines."""
    hexes = [*view["starts"], *(half for tile in view["tiles"] for half in tile)]
    board = {(q, r): c for q, r, c in hexes}
    radius = view["radius"]
    gains = [0, 0]
    for i in (0, 1):
        (q, r), colour, partner = cells[i], colours[i], tuple(cells[1 - i])
        for dq, dr in DIRS:
            x, y = q + dq, r + dr
            if (x, y) == partner:
                continue
            while max(abs(x), abs(y), abs(x + y)) <= radius and board.get((x, y)) == colour:
                gains[i] += 1
                x, y = x + dq, y + dr
    return gains


def reference_gain(view: dict[str, Any], colours: list[str], cells: list[list[int]]) -> dict[str, int]:
    """The placement's raw points by colour."""
    raw: dict[str, int] = {}
    for colour, gain in zip(colours, reference_hex_gains(view, colours, cells), strict=True):
        if gain:
            raw[colour] = raw.get(colour, 0) + gain
    return raw


def reference_track(old: int, raw: int, thresholds: list[int], cap: int) -> tuple[int, int]:
    """A scoring stops at the next threshold above the old value; reaching it is a bonus."""
    stop = next((t for t in thresholds if old < t), cap)
    new = min(old + raw, stop)
    return new, int(old < stop <= new)


def reference_symbols(old: int, gains: list[int], thresholds: list[int], cap: int) -> tuple[int, int]:
    """A colour's symbols scored one after the other (each one scoring), in the order that
    leaves the colour highest; the value and the bonuses."""
    best = (old, 0)
    for order in (gains, gains[::-1]):
        value, bonuses = old, 0
        for gain in order:
            value, bonus = reference_track(value, gain, thresholds, cap)
            bonuses += bonus
        best = max(best, (value, bonuses))
    return best


class IngeniousCase(Case):
    def __init__(self, cid: str, rule: str, players: int, options: dict[str, Any]) -> None:
        super().__init__("ingenious", cid, rule, players, options)
        self.returned = 0  # tiles given back to the bag by exchanges so far

    def place(self, seat: int | None, action: Action, refused: str | None = None, keys: tuple[str, ...] = ()) -> int:
        """A placement, re-scored by the reference scorer; returns the bonuses it earned."""
        before = self.view
        left = before["placements_left"]
        step = self.act(seat, action, refused, keys=("placements_left", "rack_sizes", *keys))
        if refused is not None or action.get("type") != "place":
            return 0
        mover = before["to_act"][0]
        gains = reference_hex_gains(before, action["colors"], action["cells"])
        bonuses = 0
        for colour in COLOURS:
            old = before["scores"][mover][colour]
            mine = [g for c, g in zip(action["colors"], gains, strict=True) if c == colour]
            new, bonus = reference_symbols(old, mine, before["bonus_at"], before["cap"])
            self.check(step["scores"][mover][colour] == new, f"{colour}: {old} + {mine} should give {new}")
            bonuses += bonus
        after = self.view
        still = left - 1 + bonuses  # placements this seat still has this turn
        if not after["over"] and still > 0 and before["rack_sizes"][mover] > 1:
            self.check(after["phase"] == "place" and after["to_act"] == [mover], "a bonus placement follows")
            self.check(after["placements_left"] == still, "placements_left counts the bonuses")
            self.check(after["rack_sizes"][mover] == before["rack_sizes"][mover] - 1, "no refill before it")
        elif not after["over"]:
            self.check(
                after["placements_left"] in (0, 1)
                and (after["to_act"] != [mover] or after["players"] == 1 or after["phase"] == "swap"),
                "the turn ends",
            )
        return bonuses

    def greedy(self) -> Action:
        seat = self.view["to_act"][0]
        action = self.engine.bot_action(self.state, seat, "greedy", 0)
        assert action is not None
        return action


def shuffled_bag(seed: int) -> list[list[str]]:
    """The full 120-tile set in an explicit order (a fixed deal another implementation can use)."""
    bag = [[COLOURS[a], COLOURS[b]] for a in range(6) for b in range(a, 6) for _ in range(5 if a == b else 6)]
    random.Random(seed).shuffle(bag)
    return bag


def place_action(colors: list[str], cells: list[list[int]]) -> Action:
    return {"type": "place", "colors": colors, "cells": cells}


def ingenious_options(variant: str, bag_seed: int | None) -> dict[str, Any]:
    opts: dict[str, Any] = {"variant": variant, "shuffle": False}
    if bag_seed is not None:
        opts["bag"] = shuffled_bag(bag_seed)
    return opts


Predicate = Callable[[IngeniousCase, Action], bool]


def ingenious_until(
    cid: str,
    rule: str,
    players: int,
    variant: str,
    found: Predicate,
    then: int = 0,
    instead: Action | None = None,
    check: Callable[[IngeniousCase, dict[str, Any]], None] | None = None,
) -> IngeniousCase:
    """Greedy play on explicit bags until ``found`` holds for the next action; that action (or
    ``instead``) and ``then`` more are the case's last steps; ``check`` then tests the rule on the
    state before the hit and the case. Tries bag orders until one gets there."""
    for bag_seed in range(300):
        case = IngeniousCase(cid, rule, players, ingenious_options(variant, bag_seed))
        extra = -1
        before: dict[str, Any] = {}
        while not case.view["over"] and extra < then:
            action = case.greedy()
            hit = extra < 0 and found(case, action)
            seat = case.view["to_act"][0]
            if hit:
                before = {"view": case.view, "seat_view": case.seat_view(seat), "seat": seat}
                if instead is not None:
                    action = instead
                    seat = None if action["type"] == "timeout" else seat
            if action == {"type": "swap", "accept": True}:
                case.returned += len(case.seat_view(seat)["rack"])
            case.place(seat, action, keys=("bag_count",))
            if hit or extra >= 0:
                extra += 1
        if extra >= then:
            if check is not None:
                check(case, before)
            return case
    raise SystemExit(f"case {cid}: no bag order reaches it")


def gain_of(case: IngeniousCase, action: Action) -> dict[str, int]:
    return reference_gain(case.view, action["colors"], action["cells"]) if action["type"] == "place" else {}


def reaching(case: IngeniousCase, action: Action, threshold: int, exact: bool | None = None) -> list[str]:
    """Colours this placement brings to ``threshold`` from below (exact: with no excess), for a
    tile of two colours (a tile showing one colour twice scores it twice: see
    :func:`double_tile_passing_18`)."""
    if action["type"] != "place" or action["colors"][0] == action["colors"][1]:
        return []
    view = case.view
    track = view["scores"][view["to_act"][0]]
    out = []
    for colour, g in gain_of(case, action).items():
        old = track[colour]
        exactly = old + g == threshold
        if old < threshold <= old + g and (exact is None or exact == exactly) and (threshold == 18 or old >= 18):
            out.append(colour)
    return out


def double_tile_passing_18(case: IngeniousCase, action: Action) -> bool:
    """A tile showing one colour twice whose first symbol stops at 18 and whose second moves on."""
    if action["type"] != "place" or action["colors"][0] != action["colors"][1]:
        return False
    view = case.view
    old = view["scores"][view["to_act"][0]][action["colors"][0]]
    gains = reference_hex_gains(view, action["colors"], action["cells"])
    value, _ = reference_symbols(old, gains, view["bonus_at"], view["cap"])
    return old < 18 < value


def bonus_placement(case: IngeniousCase) -> bool:
    """Is the next placement a bonus one (the last event is the bonus just earned)?"""
    log = case.view["log"]
    return case.view["phase"] == "place" and bool(log) and log[-1]["type"] == "bonus"


def tied_swap(case: IngeniousCase, action: Action) -> bool:
    view = case.view
    if view["phase"] != "swap":
        return False
    track = view["scores"][view["to_act"][0]]
    low = min(track.values())
    return sum(v == low for v in track.values()) >= 2


def capping_path(bag_seed: int, width: int = 40) -> list[tuple[int, Action]] | None:
    """Moves by which seat 0 of a 2-player game gets every colour to 18, found by a beam search
    over both seats' moves (seat 1 builds lines in seat 0's weakest colours), or None."""
    from geniusnight.engines.ingenious import rules

    engine = get_engine("ingenious")
    tiebreak = random.Random(bag_seed)
    start = engine.setup(2, ingenious_options("standard", bag_seed), seed=0)
    beam: list[tuple[Any, list[tuple[int, Action]]]] = [(start, [])]

    def value(state: Any) -> float:
        bonus = 40 * (state.pending - 1) if state.turn == 0 and state.phase == "place" else 0
        return bonus - sum((18 - v) ** 2 for v in state.tracks[0])

    while beam:
        children = []
        for state, path in beam:
            if state.phase == "over":
                if min(state.tracks[0]) >= 18:
                    return path
                continue
            seat = state.turn
            if state.phase == "swap":
                for accept in (True, False):
                    children.append(
                        (rules.swap(state, seat, accept), [*path, (seat, {"type": "swap", "accept": accept})])
                    )
                continue
            track = state.tracks[0]
            options = rules.placements(state, seat)
            if seat == 0:

                def gain(p: tuple[int, ...], track: tuple[int, ...] = track) -> float:
                    new, bonus = rules.add_points(track, p[3], p[5], p[4], p[6], 18, (18,))
                    return 40 * bonus - sum((18 - v) ** 2 for v in new)

                ranked = sorted(options, key=gain, reverse=True)[:width]
            else:
                weight = [18 - v for v in track]
                ranked = sorted(
                    options,
                    key=lambda p: weight[p[3]] * (1 + p[5]) + weight[p[4]] * (1 + p[6]) + tiebreak.random(),
                    reverse=True,
                )[:3]
            cells = state.geometry.cells
            for tile, x, y, c1, c2, _, _ in ranked:
                action = place_action([COLOURS[c1], COLOURS[c2]], [list(cells[x]), list(cells[y])])
                children.append((rules.place(state, seat, tile, x, y, c1, c2), [*path, (seat, action)]))
        children.sort(key=lambda child: value(child[0]), reverse=True)
        seen: set[Any] = set()
        beam = []
        for state, path in children:
            if (state.tracks[0], state.board) not in seen and len(beam) < width:
                seen.add((state.tracks[0], state.board))
                beam.append((state, path))
    return None


def ingenious_cases() -> list[Case]:
    cases: list[Case] = []
    r = "docs/rules/ingenious.md"

    # first round, for 2, 3 and 4 players, on the canonical unshuffled bag:
    # seat 0 holds 5 red/red + red/green, seat 1 5 red/green + red/blue, seat 2 5 red/blue +
    # red/orange, seat 3 5 red/orange + red/yellow
    racks = [["red", "red"], ["red", "green"], ["red", "blue"], ["red", "orange"]]
    starts_next = [  # per seat: a pair touching a start symbol no earlier tile touches
        [[0, -4], [1, -4]],  # next to red (0,-5)
        [[4, -4], [4, -3]],  # next to green (5,-5)
        [[4, 0], [3, 1]],  # next to blue (5,0)
        [[0, 4], [1, 3]],  # next to orange (0,5)
    ]
    for n in (2, 3, 4):
        c = IngeniousCase(
            f"first-round-{n}-players",
            f"First-round rule ({r}), {n} players: each player's first tile must touch a start "
            "symbol that no tile touches yet; later tiles go anywhere.",
            n,
            {"shuffle": False},
        )
        c.place(0, place_action(["red", "red"], [[0, 0], [1, 0]]), "first_round")
        for seat in range(n):
            if seat > 0:  # the red start symbol is taken now
                c.place(seat, place_action(racks[seat], [[1, -5], [2, -5]]), "first_round")
            c.place(seat, place_action(racks[seat], starts_next[seat]))
            c.check(c.view["free_starts"].__len__() == 5 - seat, "start symbols taken")
        c.place(0, place_action(["red", "red"], [[0, 0], [1, 0]]))  # second tile: anywhere
        cases.append(c)

    c = IngeniousCase(
        "first-round-a-start-symbol-is-taken-once-any-hex-touches-it",
        f"First-round rule ({r}): a start symbol counts as taken once any tile hex is adjacent "
        "to it, even when that hex has another colour; a tile touching only a taken one is refused.",
        2,
        {"shuffle": False},
    )
    c.place(0, place_action(["green", "red"], [[1, -5], [2, -5]]))  # green next to the red start
    c.place(1, place_action(["red", "green"], [[0, -4], [0, -3]]), "first_round")
    c.place(1, place_action(["green", "red"], [[-1, -4], [-1, -3]]), "first_round")
    c.place(1, place_action(["green", "red"], [[4, -4], [3, -3]]))
    cases.append(c)

    c = IngeniousCase(
        "scoring-a-tile-never-scores-itself",
        f"Scoring ({r}): each hex scores the runs beyond it along its 5 outward lines; the two "
        "hexes of the tile never score each other (red/red on two cells next to the red start: 1 + 1).",
        2,
        {"shuffle": False},
    )
    c.place(0, place_action(["red", "red"], [[0, -4], [1, -5]]))
    c.check(c.view["scores"][0]["red"] == 2, "1 + 1 red")
    cases.append(c)

    c = IngeniousCase(
        "scoring-either-orientation-of-a-rack-tile",
        f"Actions ({r}): a rack tile may be laid in either orientation; colours[0] goes on cells[0].",
        2,
        {"shuffle": False},
    )
    c.place(0, place_action(["green", "red"], [[4, -4], [4, -3]]))  # its red/green, green first
    c.check(c.view["tiles"][-1] == [[4, -4, "green"], [4, -3, "red"]], "orientation")
    c.check(c.view["scores"][0]["green"] == 1, "green next to the green start")
    cases.append(c)

    refusals = [
        ("off-board", "off_board", 0, place_action(["red", "red"], [[5, 1], [4, 1]])),
        ("not-adjacent", "not_adjacent", 0, place_action(["red", "red"], [[0, -4], [0, -2]])),
        ("occupied-start-symbol", "occupied", 0, place_action(["red", "red"], [[0, -5], [0, -4]])),
        ("not-in-rack", "not_in_rack", 0, place_action(["blue", "blue"], [[0, -4], [1, -4]])),
        ("bad-colour", "bad_colour", 0, place_action(["pink", "red"], [[0, -4], [1, -4]])),
        ("malformed-colors", "malformed", 0, {"type": "place", "colors": "red", "cells": [[0, -4], [1, -4]]}),
        (
            "malformed-cells",
            "malformed",
            0,
            {"type": "place", "colors": ["red", "red"], "cells": [[0, -4, 1], [1, -4]]},
        ),
        ("malformed-extra-field", "malformed", 0, {**place_action(["red", "red"], [[0, -4], [1, -4]]), "x": 1}),
        ("not-your-turn", "not_your_turn", 1, place_action(["red", "green"], [[0, -4], [1, -4]])),
        ("not-your-turn-system", "not_your_turn", None, place_action(["red", "red"], [[0, -4], [1, -4]])),
        ("unknown-action", "unknown_action", 0, {"type": "fly"}),
        ("wrong-phase-swap", "wrong_phase", 0, {"type": "swap", "accept": True}),
        ("system-only-timeout", "system_only", 0, {"type": "timeout"}),
    ]
    for name, code, seat, action in refusals:
        c = IngeniousCase(
            f"refused-{name}",
            f"Error codes ({r}): this action is refused with {code!r} and changes nothing.",
            2,
            {"shuffle": False},
        )
        c.place(seat, action, code)
        c.place(0, place_action(["red", "red"], [[0, -4], [1, -4]]))  # the game goes on as before
        cases.append(c)

    def exactly_18(case: IngeniousCase, action: Action) -> bool:
        return bool(reaching(case, action, 18, exact=True))

    def over_18(case: IngeniousCase, action: Action) -> bool:
        return bool(reaching(case, action, 18, exact=False))

    def two_at_18(case: IngeniousCase, action: Action) -> bool:
        return len(reaching(case, action, 18)) == 2

    def chain(case: IngeniousCase, action: Action) -> bool:
        return bonus_placement(case) and bool(reaching(case, action, 18))

    def at_18_already(case: IngeniousCase, action: Action) -> bool:
        view = case.view
        track = view["scores"][view["to_act"][0]]
        return any(track[col] == 18 and g > 0 for col, g in gain_of(case, action).items()) and not reaching(
            case, action, 18
        )

    standard = [
        (
            "bonus-reaching-exactly-18",
            "a colour reaching exactly 18 earns an immediate extra placement from the current rack, before refilling",
            exactly_18,
        ),
        (
            "bonus-over-18-excess-lost",
            "a colour stops at 18; the excess is lost; reaching 18 gives one extra placement",
            over_18,
        ),
        ("bonus-two-colours-reach-18", "two colours reaching 18 with one tile give two extra placements", two_at_18),
        (
            "bonus-chain",
            "a bonus placement that brings another colour to 18 earns another bonus (bonuses chain)",
            chain,
        ),
        ("no-bonus-at-18-already", "points in a colour already at 18 are lost and give no bonus", at_18_already),
    ]
    for players in (2, 3, 4):
        for name, text, pred in standard:
            if players != 2 and name not in ("bonus-reaching-exactly-18", "bonus-two-colours-reach-18"):
                continue
            cases.append(
                ingenious_until(
                    f"{name}-{players}-players",
                    f"Turn flow ({r}), {players} players: {text}.",
                    players,
                    "standard",
                    pred,
                    then=1,
                )
            )

    for variant, players in (("solo", 1), ("teams", 4)):
        double = [
            (
                "double-track-reaching-18-stops-there",
                "a scoring that reaches 18 stops there, the excess is lost, and the extra placement follows",
                lambda case, action: bool(reaching(case, action, 18, exact=False)),
            ),
            (
                "double-track-reaching-exactly-18",
                "reaching exactly 18 gives the extra placement",
                lambda case, action: bool(reaching(case, action, 18, exact=True)),
            ),
            (
                "double-track-later-scoring-moves-on-from-18",
                "only a later scoring moves a colour from 18 along the second board",
                lambda case, action: any(
                    case.view["scores"][case.view["to_act"][0]][col] == 18 and g > 0
                    for col, g in gain_of(case, action).items()
                ),
            ),
            (
                "double-track-double-tile-scores-symbol-by-symbol",
                "a tile showing one colour twice scores it symbol by symbol: the first symbol stops at 18 "
                "with the extra placement, and the second moves the colour on along the second board",
                double_tile_passing_18,
            ),
            (
                "double-track-reaching-36",
                "reaching 36 on the second board gives a second extra placement; points beyond 36 are lost",
                lambda case, action: bool(reaching(case, action, 36)),
            ),
        ]
        for name, text, pred in double:
            cases.append(
                ingenious_until(
                    f"{name}-{variant}", f"The double track ({r}), {variant}: {text}.", players, variant, pred, then=1
                )
            )

    for variant, players in (("standard", 2), ("standard", 3), ("standard", 4), ("solo", 1), ("teams", 4)):
        c = IngeniousCase(
            f"game-ends-when-no-tile-fits-{variant}-{players}-players",
            f"End and winner ({r}), {variant}, {players} players: the game ends when no two adjacent "
            "cells are empty (the board can never be completely full: every board has an odd number "
            "of free cells); the highest lowest colour wins, compared colour by colour upwards.",
            players,
            ingenious_options(variant, players),
        )
        while not c.view["over"]:
            c.place(c.view["to_act"][0], c.greedy())
        result = c.engine.view(c.state, None)["result"]
        keys = {s: sorted(c.view["scores"][s].values()) for s in range(players)}
        best = max(keys.values())
        c.check(result["reason"] == "board_full", "board full")
        c.check(result["winners"] == [s for s in range(players) if keys[s] == best], "ranking")
        c.steps[-1]["view"] = {**c.steps[-1].get("view", {}), "result": result}
        c.act(0, place_action(["red", "red"], [[0, 0], [1, 0]]), "game_over")
        cases.append(c)

    for bag_seed in range(10):
        path = capping_path(bag_seed)
        if path is not None:
            break
    assert path is not None, "no bag order lets a player cap every colour"
    c = IngeniousCase(
        "game-ends-at-once-with-every-colour-at-18",
        f"End and winner ({r}): the game ends at once when a player has every colour at 18, and "
        "that player wins alone (seat 0 here, helped by seat 1's tiles).",
        2,
        ingenious_options("standard", bag_seed),
    )
    for seat, action in path:
        c.place(seat, action)
    result = c.engine.view(c.state, None)["result"]
    c.check(result["reason"] == "all_colours_capped" and result["winners"] == [0], "capped")
    c.check(all(v == 18 for v in c.view["scores"][0].values()), "all 18")
    c.steps[-1]["view"] = {**c.steps[-1].get("view", {}), "result": result}
    c.act(1, place_action(["red", "red"], [[0, 0], [1, 0]]), "game_over")
    cases.append(c)

    def swapped(case: IngeniousCase, before: dict[str, Any]) -> None:
        seat = before["seat"]
        old = before["seat_view"]["rack"]
        bag = case.setup["options"]["bag"]
        drawn = 120 - before["view"]["bag_count"] + case.returned - len(old)  # draws so far
        after = case.seat_view(seat)
        case.check(before["seat_view"]["swap_offer"] is True, "offered")
        low = min(before["view"]["scores"][seat].values())
        lows = {c for c, v in before["view"]["scores"][seat].items() if v == low}
        case.check(len(lows) >= 2 and not any(set(t) & lows for t in old), "no tile shows a tied lowest colour")
        case.check(after["bag_count"] == before["view"]["bag_count"] - 6 + len(old), "bag count")
        case.check(
            sorted(map(sorted, after["rack"])) == sorted(map(sorted, bag[drawn : drawn + 6])), "six from the front"
        )
        case.steps[-1]["view_of"] = seat
        case.steps[-1]["view"] = {"rack": after["rack"], "bag_count": after["bag_count"]}

    def kept(case: IngeniousCase, before: dict[str, Any]) -> None:
        seat = before["seat"]
        old = before["seat_view"]["rack"]
        after = case.seat_view(seat)
        case.check(after["rack"][: len(old)] == old and len(after["rack"]) == 6, "refilled, old tiles kept")
        case.check(after["log"][-1]["type"] == "keep" or any(e["type"] == "keep" for e in after["log"][-3:]), "keep")
        case.steps[-1]["view_of"] = seat
        case.steps[-1]["view"] = {"rack": after["rack"], "bag_count": after["bag_count"]}

    for players in (2, 4):
        for how, action, test in (
            ("accept", {"type": "swap", "accept": True}, swapped),
            ("decline", {"type": "swap", "accept": False}, kept),
            ("timeout-declines", {"type": "timeout"}, kept),
        ):
            cases.append(
                ingenious_until(
                    f"exchange-tied-lowest-colours-{how}-{players}-players",
                    f"Turn flow and timeouts ({r}): when no remaining tile shows any of the (tied) "
                    "lowest colours the player is offered an exchange. Accepting draws six new tiles from "
                    "the bag's front before the old ones go back, so none is drawn back; declining (or "
                    "the system's timeout) keeps the tiles and refills the rack to 6.",
                    players,
                    "standard",
                    tied_swap,
                    instead=action,
                    check=test,
                )
            )
    return cases


# --- Genius Idea ----------------------------------------------------------------------------

WORDS = [f"w{i:03d}" for i in range(150)]


def w(i: int) -> str:
    return f"w{i:03d}"


class GeniusCase(Case):
    """A fixed deal: deck ``w000 ...`` unshuffled, so seat s holds w(10s) .. w(10s + 9)."""

    def __init__(self, cid: str, rule: str, players: int, seed: int = 0, **options: Any) -> None:
        opts = {"words": WORDS, "shuffle": False, **options}
        super().__init__("genius-idea", cid, rule, players, opts, seed)

    def prepare_all(self) -> None:
        """Every seat to prepare: answer = its first card, hints = its next five, in order."""
        for seat in list(self.view["to_act"]):
            hand = self.seat_view(seat)["hand"]
            self.act(seat, {"type": "prepare", "answer": hand[0], "hints": hand[1:6]})

    def do(self, seat: int | None, kind: str, refused: str | None = None, **fields: Any) -> dict[str, Any]:
        return self.act(seat, {"type": kind, **fields}, refused)

    def act(
        self,
        seat: int | None,
        action: Action,
        refused: str | None = None,
        keys: tuple[str, ...] = (),
        view_of: int | None = None,
    ) -> dict[str, Any]:
        step = super().act(seat, action, refused, (), view_of)
        view = self.engine.view(self.state, view_of)
        extra = {k: view[k] for k in keys if k in view}
        for k in ("round", "riddler", "disruptor", "revealed", "wrong", "chances", "passed"):
            if k in view and k not in extra:
                extra[k] = view[k]
        if view["over"]:
            extra["result"] = view["result"]
        step["view"] = extra
        if self.through_results:
            self.ready_all(action)
        return step


def genius_idea_cases() -> list[Case]:
    r = "docs/rules/genius-idea.md"
    cases: list[Case] = []

    def case(cid: str, rule: str, players: int, **options: Any) -> GeniusCase:
        c = GeniusCase(cid, f"{rule} ({r})", players, **options)
        cases.append(c)
        return c

    # preparing
    c = case(
        "prepare-is-simultaneous",
        "Preparation: every seat prepares at once, in any order; the round starts once all have",
        3,
    )
    for seat in (2, 0):
        hand = c.seat_view(seat)["hand"]
        c.check(hand == [w(10 * seat + i) for i in range(10)], "seat s is dealt 10 cards in seat order")
        c.act(seat, {"type": "prepare", "answer": hand[0], "hints": hand[1:6]})
        c.check(seat not in c.view["to_act"] and c.view["phase"] == "prepare", "still preparing")
    c.act(1, {"type": "prepare", "answer": w(10), "hints": [w(11 + i) for i in range(5)]})
    c.check(c.view["phase"] == "reveal" and c.view["to_act"] == [1], "round 1: the Disruptor (seat 1) reveals")
    for cid, code, answer, hints in (
        ("prepare-refused-card-not-in-hand", "not_in_hand", w(0), [w(1), w(2), w(3), w(4), w(10)]),
        ("prepare-refused-duplicate-hints", "bad_riddle", w(0), [w(1), w(1), w(2), w(3), w(4)]),
        ("prepare-refused-answer-among-hints", "bad_riddle", w(0), [w(0), w(1), w(2), w(3), w(4)]),
        ("prepare-refused-four-hints", "bad_riddle", w(0), [w(1), w(2), w(3), w(4)]),
    ):
        c = case(cid, f"A riddle is one answer and five different hints from your own hand: refused with {code}", 3)
        c.do(0, "prepare", code, answer=answer, hints=hints)
        c.do(0, "prepare", answer=w(0), hints=[w(1), w(2), w(3), w(4), w(5)])
    c = case("prepare-only-once", "A seat prepares once; a second riddle is refused (not_your_turn)", 3)
    c.do(0, "prepare", answer=w(0), hints=[w(1), w(2), w(3), w(4), w(5)])
    c.do(0, "prepare", "not_your_turn", answer=w(6), hints=[w(1), w(2), w(3), w(4), w(5)])
    c.do(1, "reveal", "wrong_phase", hint=w(1))

    # roles, public area
    for players, first in ((3, 0), (4, 2), (6, 5)):
        c = case(
            f"roles-{players}-players-first-riddler-{first}",
            "Round r's Riddler is (first_riddler + r) mod n, the Disruptor the next seat, everyone else Solvers; "
            "the public area is the next 15 supply cards then the answer (shuffle false)",
            players,
            first_riddler=first,
        )
        c.prepare_all()
        v = c.view
        c.check(v["riddler"] == first and v["disruptor"] == (first + 1) % players, "roles")
        c.check(v["public"] == [w(10 * players + i) for i in range(15)] + [w(10 * first)], "public area")
        c.steps[-1]["view"]["public"] = v["public"]
        c.steps[-1]["view"]["roles"] = v["roles"]

    # revealing and ordering (3 players: Riddler 0, Disruptor 1, Solver 2; riddle w000 / w001-w005)
    c = case(
        "reveal-only-the-disruptor-an-unrevealed-hint",
        "Only the Disruptor reveals, and only one of the riddle's hints not yet revealed",
        3,
    )
    c.prepare_all()
    c.do(0, "reveal", "not_your_turn", hint=w(1))
    c.do(2, "reveal", "not_your_turn", hint=w(1))
    c.do(1, "reveal", "not_a_hint", hint=w(6))
    c.do(1, "reveal", hint=w(3))
    c.check(c.view["phase"] == "guess" and c.view["to_act"] == [2], "one hint: the order step is skipped")
    c.do(2, "pass")
    c.do(1, "reveal", "already_revealed", hint=w(3))
    c.do(1, "reveal", hint=w(5))
    c.check(c.view["phase"] == "order" and c.view["revealed"] == [w(3), w(5)], "new hints go last")
    c = case(
        "order-the-riddler-sends-every-revealed-hint-once",
        "From 2 revealed hints the Riddler orders them: every revealed hint exactly once, the same order allowed",
        3,
    )
    c.prepare_all()
    c.do(1, "reveal", hint=w(1))
    c.do(2, "pass")
    c.do(1, "reveal", hint=w(2))
    c.do(0, "order", "bad_order", hints=[w(2)])
    c.do(0, "order", "bad_order", hints=[w(2), w(2)])
    c.do(0, "order", "bad_order", hints=[w(2), w(3)])
    c.do(1, "order", "not_your_turn", hints=[w(2), w(1)])
    c.do(2, "guess", "wrong_phase", card=w(0))
    c.do(0, "order", hints=[w(2), w(1)])
    c.check(c.view["revealed"] == [w(2), w(1)] and c.view["phase"] == "guess", "reordered")
    c.do(2, "pass")
    c.do(1, "reveal", hint=w(3))
    c.do(0, "order", hints=[w(2), w(1), w(3)])  # the same order is allowed
    c.check(c.view["phase"] == "guess", "kept")

    # the race and scoring
    for hidden in (4, 3, 2, 1, 0):
        c = case(
            f"correct-guess-with-{hidden}-hints-hidden",
            f"A correct guess ends the round at once: Riddler and Solver each score 2 + unrevealed hints "
            f"(here 2 + {hidden})",
            3,
        )
        c.prepare_all()
        for k in range(5 - hidden):
            if k:
                c.do(2, "pass")
            c.do(1, "reveal", hint=w(1 + k))
            if k:
                c.do(0, "order", hints=c.view["revealed"])
        c.do(2, "guess", card=w(0))
        c.check(c.view["scores"] == [2 + hidden, 0, 2 + hidden], "2 + unrevealed each")
        c.check(c.view["round"] == 2 and c.view["riddler"] == 1 and c.view["phase"] == "reveal", "next round")

    c = case(
        "wrong-guess-disruptor-scores-and-card-is-dead",
        "A wrong guess costs a chance, gives the Disruptor 1 at once and marks the card wrong for everyone",
        4,
    )
    c.prepare_all()  # Riddler 0, Disruptor 1, Solvers 2 and 3 (2 chances each)
    c.do(1, "reveal", hint=w(1))
    c.do(2, "guess", card=w(40))
    c.check(c.view["scores"] == [0, 1, 0, 0] and c.view["chances"] == [None, None, 1, 2], "Disruptor +1")
    c.do(3, "guess", "already_wrong", card=w(40))
    c.do(3, "guess", "not_public", card=w(99))
    c.do(1, "guess", "not_your_turn", card=w(0))
    c.do(3, "guess", card=w(0))
    c.check(c.view["scores"] == [6, 1, 0, 6], "solved with 4 hidden")

    for players, chances in ((3, 3), (4, 2), (5, 1), (6, 1)):
        c = case(
            f"chances-{players}-players",
            f"Each Solver has {chances} chance(s) per riddle with {players} players; the round ends unsolved "
            f"when no Solver has one left",
            players,
        )
        c.prepare_all()
        c.check(c.view["chances"][2] == chances, "chances")
        c.do(1, "reveal", hint=w(1))
        card = 10 * players  # the first public card, never an answer
        solvers = [s for s in range(players) if s not in (0, 1)]
        for _ in range(chances):
            for seat in solvers:
                c.do(seat, "guess", card=w(card))
                card += 1
        c.check(
            c.view["round"] == 2 and c.view["scores"][1] == chances * len(solvers),
            "unsolved; Disruptor 1 per wrong guess",
        )

    c = case(
        "passes-bring-the-next-hint",
        "A pass holds until the next hint; when every Solver with chances left has passed, the next hint comes",
        4,
    )
    c.prepare_all()
    c.do(1, "reveal", hint=w(1))
    c.do(2, "pass")
    c.check(c.view["to_act"] == [3] and c.view["passed"] == [2], "a pass holds")
    c.do(2, "guess", "not_your_turn", card=w(0))
    c.do(3, "pass")
    c.check(c.view["phase"] == "reveal" and c.view["passed"] == [], "next hint, passes cleared")
    c.do(1, "reveal", hint=w(2))
    c.do(0, "order", hints=[w(1), w(2)])
    c.check(c.view["to_act"] == [2, 3], "both race again")

    c = case(
        "out-of-chances-solver-does-not-hold-up-the-next-hint",
        "A Solver out of chances no longer counts for the everyone-passed rule",
        4,
    )
    c.prepare_all()
    c.do(1, "reveal", hint=w(1))
    c.do(2, "guess", card=w(40))
    c.do(2, "guess", card=w(41))
    c.do(3, "pass")
    c.check(c.view["phase"] == "reveal", "the next hint comes at once")

    c = case(
        "no-pass-with-all-five-hints-out",
        "With all 5 hints out no one may pass (no_pass); the round ends unsolved when chances run out",
        3,
    )
    c.prepare_all()
    for k in range(5):
        if k:
            c.do(2, "pass")
        c.do(1, "reveal", hint=w(1 + k))
        if k:
            c.do(0, "order", hints=c.view["revealed"])
    c.do(2, "pass", "no_pass")
    for k in range(3):
        c.do(2, "guess", card=w(30 + k))
    c.check(c.view["round"] == 2 and c.view["scores"] == [0, 3, 0], "unsolved")

    c = case(
        "worked-example-riddler-3-solver-3-disruptor-2",
        "Worked example: 4 hints out, two wrong guesses, then a Solver finds the answer: Riddler 3, that "
        "Solver 3, the Disruptor 2",
        5,
    )
    c.prepare_all()  # Riddler 0, Disruptor 1, Solvers 2, 3, 4 with 1 chance each
    for k in range(4):
        if k:
            for seat in (2, 3, 4):
                c.do(seat, "pass")
        c.do(1, "reveal", hint=w(1 + k))
        if k:
            c.do(0, "order", hints=c.view["revealed"])
    c.do(2, "guess", card=w(50))
    c.do(3, "guess", card=w(51))
    c.do(4, "guess", card=w(0))
    c.check(c.view["scores"] == [3, 2, 0, 0, 3], "worked example")

    c = case(
        "simultaneous-guesses-in-the-order-applied",
        "Guesses that arrive together are settled in the order applied: after a correct one the round is "
        "over and a later guess is refused",
        4,
    )
    c.prepare_all()
    c.do(1, "reveal", hint=w(1))
    c.do(3, "guess", card=w(0))
    c.do(2, "guess", "wrong_phase", card=w(0))
    c.check(c.view["scores"] == [6, 0, 0, 6], "seat 3 first")

    for tie in (False, True):
        c = case(
            "competitive-end-tie-shares" if tie else "competitive-end-most-points-wins",
            "Competitive ends after every player was Riddler once; most points wins, ties share",
            3,
        )
        c.prepare_all()
        for rnd in range(3):
            riddler, disruptor = rnd, (rnd + 1) % 3
            solver = (rnd + 2) % 3
            c.do(disruptor, "reveal", hint=w(10 * riddler + 1))
            if tie or rnd < 2:
                c.do(solver, "guess", card=w(10 * riddler))  # solved with 4 hints hidden: 6 each
            else:
                for k in range(3):  # unsolved: the Disruptor (seat 0) gets 1 per wrong guess
                    c.do(solver, "guess", card=w(30 + 15 * rnd + k))
        # tie: every round solved, [12, 12, 12]; else rounds 1 and 2 solved, round 3 unsolved
        expected = ([12, 12, 12], [0, 1, 2]) if tie else ([15, 6, 6], [0])
        c.check(c.view["over"] and c.view["round"] == 3, "over after 3 rounds")
        c.check((c.view["scores"], c.view["result"]["winners"]) == expected, "most points wins, ties share")
        c.do(0, "guess", "game_over", card=w(0))

    # co-op
    for seed in (1, 2, 3):
        c = case(
            f"coop-reveals-in-prepared-order-seed-{seed}",
            "Co-op: no Disruptor; the engine reveals hints itself, with shuffle false in the order the "
            "Riddler prepared them, the same for every seed",
            2,
            seed=seed,
        )
        c.prepare_all()
        for k in range(4):
            c.check(c.view["revealed"] == [w(1 + i) for i in range(k + 1)], "the next hint in prepared order")
            c.do(1, "pass")
            c.do(0, "order", hints=c.view["revealed"])
        c.check(c.view["revealed"] == [w(1 + i) for i in range(5)], "prepared order")
        c.do(1, "pass", "no_pass")
        c.do(1, "guess", card=w(0))
        c.check(c.view["scores"] == [2, 2], "2 + 0 each")

    c = case("coop-wrong-guesses-score-nobody", "Co-op: a wrong guess costs a chance and scores nobody; 3 chances", 2)
    c.prepare_all()
    c.check(c.view["disruptor"] is None and c.view["to_act"] == [1], "no Disruptor; the Solver races")
    c.do(1, "guess", card=w(20))
    c.do(1, "guess", card=w(21))
    c.do(1, "guess", card=w(22))
    c.check(c.view["scores"] == [0, 0] and c.view["round"] == 2 and c.view["riddler"] == 1, "unsolved, nobody scores")

    for total, win in ((16, True), (14, False)):
        c = case(
            f"coop-team-total-{total}-{'wins' if win else 'loses'}",
            "Co-op: both seats score 2 + unrevealed on a solve; 4 rounds, each player Riddler twice, with a fresh "
            "hand of 10 before rounds 3 and 4; the pair wins with a team total above 15",
            2,
        )
        c.prepare_all()
        plan = [3, 3, None, None] if win else [3, 4, None, None]  # hints out when solved (None: unsolved)
        for rnd, out in enumerate(plan):
            if c.view["phase"] == "prepare":
                riddler = c.view["to_act"][0]
                hand = c.seat_view(riddler)["hand"]
                c.check(c.view["to_act"] == [rnd % 2] and len(hand) == 10, "a fresh hand for the second riddle")
                c.do(riddler, "prepare", answer=hand[0], hints=hand[1:6])
            riddler = c.view["riddler"]
            answer = c.seat_view(riddler)["answer"]
            solver = 1 - riddler
            if out is None:
                for card in [x for x in c.view["public"] if x != answer][:3]:
                    c.do(solver, "guess", card=card)
                continue
            while len(c.view["revealed"]) < out:
                c.do(solver, "pass")
                c.do(riddler, "order", hints=c.view["revealed"])
            c.do(solver, "guess", card=answer)
        c.check(c.view["over"] and c.view["result"]["team_total"] == total, "team total")
        c.check(c.view["result"]["winners"] == ([0, 1] if win else []), "above 15 wins")

    for players, mode in ((2, "coop"), (3, "competitive")):
        c = case(
            f"mode-auto-{players}-players-plays-{mode}", "Mode auto: 2 players play co-op, 3-6 competitive", players
        )
        c.prepare_all()
        c.check(c.view["disruptor"] is None if mode == "coop" else c.view["disruptor"] == 1, mode)
        c.steps[-1]["view"]["mode"] = c.view["mode"]

    c = case(
        "coop-second-riddle-from-ten-fresh-cards",
        "Co-op: before rounds 3 and 4 that round's Riddler draws the next 10 supply cards and prepares alone",
        2,
    )
    c.prepare_all()
    c.do(1, "guess", card=w(0))
    c.do(0, "guess", card=w(10))
    hand = c.seat_view(0)["hand"]
    c.check(hand == [w(50 + i) for i in range(10)] and c.view["to_act"] == [0], "deal 20, two areas of 15: w050..w059")
    c.act(0, {"type": "prepare", "answer": w(59), "hints": [w(50 + i) for i in range(5)]})
    c.check(c.view["public"] == [w(60 + i) for i in range(15)] + [w(59)], "public area after the fresh hand")
    c.steps[-2]["view"]["hand"] = hand
    c.steps[-2]["view_of"] = 0
    c.steps[-1]["view"]["public"] = c.view["public"]

    c = case(
        "timeout-guess-passes-every-solver-still-to-act",
        "Timeouts: in guess every Solver still to act passes, which brings the next hint",
        4,
    )
    c.prepare_all()
    c.do(1, "reveal", hint=w(4))
    c.do(3, "pass")
    c.do(None, "timeout")
    c.check(c.view["phase"] == "reveal" and c.view["passed"] == [], "next hint")

    # timeouts and the system
    c = case(
        "timeout-reveal-without-shuffle-first-unrevealed",
        "Timeouts: reveal reveals a hint; with shuffle false the first unrevealed in prepared order",
        3,
    )
    c.prepare_all()
    c.do(1, "reveal", hint=w(2))
    c.do(2, "pass")
    c.do(None, "timeout")
    c.check(c.view["revealed"] == [w(2), w(1)], "w001 is the first unrevealed")
    c.do(None, "timeout")  # order: kept
    c.check(c.view["revealed"] == [w(2), w(1)] and c.view["phase"] == "guess", "order kept")
    c.do(None, "timeout")  # guess: everyone passes
    c.check(c.view["phase"] == "reveal", "passes bring the next hint")
    c = case(
        "timeout-guess-with-all-hints-out-ends-unsolved",
        "Timeouts: in guess with all 5 hints out the round ends unsolved",
        3,
    )
    c.prepare_all()
    for k in range(5):
        c.do(None, "timeout")  # reveal
        if k:
            c.do(None, "timeout")  # order
        if k < 4:
            c.do(None, "timeout")  # guess: pass
    c.do(None, "timeout")
    c.check(c.view["round"] == 2 and c.view["scores"] == [0, 0, 0], "unsolved")
    c = case(
        "system-and-seat-refusals",
        "Only the system times out (system_only); the system can't make a player's move (not_your_turn); "
        "unknown types and bad shapes are refused",
        3,
    )
    c.do(0, "timeout", "system_only")
    c.do(None, "prepare", "not_your_turn", answer=w(0), hints=[w(1), w(2), w(3), w(4), w(5)])
    c.do(0, "fly", "unknown_action")
    c.do(0, "prepare", "malformed", answer=7, hints=[w(1), w(2), w(3), w(4), w(5)])
    c.act(0, ["prepare"], "malformed")  # type: ignore[arg-type]

    # the round's reveal (Riddler 0, Disruptor 1, Solver 2 solves round 1 after one hint)
    for cid, rule, timed in (
        (
            "results-wait-for-every-seat",
            "The round's reveal: a round that is not the last ends in results, which every seat sees; "
            "the next round starts once every seat has said ready",
            False,
        ),
        ("results-timeout-starts-the-next-round", "Timeouts: in results the next round starts for everyone", True),
    ):
        c = case(cid, rule, 3)
        c.through_results = False
        c.prepare_all()
        c.do(1, "reveal", hint=w(1))
        c.do(2, "guess", card=w(0))
        v = c.view
        c.check(v["phase"] == "results" and v["to_act"] == [0, 1, 2] and v["round"] == 1, "round 1's reveal")
        c.check(v["results"] == v["history"][-1] and v["results"]["solved_by"] == 2, "the round in full")
        c.check("public" not in v and "hints" not in c.seat_view(1), "nothing of round 2 is dealt")
        c.steps[-1]["view"]["results"] = v["results"]
        c.do(2, "ready")
        c.do(2, "ready", "not_your_turn")
        c.do(0, "guess", "wrong_phase", card=w(0))
        c.do(0, "ready", "malformed", now=True)
        if timed:
            c.do(None, "timeout")
        else:
            c.do(0, "ready")
            c.check(c.view["phase"] == "results" and c.view["to_act"] == [1], "still waiting for seat 1")
            c.do(1, "ready")
        c.check(c.view["phase"] == "reveal" and c.view["round"] == 2 and c.view["to_act"] == [2], "round 2")
    return cases


# --- Brainiac or IDIOT! ----------------------------------------------------------------------

B, I = "brainiac", "idiot"  # noqa: E741 - short names keep the fixed deals readable
REAL_CARD = [
    {"q": "What is the capital of France?", "a": ["Paris"]},
    {"q": "How many months are in a year?", "a": ["12"]},
    {"q": "What is the highest mountain on Earth?", "a": ["Mount Everest", "Everest"]},
    {"q": "Which band was John Lennon in?", "a": ["The Beatles"]},
]


def trivia_cards(count: int) -> list[list[dict[str, Any]]]:
    """Card 0 is REAL_CARD; card c > 0 asks "Card c question j?" and accepts "ans c{c} q{j}"."""
    return [REAL_CARD] + [
        [{"q": f"Card {c} question {j}?", "a": [f"ans c{c} q{j}"]} for j in range(4)] for c in range(1, count)
    ]


class BrainiacCase(Case):
    """A fixed deal: trivia card s to seat s, the deck from card n on, WHOAMI as given."""

    def __init__(self, cid: str, rule: str, players: int, whoami: list[str], cards: int = 0, **options: Any) -> None:
        opts = {"shuffle": False, "cards": trivia_cards(cards or 2 * players + 2), "whoami": whoami, **options}
        super().__init__("brainiac", cid, rule, players, opts)

    def act(
        self,
        seat: int | None,
        action: Action,
        refused: str | None = None,
        keys: tuple[str, ...] = (),
        view_of: int | None = None,
    ) -> dict[str, Any]:
        step = super().act(seat, action, refused, (), view_of)
        view = self.engine.view(self.state, view_of)
        extra = {
            k: view[k]
            for k in ("round", "genius", "tiebreak", "accuser", "accusations", "verdicts", "revealed")
            if k in view
        }
        extra.update({k: view[k] for k in keys})
        step["view"] = extra
        if self.through_results:
            self.ready_all(action)
        return step

    def keep_all(self) -> None:
        for seat in range(self.view["players"]):
            self.act(seat, {"type": "keep"})

    def ask(self, index: int) -> None:
        self.act(self.view["genius"], {"type": "ask", "index": index})

    def answers(self, texts: dict[int, str]) -> None:
        for seat, text in texts.items():
            self.act(seat, {"type": "answer", "text": text})

    def judge(self, overrides: dict[str, bool] | None = None) -> None:
        self.act(self.view["genius"], {"type": "judge", "overrides": overrides or {}})

    def wrong_round(self) -> None:
        """The first unasked question (by timeout), every answer wrong, nobody accused."""
        self.act(None, {"type": "timeout"})
        self.answers({p: "x" for p in range(self.view["players"]) if p != self.view["genius"]})
        self.judge()
        self.accuse({})

    def accuse(self, targets: dict[int, int | None]) -> None:
        """Each accuser in turn (the view's ``accuser``) accuses as ``targets`` says."""
        while self.view["phase"] == "accuse":
            who = self.view["accuser"]
            self.act(who, {"type": "accuse", "target": targets.get(who)})


def brainiac_cases() -> list[Case]:
    r = "docs/rules/brainiac.md"
    cases: list[Case] = []

    def case(cid: str, rule: str, players: int, whoami: list[str], **options: Any) -> BrainiacCase:
        c = BrainiacCase(cid, f"{rule} ({r})", players, whoami, **options)
        cases.append(c)
        return c

    allb = [B] * 60

    # trades
    c = case(
        "trade-is-simultaneous-then-in-seat-order",
        "Start and trades: everyone decides once, hidden; then each trader in seat order discards and takes "
        "the deck's next card",
        4,
        allb,
    )
    c.act(3, {"type": "trade"})
    c.act(3, {"type": "keep"}, "not_your_turn")
    c.act(1, {"type": "trade"})
    c.act(0, {"type": "keep"})
    c.check(c.view["to_act"] == [2] and c.view["phase"] == "trade", "waiting for seat 2")
    c.act(2, {"type": "keep"})
    c.check(c.view["phase"] == "ask" and c.view["genius"] == 0 and c.view["deck_count"] == 10 - 4 - 2, "two trades")
    for seat, card in ((1, 4), (3, 5)):
        c.check(c.seat_view(seat)["card"][0]["q"] == f"Card {card} question 0?", "cards 4 and 5 in seat order")
    c.steps[-1]["view"]["deck_count"] = c.view["deck_count"]
    c.steps[-1]["view"]["traded"] = c.view["traded"]
    c.act(1, {"type": "trade"}, "wrong_phase")
    c = case("trade-timeout-keeps", "Timeouts: in trade everyone undecided keeps their card", 3, allb)
    c.act(0, {"type": "trade"})
    c.act(None, {"type": "timeout"})
    c.check(c.view["traded"] == [True, False, False] and c.view["phase"] == "ask", "kept")
    c.steps[-1]["view"]["traded"] = c.view["traded"]

    # asking
    c = case(
        "ask-only-the-genius-an-unasked-question",
        "Asking: the Genius asks an unasked question of their own card; a question once asked stays asked",
        3,
        allb,
    )
    c.keep_all()
    c.act(1, {"type": "ask", "index": 0}, "not_your_turn")
    c.act(0, {"type": "ask", "index": 4}, "malformed")
    c.act(0, {"type": "ask", "index": 2})
    c.check(c.view["phase"] == "answer" and c.view["to_act"] == [1, 2], "answers")
    c.steps[-1]["view"]["question"] = c.view["question"]
    c.answers({1: "x", 2: "y"})
    c.judge()
    c.accuse({})
    for _ in range(2):  # rounds 2 and 3: seats 1 and 2 are Genius
        c.wrong_round()
    c.check(c.view["genius"] == 0 and c.view["round"] == 4, "seat 0 again")
    c.act(0, {"type": "ask", "index": 2}, "already_asked")
    c.act(None, {"type": "timeout"})
    c.check(c.view["question"]["index"] == 0, "ask timeout: the first unasked")
    c.steps[-1]["view"]["question"] = c.view["question"]

    # answering and the judge
    judged = [
        ("exact", 0, "Paris", True),
        ("case-and-spaces", 0, "  paris  ", True),
        ("leading-article", 0, "The Paris", True),
        ("near-miss-one-edit", 0, "Pariss", True),
        ("first-letter-must-match", 0, "Baris", False),
        ("number-word", 1, "twelve", True),
        ("numbers-exact", 1, "13", False),
        ("listed-alternative", 2, "Everest", True),
        ("article-in-accepted", 3, "Beatles", True),
        ("blank", 0, "", False),
    ]
    for name, index, text, right in judged:
        c = case(
            f"judge-{name}",
            f"Judging: {text!r} is {'right' if right else 'wrong'} for {REAL_CARD[index]['a']} "
            "(normalised, near misses, numbers exact); a right answer scores 2 at once",
            3,
            allb,
        )
        c.keep_all()
        c.ask(index)
        c.answers({1: text, 2: "zzz"})
        c.judge()
        c.check(c.view["verdicts"]["final"] == [None, right, False], "verdict")
        c.check(c.view["scores"] == [0, 2 if right else 0, 0], "+2 at once, before the accusations")

    c = case(
        "answer-is-final-hidden-and-at-most-200-characters",
        "Answering: simultaneous and hidden, final once sent, at most 200 characters; the Genius doesn't answer",
        3,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.act(1, {"type": "answer", "text": "x" * 201}, "answer_too_long")
    c.act(0, {"type": "answer", "text": "Paris"}, "not_your_turn")
    c.act(1, {"type": "answer", "text": "Lyon"})
    c.act(1, {"type": "answer", "text": "Paris"}, "not_your_turn")
    c.check(c.view["answers"] is None and c.view["answered"] == [False, True, False], "hidden")
    c.steps[-1]["view"]["answered"] = c.view["answered"]
    c.act(None, {"type": "timeout"})
    c.check(c.view["phase"] == "judge" and c.view["answers"] == [None, "Lyon", ""], "missing answers are blank")
    c.steps[-1]["view"]["answers"] = c.view["answers"]
    c.act(None, {"type": "timeout"})  # judge: the engine's verdicts stand
    c.check(c.view["phase"] == "accuse" and c.view["verdicts"]["final"] == [None, False, False], "confirmed")

    c = case(
        "judge-overrides",
        "Judging: the Genius overrules any verdict (true = right); an override equal to the verdict changes nothing",
        3,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Lyon", 2: "Paris"})
    c.act(0, {"type": "judge", "overrides": {"0": True}}, "bad_seat")
    c.act(0, {"type": "judge", "overrides": {"7": True}}, "bad_seat")
    c.act(0, {"type": "judge", "overrides": {"1": "yes"}}, "malformed")
    c.act(1, {"type": "judge", "overrides": {}}, "not_your_turn")
    c.act(0, {"type": "judge", "overrides": {"1": True, "2": True}})
    c.check(c.view["round"] == 2 and c.view["scores"] == [0, 2, 2], "both right: no accusations, next round")
    c = case(
        "judge-override-to-wrong",
        "Judging: an override to wrong takes the +2 away and makes the answerer accusable",
        3,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Paris", 2: "Paris"})
    c.judge({"2": False})
    c.check(c.view["scores"] == [0, 2, 0] and c.view["accuser"] == 0, "seat 2 wrong")

    # accusations and scoring (whoami dealt from the Genius's left: round 1, Genius 0 -> seats 1, 2, 3,
    # then the Genius's own card, set aside)
    c = case(
        "accusations-in-order-from-the-genius",
        "Accusations: in order from the Genius round the table, one wrong answerer or no one; never "
        "yourself, the Genius or a right answerer",
        4,
        [B, B, B] * 20,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "Paris", 3: "y"})
    c.judge()
    c.check(c.view["accuser"] == 0, "the Genius first")
    c.act(0, {"type": "accuse", "target": 0}, "bad_target")
    c.act(0, {"type": "accuse", "target": 2}, "bad_target")
    c.act(1, {"type": "accuse", "target": 3}, "not_your_turn")
    c.act(0, {"type": "accuse", "target": "1"}, "malformed")
    c.act(0, {"type": "accuse", "target": None})
    c.act(1, {"type": "accuse", "target": 1}, "bad_target")
    c.act(1, {"type": "accuse", "target": 3})
    c.check(c.view["accuser"] == 2, "then seat 2")
    c.act(2, {"type": "accuse", "target": 1})
    c.act(3, {"type": "accuse", "target": 1})
    # seat 1: -1 (accused 3) +1 +1 (accused by 2 and 3); seat 2: +2 -1; seat 3: +1 -1
    c.check(c.view["round"] == 2 and c.view["scores"] == [0, 1, 1, 0], "accusations scored")
    c = case(
        "nobody-wrong-skips-the-accusations",
        "Accusations: when nobody answered wrong they are skipped entirely",
        3,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Paris", 2: "paris"})
    c.judge()
    c.check(c.view["round"] == 2 and c.view["phase"] == "ask" and c.view["scores"] == [0, 2, 2], "next round")
    c = case(
        "accuser-with-nobody-to-accuse-passes",
        "Accusations: a player whose only wrong answerer is themselves passes automatically",
        3,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "Paris"})
    c.judge()
    c.act(0, {"type": "accuse", "target": None})
    c.check(c.view["accuser"] == 2, "seat 1 has nobody but itself: skipped")
    c.act(2, {"type": "accuse", "target": None})
    c = case("unaccused-idiot-scores-3", "Scoring: an IDIOT nobody accused scores 3", 3, [I, B] * 30)
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "y"})
    c.judge()
    c.accuse({})
    c.check(c.view["scores"] == [0, 3, 0], "seat 1 was the IDIOT")
    c = case(
        "correct-accuser-scores-2",
        "Scoring: each correct accuser scores 2, and the accused IDIOT gets no 3",
        3,
        [I, B] * 30,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "y"})
    c.judge()
    c.accuse({0: 1, 2: 1})
    c.check(c.view["scores"] == [2, 0, 2], "two correct accusers")
    c = case(
        "wrongly-accused-betty-gains-3",
        "Scoring, the published example: three players wrongly accuse Betty: each loses 1 (never below 0), "
        "Betty gains 3",
        4,
        [B] * 60,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "Paris", 3: "Paris"})
    c.judge()
    c.accuse({0: 1, 2: 1, 3: 1})
    c.check(c.view["scores"] == [0, 3, 1, 1], "Betty (seat 1) +3; 2 and 3: +2 -1; the Genius 0 - 1 stops at 0")
    c = case(
        "floor-sum-then-apply",
        "Scoring: a round's changes are summed per player, then applied, and a score never goes below 0: at "
        "0, -1 and +1 in one round stays 0",
        4,
        [B] * 60,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "y", 3: "z"})
    c.judge()
    c.accuse({0: None, 1: 2, 2: 1, 3: None})
    c.check(c.view["scores"] == [0, 0, 0, 0], "seats 1 and 2: -1 +1 each, from 0")
    c = case(
        "idiot-who-answers-right-scores-nothing",
        "Read-out: an IDIOT who answers right is revealed and scores nothing that round, can't be accused, "
        "but their accusation counts for the others",
        3,
        [I, B] * 30,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Paris", 2: "y"})
    c.judge()
    c.check(c.view["revealed"] == [None, I, None] and c.view["scores"] == [0, 0, 0], "revealed, no +2")
    c.act(0, {"type": "accuse", "target": 1}, "bad_target")
    c.act(0, {"type": "accuse", "target": None})
    c.act(1, {"type": "accuse", "target": 2})
    c.check(c.view["scores"] == [0, 0, 1], "the wrongly accused gains 1; the IDIOT loses nothing")
    c = case(
        "idiot-overridden-right-scores-nothing",
        "Read-out: an IDIOT the Genius overrules to right is treated like one who answered right",
        3,
        [I, B] * 30,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Lyon", 2: "Paris"})
    c.judge({"1": True})
    c.check(c.view["scores"] == [0, 0, 2] and c.view["round"] == 2, "no +2 for the IDIOT; nobody wrong: next round")
    c.check(c.view["history"][-1]["items"][1][0]["kind"] == "idiot_answered_right", "explained")
    c = case("accuse-timeout-accuses-no-one", "Timeouts: in accuse the current accuser accuses no one", 3, [I, B] * 30)
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "y"})
    c.judge()
    for _ in range(3):
        c.act(None, {"type": "timeout"})
    c.check(c.view["scores"] == [0, 3, 0], "nobody accused the IDIOT")

    # rounds, identities, end
    c = case(
        "whoami-dealt-from-the-geniuses-left",
        "Identities: each round every player gets the next WHOAMI card, starting left of the Genius; the "
        "Genius's own card is set aside unseen and turned over at the scoring",
        3,
        [I, B, I, I, B, I] * 10,
    )
    c.keep_all()
    c.check(
        c.seat_view(1)["identity"] == I and c.seat_view(2)["identity"] == B and c.seat_view(0)["identity"] is None,
        "round 1",
    )
    c.check(c.view["whoami"]["left"] == 57 and c.view["whoami"]["idiots_seen"] == 0, "3 dealt, the Genius's unseen")
    c.steps[-1]["view_of"] = 1
    c.steps[-1]["view"]["identity"] = I
    c.steps[-1]["view"]["whoami"] = c.view["whoami"]
    for _ in range(2):
        c.wrong_round()
    c.check(
        c.view["history"][0]["genius_card"] == I and c.view["history"][1]["genius_card"] == I,
        "the Geniuses' cards, turned over",
    )
    c.check(c.view["scores"] == [0, 3, 3], "round 1: seat 1 IDIOT +3; round 2 (Genius 1): seat 2 IDIOT +3, seat 0 B")
    c = case(
        "whoami-reshuffles-after-the-last-idiot",
        "Identities: once every IDIOT card of the deck has been revealed the deck comes back together "
        "(shuffle false: in the given order)",
        3,
        [I, B, B, B, I, B, B, B],
    )
    c.keep_all()
    left = []
    for _ in range(3):
        c.wrong_round()
        c.steps[-1]["view"]["whoami"] = c.view["whoami"]
        left.append(c.view["whoami"]["left"])
    # 3 cards a round (the Genius's too), counted after the next round's deal; the second IDIOT
    # is dealt in round 2, so after it all 8 come back before round 3's deal (without that: 0
    # left after round 3's deal)
    c.check(left == [2, 5, 2], f"whoami left {left}")
    c = case(
        "whoami-running-short-reshuffles",
        "Identities: before a deal, if fewer cards remain than the deal needs, all cards come back together",
        3,
        [B, B, B, B],
    )
    c.keep_all()
    left = []
    for _ in range(2):
        c.wrong_round()
        c.steps[-1]["view"]["whoami"] = c.view["whoami"]
        left.append(c.view["whoami"]["left"])
    c.check(left == [1, 1], "4 cards, 3 a deal (one per player): 1 left is too few, so all 4 come back first")

    c = case(
        "readout-and-accuse-order-from-the-genius",
        "Read-out from the Genius's left; accusations from the Genius round the table; round 1's Genius is "
        "first_genius and the Genius moves one seat a round",
        4,
        allb,
        first_genius=2,
    )
    c.keep_all()
    c.ask(1)
    c.check(
        c.view["genius"] == 2 and c.view["readout_order"] == [3, 0, 1] and c.view["accuse_order"] == [2, 3, 0, 1],
        "orders",
    )
    c.steps[-1]["view"]["readout_order"] = c.view["readout_order"]
    c.steps[-1]["view"]["accuse_order"] = c.view["accuse_order"]
    c.answers({3: "a", 0: "b", 1: "c"})
    c.judge()
    c.check(c.view["accuser"] == 2, "the Genius accuses first")
    c.accuse({})
    c.check(c.view["genius"] == 3 and c.view["round"] == 2, "the Genius moves on")

    c = case(
        "mixed-accusations",
        "Scoring: an IDIOT accused by anyone gets no 3; the correct accuser +2, the wrong accuser -1 and the "
        "Brainiac they accused +1",
        4,
        [I, B, B] * 20,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "y", 3: "Paris"})
    c.judge()
    c.accuse({0: 1, 1: 2, 2: None, 3: 2})
    # seat 1 IDIOT accused by 0: 0 +2, 1 no +3; 1 -> 2 wrong: 1 -1 (0 floor), 2 +1; 3 -> 2 wrong: 3 +2 -1, 2 +1
    c.check(c.view["scores"] == [2, 0, 2, 1], "mixed")
    c = case(
        "an-idiot-may-accuse-an-idiot",
        "Accusations: IDIOTs accuse too; an unaccused IDIOT who accuses another IDIOT scores 3 + 2",
        3,
        [I, I] * 30,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "y"})
    c.judge()
    c.accuse({1: 2})
    c.check(c.view["scores"] == [0, 5, 0], "3 + 2")
    c = case(
        "round-history-explains-every-change",
        "Scoring: each round is recorded with its reasons per seat; a seat's items add up to its change",
        3,
        [I, B] * 30,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "x", 2: "Paris"})
    c.judge()
    c.accuse({0: None, 2: 1})
    last = c.view["history"][-1]
    c.check(
        last["changes"] == [0, 0, 4]
        and [[i["kind"] for i in items] for items in last["items"]]
        == [[], [], ["correct_answer", "correct_accusation"]],
        "history",
    )
    c.check(
        all(sum(i["points"] for i in items) == ch for items, ch in zip(last["items"], last["changes"], strict=True)),
        "adds up",
    )
    c = case(
        "judge-timeout-confirms-the-engine-verdicts", "Timeouts: in judge the engine's verdicts are confirmed", 3, allb
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "paris", 2: "rome"})
    c.act(None, {"type": "timeout"})
    c.check(c.view["scores"] == [0, 2, 0] and c.view["accuser"] == 0, "confirmed")
    c = case(
        "a-used-up-genius-card-is-replaced",
        "A Genius whose card has no unasked question left (only in a long tie-break) discards it and takes "
        "the deck's front card",
        3,
        allb,
    )
    c.keep_all()
    while c.view["round"] < 13:
        c.act(None, {"type": "timeout"})
    c.check(c.view["genius"] == 0 and c.seat_view(0)["card"][0]["q"] == "Card 3 question 0?", "card 3 from the deck")
    c.steps[-1]["view_of"] = 0
    c.steps[-1]["view"]["card"] = c.seat_view(0)["card"]

    for players in (3, 4):
        c = case(
            f"most-points-wins-after-the-last-round-{players}-players",
            f"End: {players} players play {players * 3 if players == 3 else players * 2} rounds (each player Genius "
            f"{3 if players == 3 else 2} times); the most points wins alone",
            players,
            allb,
        )
        c.keep_all()
        while not c.view["over"]:
            g = c.view["genius"]
            c.act(None, {"type": "timeout"})
            c.answers({p: "ans" if p != 1 else c.engine.accepted(c.state)[0] for p in range(players) if p != g})
            c.judge()
            c.accuse({})
        rounds = players * 3 if players == 3 else players * 2
        c.check(c.view["round"] == rounds and c.view["result"]["winners"] == [1], "seat 1 wins")
        c.act(0, {"type": "keep"}, "game_over")
    c = case(
        "tie-plays-on-one-round-at-a-time",
        "End and ties: several share the most after the last round, so play goes on one round at a time "
        "until one leads alone",
        3,
        allb,
    )
    c.keep_all()
    while c.view["round"] < 10 or c.view["phase"] != "ask":
        c.wrong_round()
    c.check(c.view["tiebreak"] and c.view["genius"] == 0 and not c.view["over"], "a tie-break round")
    c.act(None, {"type": "timeout"})
    c.answers({1: c.engine.accepted(c.state)[0], 2: "x"})
    c.judge()
    c.accuse({})
    c.check(c.view["over"] and c.view["result"]["winners"] == [1], "one leads alone")
    c = case(
        "sudden-death-ends-shared-after-60-tied-rounds",
        "End: after 60 tie-break rounds the tied leaders share the win (a tie nobody can break: no IDIOTs, "
        "every answer blank)",
        3,
        allb,
    )
    c.keep_all()
    while not c.view["over"]:
        c.act(None, {"type": "timeout"})
    c.check(c.view["round"] == 69 and c.view["result"]["winners"] == [0, 1, 2], "shared after round 9 + 60")
    c = case(
        "refusals",
        "Moves: unknown types, extra fields, a seat timing out and the system making a player's move are refused",
        3,
        allb,
    )
    c.act(0, {"type": "fly"}, "unknown_action")
    c.act(0, {"type": "keep", "x": 1}, "malformed")
    c.act(0, {"type": "timeout"}, "not_your_turn")
    c.act(None, {"type": "keep"}, "not_your_turn")
    c.act(0, {"type": "ask", "index": 0}, "wrong_phase")
    c.act(0, {"type": "judge", "overrides": {}}, "wrong_phase")

    # disputing a bot Genius's verdicts ("bot": true marks a bot's answer and judging)
    keys = ("dispute", "dispute_targets")
    c = case(
        "dispute-a-majority-of-the-other-people-overturns-a-bot-geniuses-verdict",
        "Disputing a bot Genius: after a bot Genius judges, the people who answered may dispute each other's "
        "verdicts before the accusations; a majority of the people other than the answerer overturns it",
        4,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Paris is the capital", 2: "Lyon"})
    c.act(3, {"type": "answer", "text": "Marseille", "bot": True})
    c.act(0, {"type": "judge", "overrides": {}, "bot": True}, keys=keys, view_of=2)
    c.check(c.view["phase"] == "dispute" and c.view["to_act"] == [1, 2], "the two people")
    c.check(c.seat_view(2)["dispute_targets"] == [1], "seat 2 may dispute seat 1's verdict")
    c.act(2, {"type": "dispute", "target": 1}, keys=keys)
    c.check(c.view["to_act"] == [1], "seat 2 has disputed all it can")
    c.act(1, {"type": "agree"}, keys=keys)
    c.check(
        c.view["phase"] == "accuse"
        and c.view["dispute"]["overturned"] == [1]
        and c.view["verdicts"]["final"] == [None, True, False, False]
        and c.view["scores"] == [0, 2, 0, 0],
        "overturned: right, +2 at the read-out",
    )
    c.accuse({})
    c.check(c.view["history"][-1]["disputes"] == [{"by": 2, "target": 1}], "recorded")

    c = case(
        "dispute-one-of-two-other-people-is-no-majority",
        "Disputing a bot Genius: with three people, one dispute of a verdict is not a majority of the two "
        "others, two are",
        5,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Lyon", 2: "Nice", 3: "Lille"})
    c.act(4, {"type": "answer", "text": "Marseille", "bot": True})
    c.act(0, {"type": "judge", "overrides": {}, "bot": True}, keys=keys)
    c.act(2, {"type": "dispute", "target": 1}, keys=keys)
    c.act(3, {"type": "dispute", "target": 2}, keys=keys)
    c.act(1, {"type": "dispute", "target": 2}, keys=keys)
    for seat in (1, 2, 3):
        c.act(seat, {"type": "agree"}, keys=keys)
    c.check(c.view["dispute"]["overturned"] == [2], "seat 2: two of two others; seat 1: one of two")
    c.check(c.view["verdicts"]["final"] == [None, False, True, False, False], "only seat 2 overturned")

    c = case(
        "dispute-refusals",
        "Disputing a bot Genius: never your own verdict, a bot's or the same one twice; only the people who "
        "answered dispute, and only after a bot Genius",
        4,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Lyon", 2: "Nice"})
    c.act(3, {"type": "answer", "text": "Marseille", "bot": "yes"}, "malformed")
    c.act(3, {"type": "answer", "text": "Marseille", "bot": True})
    c.act(1, {"type": "dispute", "target": 2}, "wrong_phase")
    c.act(0, {"type": "judge", "overrides": {}, "bot": True}, keys=keys)
    c.act(1, {"type": "dispute", "target": 1}, "bad_target")
    c.act(1, {"type": "dispute", "target": 3}, "bad_target")
    c.act(1, {"type": "dispute", "target": 0}, "bad_target")
    c.act(3, {"type": "dispute", "target": 1}, "not_your_turn")
    c.act(1, {"type": "dispute", "target": "2"}, "malformed")
    c.act(1, {"type": "agree", "x": 1}, "malformed")
    c.act(1, {"type": "agree"}, keys=keys)
    c.act(1, {"type": "dispute", "target": 2}, "not_your_turn")
    c.act(None, {"type": "timeout"}, keys=keys)
    c.check(c.view["phase"] == "accuse" and c.view["dispute"]["overturned"] == [], "timeout: nothing overturned")
    c = case(
        "no-dispute-after-a-person-genius",
        "Disputing a bot Genius: a person's verdicts as Genius are final",
        4,
        allb,
    )
    c.keep_all()
    c.ask(0)
    c.answers({1: "Lyon", 2: "Nice"})
    c.act(3, {"type": "answer", "text": "Marseille", "bot": True})
    c.act(0, {"type": "judge", "overrides": {}}, keys=keys)
    c.check(c.view["phase"] == "accuse" and c.view["dispute"] is None, "straight to the accusations")

    # the round's reveal
    for cid, rule, timed in (
        (
            "results-wait-for-every-seat",
            "The round's reveal: a round that is not the last ends in results, which every seat sees; "
            "the next round starts once every player has said ready",
            False,
        ),
        ("results-timeout-starts-the-next-round", "Timeouts: in results the next round starts for everyone", True),
    ):
        c = case(cid, rule, 3, [B, I] + [B] * 20)
        c.through_results = False
        c.keep_all()
        c.wrong_round()
        v = c.view
        c.check(v["phase"] == "results" and v["to_act"] == [0, 1, 2] and v["round"] == 1, "round 1's reveal")
        c.check(v["results"] == v["history"][-1] and v["results"]["identities"] == [None, B, I], "the round in full")
        c.check(all(c.seat_view(p)["identity"] is None for p in range(3)), "round 2's cards are not dealt")
        c.steps[-1]["view"]["results"] = v["results"]
        c.act(1, {"type": "ready"})
        c.act(1, {"type": "ready"}, "not_your_turn")
        c.act(1, {"type": "ask", "index": 0}, "wrong_phase")
        c.act(0, {"type": "ready", "now": True}, "malformed")
        if timed:
            c.act(None, {"type": "timeout"})
        else:
            c.act(0, {"type": "ready"})
            c.check(c.view["phase"] == "results" and c.view["to_act"] == [2], "still waiting for seat 2")
            c.act(2, {"type": "ready"})
        c.check(c.view["phase"] == "ask" and c.view["round"] == 2 and c.view["genius"] == 1, "round 2")
    return cases


def dump(game: str, cases: list[dict[str, Any]]) -> str:
    """The cases as JSON with one case header and one step per line (readable diffs)."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    parts = []
    for case in cases:
        head = one({k: v for k, v in case.items() if k != "steps"})[:-1]
        steps = ",\n  ".join(one(step) for step in case["steps"])
        parts.append(f'{head}, "steps": [\n  {steps}\n]}}')
    return f'{{"game": {one(game)}, "format": 1, "cases": [\n' + ",\n".join(parts) + "\n]}\n"


def main() -> None:
    only = sys.argv[1:]
    for game, build in (
        ("ingenious", ingenious_cases),
        ("genius-idea", genius_idea_cases),
        ("brainiac", brainiac_cases),
    ):
        if only and game not in only:
            continue
        cases = build()
        path = HERE / f"{game}.json"
        path.write_text(dump(game, [c.json() for c in cases]), encoding="utf-8")
        print(game, len(cases), "cases", path.stat().st_size // 1024, "KB")


if __name__ == "__main__":
    main()
