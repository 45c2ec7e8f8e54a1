"""A small game for testing the platform without the real games.

"Count to 21": seats take turns adding 1-3 to a shared counter; whoever reaches 21 wins.
Each seat also holds a secret number (hidden information, dealt from the in-state PRNG),
so tests can check that no frame leaks another seat's secret. A timeout adds 1 for the
player to act.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from geniusnight.engines.base import (
    BotSpec,
    GameInfo,
    IllegalAction,
    OptionSpec,
    Rng,
    check,
    read_json_option,
    require_type,
)

TARGET = 21


@dataclass(frozen=True)
class State:
    players: int
    counter: int
    turn: int
    secrets: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int | None
    rng: int
    target: int = TARGET


class CountGame:
    info = GameInfo(
        id="count21",
        title="Count to 21",
        min_players=2,
        max_players=4,
        summary="Add 1-3 in turn; reaching 21 wins.",
        options=(
            OptionSpec("target", "int", TARGET, "Target", min=5, max=99),
            OptionSpec("secrets", "json", None, "Fixed secrets", "One number per seat, in seat order", advanced=True),
        ),
        bots=(BotSpec("random", "Random"), BotSpec("smart", "Smart")),
        default_bot="smart",
        timed_phases={"play": "adds 1 for the player to act"},
    )

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return 2, 4

    def validate_options(self, players: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        target = options.get("target", TARGET)
        check(isinstance(target, int) and 5 <= target <= 99, "bad_option", "target must be 5-99")
        unknown = set(options) - {"target", "secrets"}
        check(not unknown, "bad_option", f"unknown options {sorted(unknown)}")
        secrets = options.get("secrets")
        check(
            secrets is None or (isinstance(secrets, list) and all(isinstance(x, int) for x in secrets)),
            "bad_option",
            "secrets must be a list of numbers",
        )
        return {"target": target, "secrets": secrets}

    def setup(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        rng = Rng.from_seed(seed)
        fixed = (options or {}).get("secrets")
        secrets = tuple(fixed[:players]) if fixed else tuple(rng.randbelow(9) + 1 for _ in range(players))
        target = (options or {}).get("target", TARGET)
        return State(players, 0, 0, secrets, (0,) * players, None, rng.state, target)

    def phase(self, state: State) -> str:
        return "over" if state.winner is not None else "play"

    def to_act(self, state: State) -> set[int]:
        return set() if state.winner is not None else {state.turn}

    def apply(self, state: State, seat: int | None, action: Any) -> State:
        kind = require_type(action, "add", "timeout")
        check(state.winner is None, "game_over", "The game is over.")
        if kind == "timeout":
            check(seat is None, "system_only", "Only the system applies timeouts.")
            n = 1
        else:
            check(seat == state.turn, "not_your_turn", f"It is seat {state.turn}'s turn.")
            n = action.get("n")
            check(
                isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 3,
                "bad_amount",
                "Add 1, 2 or 3.",
            )
        counter = min(state.target, state.counter + n)
        if counter >= state.target:
            scores = list(state.scores)
            scores[state.turn] = 1
            return replace(state, counter=counter, winner=state.turn, scores=tuple(scores))
        return replace(state, counter=counter, turn=(state.turn + 1) % state.players)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**self.shared_view(state), **self.seat_view(state, seat)}

    def shared_view(self, state: State) -> dict[str, Any]:
        v: dict[str, Any] = {
            "phase": self.phase(state),
            "to_act": sorted(self.to_act(state)),
            "scores": list(state.scores),
            "over": state.winner is not None,
            "counter": state.counter,
            "turn": state.turn,
        }
        if state.winner is not None:
            v["result"] = self.outcome(state)
            v["secrets"] = list(state.secrets)
        return v

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {} if seat is None else {"secret": state.secrets[seat]}

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]] | None:
        if seat not in self.to_act(state):
            return []
        return [{"type": "add", "n": n} for n in (1, 2, 3)]

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        return {"winners": [state.winner], "scores": list(state.scores)}

    def bot_action(self, state: State, seat: int, bot: str, seed: int) -> dict[str, Any] | None:
        if bot == "smart":
            n = (state.target - state.counter) % 4 or 1
            return {"type": "add", "n": min(3, n)}
        return {"type": "add", "n": Rng.from_seed(seed).randbelow(3) + 1}

    def import_option(self, name: str, data: bytes, filename: str = "") -> Any:
        """A fixed deal or custom content for a ``json`` option, uploaded as a JSON file."""
        return read_json_option(self.info, name, data)

    def dump(self, state: State) -> dict[str, Any]:
        return {**state.__dict__, "secrets": list(state.secrets), "scores": list(state.scores)}

    def load(self, data: Mapping[str, Any]) -> State:
        d = dict(data)
        return State(**{**d, "secrets": tuple(d["secrets"]), "scores": tuple(d["scores"])})


ENGINE = CountGame()

__all__ = ["ENGINE", "IllegalAction"]
