"""The Brainiac or IDIOT! engine object: info, options, setup, ``apply`` (which hands each move
to ``rules.py``), the views from ``view.py``, legal actions, bots and dump/load
(docs/rules/brainiac.md)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..base import (
    BotSpec,
    GameInfo,
    IllegalAction,
    OptionSpec,
    Rng,
    check,
    is_int,
    is_seat,
    language_option,
    option_language,
    require_type,
)
from . import packs, rules, view
from .bots import choose
from .cards import BRAINIAC, IDIOT, MAX_WHOAMI, OPTION_NAMES, State, validate_cards_option


class BrainiacEngine:
    """Brainiac or IDIOT! for 3-6 players (docs/rules/brainiac.md)."""

    info = GameInfo(
        id="brainiac",
        title="Brainiac or IDIOT!",
        min_players=3,
        max_players=6,
        summary="Trivia with hidden identities: IDIOTs must answer wrong and hope nobody notices.",
        options=(
            language_option(packs.LANGUAGES),
            OptionSpec("first_genius", "seat", 0, "First Genius", "Who asks the first question."),
            OptionSpec("shuffle", "bool", True, "Shuffle the decks", advanced=True),
            OptionSpec(
                "cards",
                "json",
                None,
                "Question pack",
                "Your own trivia cards, each with 4 questions and their answers from easy to hard. "
                "Upload a JSON or CSV file (the rules page shows how). Without one, the game uses its "
                "180 built-in cards.",
            ),
            OptionSpec(
                "whoami",
                "json",
                None,
                "Secret cards in a fixed order",
                'The secret cards in the order they are dealt: a list of "idiot" and "brainiac". '
                "Without it, 12 IDIOT and 48 Brainiac cards are shuffled.",
                advanced=True,
            ),
        ),
        bots=(
            BotSpec(
                "random",
                "Random",
                "Answers right half the time (never as an IDIOT), else a wrong guess on topic; accuses at random.",
            ),
            BotSpec(
                "trivia",
                "Trivia buff",
                "Knows easy answers better than hard ones, guesses on topic otherwise; accuses by the odds.",
            ),
        ),
        default_bot="trivia",
        timed_phases={
            "trade": "everyone who has not decided keeps their card",
            "ask": "the Genius asks the first unasked question of their card",
            "answer": "missing answers count as blank (wrong)",
            "judge": "the game's own verdicts stand",
            "dispute": "the verdicts stand but those a majority has disputed so far",
            "accuse": "the current accuser accuses no one",
            "results": "the next round starts for everyone",
        },
        default_time_limits={"results": 12},
        simultaneous=True,
    )

    # --- options and setup --------------------------------------------------------------

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (3, 6)

    def import_option(self, name: str, data: bytes, filename: str) -> Any:
        """Read an uploaded question pack (JSON or CSV) for the ``cards`` option: its cards, or
        ``{"language": ..., "cards": [...]}`` when the file declares its language."""
        check(name == "cards", "bad_option", f"Option {name!r} can't be loaded from a file.")
        try:
            cards, language = packs.read_pack(data, filename)
        except packs.PackError as e:
            raise IllegalAction("bad_file", str(e)) from None
        return cards if language is None else {"language": language, "cards": cards}

    def validate_options(self, players: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        check(isinstance(options, Mapping), "bad_option", "Options must be an object.")
        unknown = sorted(str(k) for k in set(options) - set(OPTION_NAMES))
        check(not unknown, "bad_option", f"Unknown options {unknown}.")
        if players is not None:
            check(
                is_int(players) and 3 <= players <= 6,
                "bad_option",
                "Brainiac or IDIOT! needs 3-6 players.",
            )
        shuffle = options.get("shuffle", True)
        check(isinstance(shuffle, bool), "bad_option", "Option 'shuffle' must be true or false.")
        first = options.get("first_genius", 0)
        if first is None:
            first = 0
        check(is_int(first) and first >= 0, "bad_option", "Option 'first_genius' must be a seat number.")
        if players is not None:
            check(first < players, "bad_option", f"Option 'first_genius': there is no seat {first}.")
        language = option_language(options, packs.LANGUAGES)
        raw_cards = options.get("cards")
        cards: Any = None
        if raw_cards is not None:
            cards, pack_language = validate_cards_option(raw_cards)
            need = 2 * (players if players is not None else 3)
            check(
                len(cards) >= need,
                "bad_option",
                f"Option 'cards' has {len(cards)} card{'s' if len(cards) != 1 else ''}; "
                f"{'this table' if players is not None else 'the smallest table'} needs at least "
                f"{need} (two per player, so that every trade gets a fresh card).",
            )
            if pack_language is not None:
                cards = {"language": pack_language, "cards": cards}
        whoami = options.get("whoami")
        if whoami is not None:
            check(
                isinstance(whoami, list) and all(w in (IDIOT, BRAINIAC) for w in whoami),
                "bad_option",
                'Option \'whoami\' must be a list of "idiot" / "brainiac".',
            )
            assert isinstance(whoami, list)
            check(len(whoami) <= MAX_WHOAMI, "bad_option", f"Option 'whoami' holds at most {MAX_WHOAMI} cards.")
            need = players if players is not None else 3
            check(
                len(whoami) >= need,
                "bad_option",
                f"Option 'whoami' needs at least {need} cards (one per player).",
            )
            whoami = list(whoami)
        return {"cards": cards, "whoami": whoami, "shuffle": shuffle, "first_genius": first, "language": language}

    def setup(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        """A new game. State keys: see ``rules.py`` and docs/rules/brainiac.md. The questions
        come from the room language's bank, or the custom pack; the judge reads the pack's
        declared language, else the room's."""
        opts = self.validate_options(players, options or {})
        cards, language = opts["cards"], opts["language"]
        if isinstance(cards, dict):  # a pack that declares its language
            cards, language = cards["cards"], cards["language"]
        return rules.new_game(
            players, cards, opts["whoami"], opts["shuffle"], opts["first_genius"], language, Rng.from_seed(seed)
        )

    # --- queries --------------------------------------------------------------------------

    def phase(self, state: State) -> str:
        return str(state["phase"])

    def to_act(self, state: State) -> set[int]:
        return rules.to_act(state)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome(state)

    def accepted(self, state: State) -> list[str]:
        """The accepted answers of the question being asked."""
        return rules.accepted_answers(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]] | None:
        """Every legal action; answers are free text (None). For ``judge`` one action per
        distinct outcome (overriding each subset of the engine's verdicts)."""
        if seat not in rules.to_act(state):
            return []
        phase = state["phase"]
        if phase == "trade":
            return [{"type": "trade"}, {"type": "keep"}]
        if phase == "ask":
            asked = rules.questions_asked(state, state["hand"][seat])
            return [{"type": "ask", "index": i} for i in range(4) if not asked[i]]
        if phase == "answer":
            return None
        if phase == "judge":
            answerers = [p for p in range(state["players"]) if p != state["genius"]]
            out = []
            for mask in range(1 << len(answerers)):
                flips = {str(p): not state["engine_verdicts"][p] for i, p in enumerate(answerers) if mask >> i & 1}
                out.append({"type": "judge", "overrides": flips})
            return out
        if phase == "dispute":
            return [{"type": "agree"}] + [{"type": "dispute", "target": t} for t in rules.dispute_targets(state, seat)]
        if phase == "accuse":
            return [{"type": "accuse", "target": t} for t in [None, *rules.accuse_targets(state, seat)]]
        if phase == "results":
            return [{"type": "ready"}]
        return []

    # --- actions --------------------------------------------------------------------------

    def apply(self, state: State, seat: int | None, action: Any) -> State:
        check(state["phase"] != "over", "game_over", "The game is over.")
        kind = require_type(
            action, "trade", "keep", "ask", "answer", "judge", "dispute", "agree", "accuse", "ready", "timeout"
        )
        if kind == "timeout":
            check(seat is None, "not_your_turn", "Only the system can time a phase out.")
            check(set(action) == {"type"}, "malformed", "A timeout has no other fields.")
            s = rules.copy_state(state)
            rules.timeout(s)
            return s
        check(is_seat(seat, state["players"]), "not_your_turn", "Only a seated player can do that.")
        assert isinstance(seat, int)
        return rules.act(state, seat, kind, action)

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

    # --- bots -----------------------------------------------------------------------------

    def bot_action(self, state: State, seat: int, bot: str, seed: int) -> dict[str, Any] | None:
        if state["phase"] == "over" or seat not in rules.to_act(state):
            return None
        return choose(state, seat, bot, seed)

    # --- persistence ----------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return copy.deepcopy(dict(data))


ENGINE = BrainiacEngine()
