"""The Brainiac or IDIOT! engine: setup, rules, views, dump/load (docs/rules/brainiac.md).

The state is a plain JSON-safe dict (see :func:`BrainiacEngine.setup` for its keys). Custom
question cards live in it under ``"cards"``; with the built-in bank ``"cards"`` is None and
the bank is read from the package data, so states stay small. ``apply`` copies everything but
the cards (which are never changed) and then changes the copy.

Phases: ``trade`` (simultaneous: everyone keeps or trades their first card), then per round
``ask`` (the Genius) -> ``answer`` (simultaneous, hidden) -> ``judge`` (the Genius confirms
or overrules the engine's verdicts) -> ``accuse`` (one seat at a time from the Genius round
the table) -> scoring -> ``results`` (everyone sees the round's reveal and says ``ready``)
-> the next round, until ``over`` (the last round goes straight there). Rulings: docs/rules/brainiac.md.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..base import BotSpec, GameInfo, IllegalAction, OptionSpec, Rng, check, require_type, seats_from
from . import packs
from .bots import choose
from .cards import (
    BRAINIAC,
    IDIOT,
    MAX_ANSWER_CHARS,
    MAX_TIE_ROUNDS,
    MAX_WHOAMI,
    OPTION_NAMES,
    State,
    _is_int,
    _validate_cards,
    card_count,
    card_questions,
    default_whoami,
    rounds_for,
)
from .judge import judge


class BrainiacEngine:
    """Brainiac or IDIOT! for 3-6 players (docs/rules/brainiac.md)."""

    info = GameInfo(
        id="brainiac",
        title="Brainiac or IDIOT!",
        min_players=3,
        max_players=6,
        summary="Trivia with hidden identities: IDIOTs must answer wrong and hope nobody notices.",
        options=(
            OptionSpec("first_genius", "seat", 0, "First Genius", "The seat that asks the first question."),
            OptionSpec("shuffle", "bool", True, "Shuffle the decks", advanced=True),
            OptionSpec(
                "cards",
                "json",
                None,
                "Question pack",
                "Custom trivia cards: each a list of 4 {q, a} questions, easy to hard "
                "(JSON or CSV upload; see the rules page). Empty: the built-in 180 cards.",
            ),
            OptionSpec(
                "whoami",
                "json",
                None,
                "Fixed WHOAMI deck",
                'A list of "idiot"/"brainiac" in deal order (default: 12 IDIOT + 48 Brainiac).',
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
            "judge": "the engine's verdicts are confirmed",
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
        """Read an uploaded question pack (JSON or CSV) for the ``cards`` option."""
        check(name == "cards", "bad_option", f"Option {name!r} can't be loaded from a file.")
        try:
            return packs.parse_pack(data, filename)
        except packs.PackError as e:
            raise IllegalAction("bad_file", str(e)) from None

    def validate_options(self, players: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        check(isinstance(options, Mapping), "bad_option", "Options must be an object.")
        unknown = sorted(str(k) for k in set(options) - set(OPTION_NAMES))
        check(not unknown, "bad_option", f"Unknown options {unknown}.")
        if players is not None:
            check(
                _is_int(players) and 3 <= players <= 6,
                "bad_option",
                "Brainiac or IDIOT! needs 3-6 players.",
            )
        shuffle = options.get("shuffle", True)
        check(isinstance(shuffle, bool), "bad_option", "Option 'shuffle' must be true or false.")
        first = options.get("first_genius", 0)
        if first is None:
            first = 0
        check(_is_int(first) and first >= 0, "bad_option", "Option 'first_genius' must be a seat number.")
        if players is not None:
            check(first < players, "bad_option", f"Option 'first_genius': there is no seat {first}.")
        raw_cards = options.get("cards")
        cards = None
        if raw_cards is not None:
            cards = _validate_cards(raw_cards)
            need = 2 * (players if players is not None else 3)
            check(
                len(cards) >= need,
                "bad_option",
                f"Option 'cards' has {len(cards)} card{'s' if len(cards) != 1 else ''}; "
                f"{'this table' if players is not None else 'the smallest table'} needs at least "
                f"{need} (two per player, so that every trade gets a fresh card).",
            )
        whoami = options.get("whoami")
        if whoami is not None:
            check(
                isinstance(whoami, list) and all(w in (IDIOT, BRAINIAC) for w in whoami),
                "bad_option",
                'Option \'whoami\' must be a list of "idiot" / "brainiac".',
            )
            assert isinstance(whoami, list)
            check(len(whoami) <= MAX_WHOAMI, "bad_option", f"Option 'whoami' holds at most {MAX_WHOAMI} cards.")
            need = (players if players is not None else 3) - 1
            check(
                len(whoami) >= need,
                "bad_option",
                f"Option 'whoami' needs at least {need} cards (one per player but the Genius).",
            )
            whoami = list(whoami)
        return {"cards": cards, "whoami": whoami, "shuffle": shuffle, "first_genius": first}

    def setup(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        """A new game. State keys: see the module docstring and docs/rules/brainiac.md."""
        opts = self.validate_options(players, options or {})
        rng = Rng.from_seed(seed)
        s: State = {
            "players": players,
            "cards": opts["cards"],
            "shuffle": opts["shuffle"],
            "first_genius": opts["first_genius"],
            "phase": "trade",
            "round": 0,
            "rounds_total": rounds_for(players),
            "genius": opts["first_genius"],
            "scores": [0] * players,
            "history": [],
            "winners": None,
        }
        deck = list(range(card_count(s)))
        if opts["shuffle"]:
            rng.shuffle(deck)
        s["hand"] = deck[:players]
        s["deck"] = deck[players:]
        s["discard"] = []
        s["asked"] = {}  # str(card) -> [bool] * 4, for every card with a question asked
        s["trade"] = [None] * players  # "trade" / "keep" once decided
        whoami = opts["whoami"] if opts["whoami"] is not None else default_whoami()
        s["whoami_all"] = list(whoami)
        s["whoami"] = rng.shuffled(whoami) if opts["shuffle"] else list(whoami)
        s["whoami_idiots_dealt"] = 0
        s["whoami_shuffles"] = 0
        s["identity"] = [None] * players
        s["revealed"] = [False] * players
        s["question"] = None
        s["answers"] = [None] * players
        s["engine_verdicts"] = [None] * players
        s["overrides"] = [None] * players
        s["verdicts"] = [None] * players
        s["accuse_order"] = []
        s["accuse_pos"] = 0
        s["accusations"] = []
        s["round_items"] = [[] for _ in range(players)]
        s["ready"] = []  # in ``results``: the seats that have seen the round's reveal
        s["rng"] = rng.state
        return s

    # --- queries --------------------------------------------------------------------------

    def phase(self, state: State) -> str:
        return str(state["phase"])

    def to_act(self, state: State) -> set[int]:
        phase = state["phase"]
        n = state["players"]
        if phase == "trade":
            return {p for p in range(n) if state["trade"][p] is None}
        if phase in ("ask", "judge"):
            return {state["genius"]}
        if phase == "answer":
            return {p for p in range(n) if p != state["genius"] and state["answers"][p] is None}
        if phase == "accuse":
            return {state["accuse_order"][state["accuse_pos"]]}
        if phase == "results":
            return {p for p in range(n) if p not in state["ready"]}
        return set()

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state["winners"] is None:
            return None
        return {"winners": list(state["winners"]), "scores": list(state["scores"])}

    def accuse_targets(self, state: State, seat: int) -> list[int]:
        """Seats ``seat`` may accuse now: players (not the Genius) judged wrong, not itself."""
        return [p for p in range(state["players"]) if p != seat and state["verdicts"][p] is False]

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]] | None:
        """Every legal action; answers are free text (None). For ``judge`` one action per
        distinct outcome (overriding each subset of the engine's verdicts)."""
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "trade":
            return [{"type": "trade"}, {"type": "keep"}]
        if phase == "ask":
            asked = self._asked(state, state["hand"][seat])
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
        if phase == "accuse":
            return [{"type": "accuse", "target": t} for t in [None, *self.accuse_targets(state, seat)]]
        if phase == "results":
            return [{"type": "ready"}]
        return []

    # --- actions --------------------------------------------------------------------------

    def apply(self, state: State, seat: int | None, action: Any) -> State:
        check(state["phase"] != "over", "game_over", "The game is over.")
        kind = require_type(action, "trade", "keep", "ask", "answer", "judge", "accuse", "ready", "timeout")
        if kind == "timeout":
            check(seat is None, "not_your_turn", "Only the system can time a phase out.")
            check(set(action) == {"type"}, "malformed", "A timeout has no other fields.")
            s = self._copy(state)
            self._timeout(s)
            return s
        check(
            _is_int(seat) and 0 <= seat < state["players"],  # type: ignore[operator]
            "not_your_turn",
            "Only a seated player can do that.",
        )
        assert isinstance(seat, int)
        phase = state["phase"]
        wanted = {
            "trade": "trade",
            "keep": "trade",
            "ask": "ask",
            "answer": "answer",
            "judge": "judge",
            "accuse": "accuse",
            "ready": "results",
        }[kind]
        check(phase == wanted, "wrong_phase", f"That is not possible now (phase: {phase}).")
        check(seat in self.to_act(state), "not_your_turn", self._whose_turn(state))
        if kind in ("trade", "keep"):
            check(set(action) == {"type"}, "malformed", f"'{kind}' has no other fields.")
            s = self._copy(state)
            s["trade"][seat] = kind
            if all(t is not None for t in s["trade"]):
                self._resolve_trades(s)
            return s
        if kind == "ready":
            check(set(action) == {"type"}, "malformed", "'ready' has no other fields.")
            s = self._copy(state)
            s["ready"].append(seat)
            if not self.to_act(s):
                self._start_round(s)
            return s
        if kind == "ask":
            check(set(action) == {"type", "index"}, "malformed", "'ask' needs exactly an 'index'.")
            index = action["index"]
            check(_is_int(index) and 0 <= index < 4, "malformed", "'index' must be 0, 1, 2 or 3.")
            check(
                not self._asked(state, state["hand"][seat])[index],
                "already_asked",
                "That question has already been asked.",
            )
            s = self._copy(state)
            self._ask(s, index)
            return s
        if kind == "answer":
            check(set(action) == {"type", "text"}, "malformed", "'answer' needs exactly a 'text'.")
            text = action["text"]
            check(isinstance(text, str), "malformed", "'text' must be a string.")
            # control characters are dropped; runs of whitespace become one space
            text = " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())
            check(
                len(text) <= MAX_ANSWER_CHARS,
                "answer_too_long",
                f"An answer is at most {MAX_ANSWER_CHARS} characters.",
            )
            s = self._copy(state)
            s["answers"][seat] = text
            if all(s["answers"][p] is not None for p in range(s["players"]) if p != s["genius"]):
                self._all_answered(s)
            return s
        if kind == "judge":
            check(set(action) <= {"type", "overrides"}, "malformed", "'judge' takes only 'overrides'.")
            raw = action.get("overrides", {})
            check(isinstance(raw, dict), "malformed", "'overrides' must map seats to true/false.")
            overrides: dict[int, bool] = {}
            for key, value in raw.items():
                ok = (
                    isinstance(key, str)
                    and key.isascii()
                    and key.isdigit()
                    and len(key) <= 2
                    and isinstance(value, bool)
                )
                check(ok, "malformed", "'overrides' must map seat numbers to true/false.")
                target = int(key)
                check(
                    target < state["players"] and target != state["genius"],
                    "bad_seat",
                    f"Seat {key} gave no answer to judge.",
                )
                overrides[target] = value
            s = self._copy(state)
            self._judge(s, overrides)
            return s
        # accuse
        check(set(action) == {"type", "target"}, "malformed", "'accuse' needs exactly a 'target'.")
        target = action["target"]
        if target is not None:
            check(_is_int(target), "malformed", "'target' must be a seat number or null.")
            check(target != seat, "bad_target", "You can't accuse yourself.")
            check(
                target in self.accuse_targets(state, seat),
                "bad_target",
                "You can only accuse a player whose answer was wrong.",
            )
        s = self._copy(state)
        self._accuse(s, seat, target)
        return s

    def _whose_turn(self, state: State) -> str:
        waiting = sorted(self.to_act(state))
        return f"Waiting for seat{'s' if len(waiting) != 1 else ''} {', '.join(map(str, waiting))}."

    def _copy(self, state: State) -> State:
        # the cards are never changed, so the copy shares them
        return {k: (v if k == "cards" else copy.deepcopy(v)) for k, v in state.items()}

    def _asked(self, state: State, card: int) -> list[bool]:
        return list(state["asked"].get(str(card), [False] * 4))

    # --- the rules ------------------------------------------------------------------------

    def _timeout(self, s: State) -> None:
        phase = s["phase"]
        if phase == "trade":
            s["trade"] = [t if t is not None else "keep" for t in s["trade"]]
            self._resolve_trades(s)
        elif phase == "ask":
            asked = self._asked(s, s["hand"][s["genius"]])
            self._ask(s, asked.index(False))
        elif phase == "answer":
            for p in range(s["players"]):
                if p != s["genius"] and s["answers"][p] is None:
                    s["answers"][p] = ""
            self._all_answered(s)
        elif phase == "judge":
            self._judge(s, {})
        elif phase == "accuse":
            self._accuse(s, s["accuse_order"][s["accuse_pos"]], None)
        elif phase == "results":
            self._start_round(s)

    def _draw_card(self, s: State) -> int:
        """The trivia deck's front card. An empty deck takes back the discards that still
        have unasked questions (shuffled); failing that, every card not in a hand comes back
        with all four questions askable again."""
        if not s["deck"]:
            fresh = [c for c in s["discard"] if not all(self._asked(s, c))]
            if not fresh:
                held = set(s["hand"])
                fresh = [c for c in range(card_count(s)) if c not in held]
                for c in fresh:
                    s["asked"].pop(str(c), None)
            s["discard"] = [c for c in s["discard"] if c not in set(fresh)]
            if s["shuffle"]:
                rng = Rng(s["rng"])
                rng.shuffle(fresh)
                s["rng"] = rng.state
            s["deck"] = fresh
        return int(s["deck"].pop(0))

    def _resolve_trades(self, s: State) -> None:
        # in seat order, each trader discards and takes the deck's next card
        for p in range(s["players"]):
            if s["trade"][p] == "trade":
                s["discard"].append(s["hand"][p])
                s["hand"][p] = self._draw_card(s)
        self._start_round(s)

    def _start_round(self, s: State) -> None:
        n = s["players"]
        s["round"] += 1
        g = (s["first_genius"] + s["round"] - 1) % n
        s["genius"] = g
        if all(self._asked(s, s["hand"][g])):
            # a Genius whose card is used up (only on a long tie) takes a new one
            s["discard"].append(s["hand"][g])
            s["hand"][g] = self._draw_card(s)
        if len(s["whoami"]) < n - 1:
            self._reshuffle_whoami(s)
        s["identity"] = [None] * n
        s["revealed"] = [False] * n
        for p in seats_from(g + 1, n)[: n - 1]:
            card = s["whoami"].pop(0)
            s["identity"][p] = card
            if card == IDIOT:
                s["whoami_idiots_dealt"] += 1
        s["question"] = None
        s["answers"] = [None] * n
        s["engine_verdicts"] = [None] * n
        s["overrides"] = [None] * n
        s["verdicts"] = [None] * n
        s["accuse_order"] = []
        s["accuse_pos"] = 0
        s["accusations"] = []
        s["round_items"] = [[] for _ in range(n)]
        s["ready"] = []
        s["phase"] = "ask"

    def _reshuffle_whoami(self, s: State) -> None:
        """All WHOAMI cards back together (shuffled, or in the given order)."""
        if s["shuffle"]:
            rng = Rng(s["rng"])
            s["whoami"] = rng.shuffled(s["whoami_all"])
            s["rng"] = rng.state
        else:
            s["whoami"] = list(s["whoami_all"])
        s["whoami_idiots_dealt"] = 0
        s["whoami_shuffles"] += 1

    def _ask(self, s: State, index: int) -> None:
        card = s["hand"][s["genius"]]
        asked = self._asked(s, card)
        asked[index] = True
        s["asked"][str(card)] = asked
        s["question"] = index
        s["phase"] = "answer"

    def accepted(self, s: State) -> list[str]:
        """The accepted answers of the question being asked."""
        return card_questions(s, s["hand"][s["genius"]])[s["question"]][1]

    def _all_answered(self, s: State) -> None:
        accepted = self.accepted(s)
        for p in range(s["players"]):
            if p != s["genius"]:
                s["engine_verdicts"][p] = judge(s["answers"][p], accepted)
        s["phase"] = "judge"

    def _judge(self, s: State, overrides: dict[int, bool]) -> None:
        n, g = s["players"], s["genius"]
        for p, v in overrides.items():
            s["overrides"][p] = v
        # read out from the Genius's left: a right answer scores 2 at once and is revealed
        for p in seats_from(g + 1, n)[: n - 1]:
            right = overrides.get(p, s["engine_verdicts"][p])
            s["verdicts"][p] = right
            if right:
                s["revealed"][p] = True
                if s["identity"][p] == BRAINIAC:
                    s["scores"][p] += 2
                    s["round_items"][p].append(_item(2, "correct_answer", None))
        s["accuse_order"] = seats_from(g, n)
        s["accuse_pos"] = 0
        s["phase"] = "accuse"
        self._skip_accusers(s)

    def _skip_accusers(self, s: State) -> None:
        # an accuser with nobody to accuse passes without being asked
        while s["accuse_pos"] < s["players"]:
            seat = s["accuse_order"][s["accuse_pos"]]
            if self.accuse_targets(s, seat):
                return
            s["accusations"].append({"by": seat, "target": None, "auto": True})
            s["accuse_pos"] += 1
        self._score(s)

    def _accuse(self, s: State, seat: int, target: int | None) -> None:
        s["accusations"].append({"by": seat, "target": target, "auto": False})
        s["accuse_pos"] += 1
        self._skip_accusers(s)

    def _score(self, s: State) -> None:
        """Reveal everyone, sum the round's changes, apply them (never below 0)."""
        n, g = s["players"], s["genius"]
        items: list[list[dict[str, Any]]] = s["round_items"]
        accused = {a["target"] for a in s["accusations"] if a["target"] is not None}
        for p in range(n):
            if p != g and s["identity"][p] == IDIOT and s["verdicts"][p] is False and p not in accused:
                items[p].append(_item(3, "unaccused_idiot", None))
        for a in s["accusations"]:
            by, t = a["by"], a["target"]
            if t is None:
                continue
            if s["identity"][t] == IDIOT:
                items[by].append(_item(2, "correct_accusation", t))
            else:
                items[by].append(_item(-1, "wrong_accusation", t))
                items[t].append(_item(1, "wrongly_accused", by))
        # an IDIOT who answered right neither gains nor loses anything this round
        for p in range(n):
            if p != g and s["identity"][p] == IDIOT and s["verdicts"][p]:
                items[p] = [_item(0, "idiot_answered_right", None)]
        before = [
            s["scores"][p] - sum(i["points"] for i in items[p] if i["kind"] == "correct_answer") for p in range(n)
        ]
        changes = []
        for p in range(n):
            total = sum(i["points"] for i in items[p])
            if before[p] + total < 0:
                items[p].append(_item(-(before[p] + total), "floor", None))
                total = -before[p]
            s["scores"][p] = before[p] + total
            changes.append(total)
        s["revealed"] = [p != g for p in range(n)]
        card, index = s["hand"][g], s["question"]
        question, accepted = card_questions(s, card)[index]
        s["history"].append(
            {
                "round": s["round"],
                "genius": g,
                "tiebreak": s["round"] > s["rounds_total"],
                "question": question,
                "level": index + 1,
                "accepted": accepted,
                "answers": list(s["answers"]),
                "engine_verdicts": list(s["engine_verdicts"]),
                "overrides": list(s["overrides"]),
                "verdicts": list(s["verdicts"]),
                "identities": list(s["identity"]),
                "accusations": copy.deepcopy(s["accusations"]),
                "changes": changes,
                "items": copy.deepcopy(items),
                "scores": list(s["scores"]),
            }
        )
        # the WHOAMI deck comes back together once its last IDIOT has been revealed
        idiots = s["whoami_all"].count(IDIOT)
        if idiots and s["whoami_idiots_dealt"] >= idiots:
            self._reshuffle_whoami(s)
        self._end_of_round(s)

    def _end_of_round(self, s: State) -> None:
        scores = s["scores"]
        top = max(scores)
        leaders = [p for p, v in enumerate(scores) if v == top]
        if s["round"] >= s["rounds_total"] and (len(leaders) == 1 or s["round"] >= s["rounds_total"] + MAX_TIE_ROUNDS):
            s["winners"] = leaders
            s["phase"] = "over"
            s["question"] = None
            return
        # the table looks at the reveal (``history[-1]``) before the next round is dealt
        s["phase"] = "results"
        s["ready"] = []

    # --- views ----------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**self.shared_view(state), **self.seat_view(state, seat)}

    # A state is never changed once made (every apply copies it first), so the views share
    # its lists and dicts instead of copying them.

    def shared_view(self, state: State) -> dict[str, Any]:
        s = state
        n, g, phase = s["players"], s["genius"], s["phase"]
        in_round = phase in ("ask", "answer", "judge", "accuse")
        v: dict[str, Any] = {
            "phase": phase,
            "to_act": sorted(self.to_act(s)),
            "scores": list(s["scores"]),
            "over": phase == "over",
            "players": n,
            "round": s["round"],
            "rounds_total": s["rounds_total"],
            "tiebreak": s["round"] > s["rounds_total"],
            "genius": g if phase != "trade" else None,
            "first_genius": s["first_genius"],
            "deck_count": len(s["deck"]),
            "whoami": {
                "left": len(s["whoami"]),
                "idiots_total": s["whoami_all"].count(IDIOT),
                "idiots_seen": self._idiots_seen(s),
                "size": len(s["whoami_all"]),
            },
            # A finished round's record is never changed (apply works on a copy), so views
            # share the records instead of copying them per seat.
            "history": list(s["history"]),
            "traded": None if phase == "trade" else [t == "trade" for t in s["trade"]],
        }
        if in_round:
            v["readout_order"] = seats_from(g + 1, n)[: n - 1]
            v["accuse_order"] = seats_from(g, n)
            v["revealed"] = [s["identity"][p] if s["revealed"][p] else None for p in range(n)]
            v["answered"] = [p != g and s["answers"][p] is not None for p in range(n)]
            v["answers"] = list(s["answers"]) if phase in ("judge", "accuse") else None
            v["accusations"] = [{"by": a["by"], "target": a["target"]} for a in s["accusations"]]
            v["accuser"] = s["accuse_order"][s["accuse_pos"]] if phase == "accuse" else None
        else:
            for key in ("answers", "revealed", "accuser"):
                v[key] = None
            v["accusations"] = []
            v["answered"] = [False] * n
        if phase == "results":
            # the round just played, in full; the next round's cards are not dealt yet
            v["results"] = s["history"][-1]
            v["ready"] = sorted(s["ready"])
        if phase == "over":
            v["result"] = self.outcome(s)
        return v

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        s = state
        n, g, phase = s["players"], s["genius"], s["phase"]
        me = seat if _is_int(seat) and 0 <= seat < n else None  # type: ignore[operator]
        in_round = phase in ("ask", "answer", "judge", "accuse")
        is_genius = me is not None and me == g and in_round
        v: dict[str, Any] = {"seat": me}
        if me is not None:
            questions = card_questions(s, s["hand"][me])
            asked = self._asked(s, s["hand"][me])
            card = []
            for i, (q, a) in enumerate(questions):
                entry: dict[str, Any] = {"q": q, "level": i + 1, "asked": asked[i]}
                if is_genius:
                    entry["a"] = list(a)
                card.append(entry)
            v["card"] = card
        if phase == "trade":
            v["trade"] = {
                "decided": [t is not None for t in s["trade"]],
                "mine": s["trade"][me] if me is not None else None,
            }
        if not in_round:
            for key in ("question", "verdicts", "identity", "my_answer"):
                v[key] = None
            v["accuse_targets"] = []
            return v
        v["identity"] = s["identity"][me] if me is not None else None
        v["my_answer"] = s["answers"][me] if me is not None else None
        if s["question"] is not None:
            q, accepted = card_questions(s, s["hand"][g])[s["question"]]
            v["question"] = {"index": s["question"], "level": s["question"] + 1, "q": q}
            if is_genius:
                v["question"]["a"] = list(accepted)
        else:
            v["question"] = None
        if phase == "judge":
            # the engine's verdicts are the Genius's to confirm; the table sees the result
            v["verdicts"] = (
                {"engine": list(s["engine_verdicts"]), "overrides": [None] * n, "final": None} if is_genius else None
            )
        elif phase == "accuse":
            v["verdicts"] = {
                "engine": list(s["engine_verdicts"]),
                "overrides": list(s["overrides"]),
                "final": list(s["verdicts"]),
            }
        else:
            v["verdicts"] = None
        v["accuse_targets"] = (
            self.accuse_targets(s, me)
            if phase == "accuse" and me is not None and me == s["accuse_order"][s["accuse_pos"]]
            else []
        )
        return v

    def _idiots_seen(self, s: State) -> int:
        """IDIOT cards revealed since the WHOAMI deck was last shuffled (public knowledge)."""
        dealt = s["whoami_idiots_dealt"]
        if s["phase"] in ("ask", "answer", "judge", "accuse"):
            hidden = sum(1 for p in range(s["players"]) if s["identity"][p] == IDIOT and not s["revealed"][p])
            return int(dealt - hidden)
        return int(dealt)

    # --- bots -----------------------------------------------------------------------------

    def bot_action(self, state: State, seat: int, bot: str, seed: int) -> dict[str, Any] | None:
        if state["phase"] == "over" or seat not in self.to_act(state):
            return None
        return choose(self, state, seat, bot, seed)

    # --- persistence ----------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return copy.deepcopy(dict(data))


def _item(points: int, kind: str, other: int | None) -> dict[str, Any]:
    """One explained score change: ``{"points", "kind", "other", "text"}``; ``other`` is the
    seat an accusation concerns (the UI writes its name in place of "seat N")."""
    words = {
        "correct_answer": "correct answer",
        "unaccused_idiot": "unaccused IDIOT",
        "correct_accusation": "correct accusation of seat {o}",
        "wrong_accusation": "wrong accusation of seat {o}",
        "wrongly_accused": "wrongly accused by seat {o}",
        "idiot_answered_right": "IDIOT answered right: no points this round",
        "floor": "no score goes below 0",
    }[kind].format(o=other)
    sign = "+" if points > 0 else ""
    return {"points": points, "kind": kind, "other": other, "text": f"{sign}{points} {words}"}


ENGINE = BrainiacEngine()
