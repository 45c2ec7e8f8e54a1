"""The Genius Idea engine object: info, options, setup, ``apply`` (which hands each move to
``rules.py``), the views from ``view.py``, legal actions, bots and dump/load
(docs/rules/genius-idea.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from itertools import combinations, permutations
from typing import Any

from ..base import (
    DEFAULT_LANGUAGE,
    LANGUAGE_OPTION,
    BotSpec,
    GameInfo,
    IllegalAction,
    OptionSpec,
    Rng,
    check,
    content_languages,
    is_int,
    is_seat,
    language_option,
    option_bool,
    option_language,
    option_seat,
    require_type,
)
from . import bots, rules, view
from .rules import HINTS, State, jcopy, next_state
from .similarity import builtin_words

OPTION_NAMES = ("mode", "words", "shuffle", "first_riddler", LANGUAGE_OPTION)
LANGUAGES = content_languages(__package__)  # the built-in decks: content/<language>/
MODES = ("competitive", "coop")
MODE_CHOICES = ("auto", *MODES)  # "auto": by the number of players (2 -> coop, else competitive)
MODE_RANGE = {"competitive": (3, 6), "coop": (2, 2)}
MAX_WORD_LEN = 40
STATE_KEYS = frozenset(
    (
        "players", "mode", "language", "shuffle", "first_riddler", "rounds_total", "rng", "supply", "discards",
        "hands", "riddles", "preparing", "phase", "round", "cur", "scores", "history", "winners",
        "ready",
    )
)  # fmt: skip


def parse_words(value: object) -> list[str]:
    """A custom deck: a list of unique, non-empty words (surrounding spaces are dropped)."""
    check(isinstance(value, list), "bad_option", "Option 'words' must be a list of words.")
    assert isinstance(value, list)
    out: list[str] = []
    seen: set[str] = set()
    for item in value:
        check(isinstance(item, str) and item.strip(), "bad_option", f"Deck entry {item!r} is not a word.")
        assert isinstance(item, str)
        word = item.strip()
        check(len(word) <= MAX_WORD_LEN, "bad_option", f"Deck word {word[:20]!r}... is over {MAX_WORD_LEN} letters.")
        # Ruling: words that differ only in case would be two cards nobody can tell apart.
        check(word.casefold() not in seen, "bad_option", f"The deck has {word!r} twice; words must be unique.")
        seen.add(word.casefold())
        out.append(word)
    return out


class GeniusIdeaEngine:
    """Genius Idea: riddles of 5 hint words, a Disruptor, and a quick-answer race."""

    info = GameInfo(
        id="genius-idea",
        title="Genius Idea",
        min_players=2,
        max_players=6,
        summary="Hide an answer behind 5 hint words; a Disruptor picks which hint you get.",
        options=(
            OptionSpec(
                "mode",
                "choice",
                "auto",
                "Mode",
                "Competitive: 3 to 6 players, each playing for themselves. Co-op: 2 players team up "
                "for 4 rounds and win together with more than 15 points. Automatic: co-op for 2 "
                "players, otherwise competitive.",
                choices=MODE_CHOICES,
            ),
            language_option(LANGUAGES),
            OptionSpec("shuffle", "bool", True, "Shuffle the deck", advanced=True),
            OptionSpec("first_riddler", "seat", 0, "First Riddler", "Who makes the riddle in round 1."),
            OptionSpec(
                "words",
                "json",
                None,
                "Your own words",
                "Your own word cards: a list of different words (about 25 per player for a competitive "
                "game, 100 for co-op). Without one, the game uses its 243 built-in words in the language of "
                "the cards.",
                advanced=True,
            ),
        ),
        bots=(
            BotSpec(
                "random", "Random", "Plays any allowed move at random; as a Solver it guesses or passes by chance."
            ),
            BotSpec(
                "easy",
                "Easy",
                "Clear riddles; as a Solver reads hints slowly and loosely, and guesses only when very sure.",
            ),
            BotSpec(
                "normal",
                "Normal",
                "Clear riddles; as a Solver answers at a good player's pace when fairly sure.",
            ),
            BotSpec(
                "sharp",
                "Sharp",
                "Clear riddles; as a Solver reads hints closely and answers quickly.",
            ),
        ),
        default_bot="sharp",
        timed_phases={
            "prepare": "the game makes a riddle for everyone who has not finished theirs",
            "reveal": "a random unrevealed hint is revealed",
            "order": "the revealed hints keep their current order",
            "guess": "every Solver who has not guessed yet passes (once all 5 hints are out, nobody solves the round)",
            "results": "the next round starts for everyone",
        },
        default_time_limits={"results": 12},
        simultaneous=True,
    )

    # --- options and setup --------------------------------------------------------------

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        mode = options.get("mode") if isinstance(options, Mapping) else None
        return MODE_RANGE.get(mode, (2, 6)) if isinstance(mode, str) else (2, 6)

    def import_option(self, name: str, data: bytes, filename: str = "") -> list[str]:
        """Read a custom deck from an uploaded file: a JSON list, or text with one word per
        line (commas also separate words; blank lines and lines starting with ``#`` are
        skipped). The words are then checked like the ``words`` option."""
        check(name == "words", "bad_option", f"Option {name!r} can't be loaded from a file.")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise IllegalAction("bad_option", "The word list must be UTF-8 text.") from None
        if text.lstrip().startswith("["):
            try:
                value = json.loads(text)
            except ValueError as e:
                raise IllegalAction("bad_option", f"The word list is not valid JSON: {e}") from None
        else:
            value = [
                w.strip()
                for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith("#")
                for w in line.split(",")
                if w.strip()
            ]
        return parse_words(value)

    def validate_options(self, players: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        check(isinstance(options, Mapping), "bad_option", "Options must be an object.")
        unknown = sorted(str(k) for k in set(options) - set(OPTION_NAMES))
        check(not unknown, "bad_option", f"Unknown options {unknown}.")
        mode = options.get("mode")
        check(mode is None or mode in MODE_CHOICES, "bad_option", f"Option 'mode' must be one of {list(MODE_CHOICES)}.")
        if mode == "auto":
            mode = None
        if mode is None and players is not None:
            mode = "coop" if players == 2 else "competitive"
        if mode is not None and players is not None:
            lo, hi = MODE_RANGE[mode]
            check(
                lo <= players <= hi,
                "bad_option",
                "Co-op mode is for exactly 2 players." if mode == "coop" else "Competitive mode needs 3-6 players.",
            )
        if players is not None:
            check(2 <= players <= 6, "bad_option", "Genius Idea needs 2-6 players.")
        language = option_language(options, LANGUAGES)
        shuffle = option_bool(options, "shuffle", True)
        first = option_seat(options, "first_riddler", players)
        if players is None:
            check(first < 6, "bad_option", "Option 'first_riddler': there are at most 6 seats.")
        words = options.get("words")
        if words is not None:
            deck = parse_words(words)
            if players is not None and mode is not None:
                need = rules.cards_needed(mode, players)
            else:
                # Lobby still filling: check what any game of this mode needs at least.
                modes = [mode] if mode is not None else list(MODES)
                need = min(rules.cards_needed(m, MODE_RANGE[m][0]) for m in modes)
            check(
                len(deck) >= need,
                "bad_option",
                f"The custom deck has {len(deck)} words; this game needs at least {need} "
                + (
                    f"({players} players x 10 to prepare + 15 per round"
                    + (" + 10 for each second riddle)." if mode == "coop" else ").")
                    if players is not None
                    else "for the smallest game."
                ),
            )
            words = deck
        return {
            "mode": mode or "auto",
            "words": words,
            "shuffle": shuffle,
            "first_riddler": first,
            LANGUAGE_OPTION: language,
        }

    def setup(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        check(is_int(players), "bad_option", "players must be a whole number.")
        opts = self.validate_options(players, options or {})
        language = opts[LANGUAGE_OPTION]
        deck = list(opts["words"]) if opts["words"] is not None else list(builtin_words(language))
        return rules.new_game(
            players, opts["mode"], language, deck, opts["shuffle"], opts["first_riddler"], Rng.from_seed(seed)
        )

    # --- queries --------------------------------------------------------------------------

    def phase(self, state: State) -> str:
        return str(state["phase"])

    def to_act(self, state: State) -> set[int]:
        return rules.to_act(state)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in rules.to_act(state):
            return []
        phase = state["phase"]
        cur = state["cur"]
        if phase == "prepare":
            hand = state["hands"][seat]
            out: list[dict[str, Any]] = []
            for answer in hand:
                rest = [c for c in hand if c != answer]
                out.extend({"type": "prepare", "answer": answer, "hints": list(h)} for h in combinations(rest, HINTS))
            return out
        if phase == "reveal":
            return [{"type": "reveal", "hint": h} for h in cur["hints"] if h not in cur["revealed"]]
        if phase == "order":
            return [{"type": "order", "hints": list(p)} for p in permutations(cur["revealed"])]
        if phase == "results":
            return [{"type": "ready"}]
        out = [{"type": "guess", "card": c} for c in cur["public"] if c not in cur["wrong"]]
        if rules.may_pass(state):
            out.append({"type": "pass"})
        return out

    # --- moves ----------------------------------------------------------------------------

    def apply(self, state: State, seat: int | None, action: Any) -> State:
        kind = require_type(action, "prepare", "reveal", "order", "guess", "pass", "ready", "timeout")
        check(state["phase"] != "over", "game_over", "The game is over.")
        if seat is None:
            check(kind == "timeout", "not_your_turn", "Only a player can make that move.")
        else:
            if not is_seat(seat, state["players"]):  # (its message is made only then)
                raise IllegalAction("not_your_turn", f"There is no seat {seat!r}.")
            check(kind != "timeout", "system_only", "Only the system can time out a phase.")
        new = next_state(state)
        if kind == "timeout":
            self._timeout(new)
            return new
        assert seat is not None
        rules.act(new, seat, kind, action)
        return new

    def _timeout(self, state: State) -> None:
        # An unprepared riddle is made as the bots make one; the bots import the rules, so the
        # engine (which sees both) makes it rather than rules.timeout.
        if state["phase"] == "prepare":
            for seat in sorted(state["preparing"]):
                answer, hints = bots.best_riddle(state["hands"][seat], state["language"])
                rules.prepare(state, seat, answer, hints)
        else:
            rules.timeout(state)

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
        return bots.bot_action(state, seat, bot, seed)

    def bot_think_seconds(self, state: State, seat: int, bot: str, seed: int) -> float | None:
        """Seconds a bot thinks before its next move (a Solver reading a hint), or None for
        the server's usual bot delay (docs/engine-contract.md, "Bots")."""
        return bots.think_seconds(state, seat, bot, seed)

    # --- persistence ----------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return jcopy(state)

    def load(self, data: Mapping[str, Any]) -> State:
        # Games stored before the language option have no "language": they were English.
        if isinstance(data, Mapping) and LANGUAGE_OPTION not in data:
            data = {**data, LANGUAGE_OPTION: DEFAULT_LANGUAGE}
        if not isinstance(data, Mapping) or set(data) != STATE_KEYS or data[LANGUAGE_OPTION] not in LANGUAGES:
            raise IllegalAction("bad_state", "That is not a Genius Idea state.")
        try:
            return jcopy(dict(data))
        except (ValueError, TypeError):  # marshal refuses anything that is not plain data
            raise IllegalAction("bad_state", "That is not a Genius Idea state.") from None


ENGINE = GeniusIdeaEngine()
