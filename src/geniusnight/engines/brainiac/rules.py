"""Brainiac or IDIOT! rules on a plain JSON state (docs/rules/brainiac.md): setup, whose turn
it is, the moves, scoring and the timeouts.

The state is a plain JSON-safe dict (see :func:`new_game` for its keys). Custom question
cards live in it under ``"cards"``; with a built-in bank ``"cards"`` is None and the bank of
the game's ``"language"`` is read from the package data (``content/<language>/``), so states
stay small. A move copies everything but the cards and
the finished rounds (which are never changed) and then changes the copy; a move within a
phase (a trade decision, an answer, an accusation, a ready) copies only the list it changes.

Phases: ``trade`` (simultaneous: everyone keeps or trades their first card), then per round
``ask`` (the Genius) -> ``answer`` (simultaneous, hidden) -> ``judge`` (the Genius confirms
or overrules the engine's verdicts) -> ``dispute`` (only after a bot Genius: the people at
the table may overturn its verdicts by majority) -> ``accuse`` (one seat at a time from the
Genius round the table) -> scoring -> ``results`` (everyone sees the round's reveal and says
``ready``) -> the next round, until ``over`` (the last round goes straight there).

A move a bot makes carries ``"bot": true`` (its answer and, as Genius, its judging): that is
how the rules know which answers and verdicts came from a bot (docs/rules/brainiac.md,
"Disputing a bot Genius").
"""

from __future__ import annotations

import copy
import marshal
from collections.abc import Iterable, Mapping
from typing import Any

from ..base import IllegalAction, Rng, check, is_int, seats_from
from .cards import (
    BRAINIAC,
    IDIOT,
    MAX_ANSWER_CHARS,
    MAX_TIE_ROUNDS,
    Card,
    State,
    card_count,
    card_questions,
    default_whoami,
    known_others,
    language,
    rounds_for,
)
from .judge import judge


def new_game(
    players: int,
    cards: list[Card] | None,
    whoami: list[str] | None,
    shuffle: bool,
    first_genius: int,
    language: str,
    rng: Rng,
) -> State:
    """A new game from checked options (``whoami`` None: the standard deck; ``cards`` None: the
    built-in bank of ``language``, the language the judge reads). State keys: see the module
    docstring and docs/rules/brainiac.md."""
    s: State = {
        "players": players,
        "cards": cards,
        "language": language,
        "shuffle": shuffle,
        "first_genius": first_genius,
        "phase": "trade",
        "round": 0,
        "rounds_total": rounds_for(players),
        "genius": first_genius,
        "scores": [0] * players,
        "history": [],
        "winners": None,
    }
    deck = list(range(card_count(s)))
    if shuffle:
        rng.shuffle(deck)
    s["hand"] = deck[:players]
    s["deck"] = deck[players:]
    s["discard"] = []
    s["asked"] = {}  # str(card) -> [bool] * 4, for every card with a question asked
    s["trade"] = [None] * players  # "trade" / "keep" once decided
    if whoami is None:
        whoami = default_whoami()
    s["whoami_all"] = list(whoami)
    s["whoami"] = rng.shuffled(whoami) if shuffle else list(whoami)
    s["whoami_idiots_dealt"] = 0
    s["whoami_shuffles"] = 0
    s["identity"] = [None] * players
    s["genius_card"] = None  # the WHOAMI card dealt to the Genius, set aside unseen
    s["revealed"] = [False] * players
    _clear_round(s, players)
    s["rng"] = rng.state
    return s


# --- queries ---------------------------------------------------------------------------


def to_act(state: State) -> set[int]:
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
    if phase == "dispute":
        return {p for p in state["dispute_voters"] if p not in state["agreed"]}
    if phase == "results":
        return {p for p in range(n) if p not in state["ready"]}
    return set()


def outcome(state: State) -> dict[str, Any] | None:
    if state["winners"] is None:
        return None
    return {"winners": list(state["winners"]), "scores": list(state["scores"])}


def accuse_targets(state: State, seat: int) -> list[int]:
    """Seats ``seat`` may accuse now: players (not the Genius) judged wrong, not itself."""
    return [p for p in range(state["players"]) if p != seat and state["verdicts"][p] is False]


def dispute_targets(state: State, seat: int) -> list[int]:
    """Whose verdicts ``seat`` may still dispute now: in ``dispute``, as a voter who has not
    agreed, every other voter's it has not disputed yet."""
    if state["phase"] != "dispute" or seat not in state["dispute_voters"] or seat in state["agreed"]:
        return []
    done = {d["target"] for d in state["disputes"] if d["by"] == seat}
    return [p for p in state["dispute_voters"] if p != seat and p not in done]


def _whose_turn(state: State) -> str:
    waiting = sorted(to_act(state))
    return f"Waiting for seat{'s' if len(waiting) != 1 else ''} {', '.join(map(str, waiting))}."


# Values no move changes in place: a move that changes one sets a new value in its copy of
# the state (``s["deck"] = s["deck"][1:]``, never ``s["deck"].pop(0)``), so states share them.
# The decks and the questions asked are the state's largest values, and a move seldom
# changes them: copying them on every move was most of a move's cost.
SHARED = frozenset({"cards", "whoami_all", "deck", "whoami", "discard", "asked"})
# lists of numbers, strings, booleans and None only (a score, an answer, a verdict per seat):
# copied as they are, without looking at their items first
FLAT_LISTS = frozenset(
    {
        "scores", "hand", "trade", "identity", "revealed", "answers",
        "engine_verdicts", "overrides", "verdicts", "accuse_order", "ready",
        "bot_answers", "dispute_voters", "agreed", "overturned",
    }
)  # fmt: skip
# lists of dicts that no move changes once made (an accusation, a dispute), only adds to the
# list: a copy of the list shares them
ITEM_LISTS = frozenset({"accusations", "disputes"})
# per seat, such a list (the seat's score items of this round), which a move may add to
SEAT_ITEM_LISTS = frozenset({"round_items"})


def copy_state(state: State) -> State:
    """The copy a move changes. Numbers, strings and None are shared as they are, and so
    are what is in ``SHARED`` and the finished rounds (``history`` entries), never changed
    in place; the lists above are copied as deep as a move changes them; any other list or
    dict is copied deeply: one of numbers, strings, booleans and None as a plain copy,
    anything nested through ``marshal`` (many times faster than ``copy.deepcopy`` on plain
    data).

    >>> state = {"round": 1, "deck": [3, 4], "scores": [0, 1], "round_items": [[{"points": 2}], []]}
    >>> new = copy_state(state)
    >>> new["deck"] is state["deck"], new["scores"] is state["scores"]
    (True, False)
    >>> new["round_items"][0] is state["round_items"][0], new["round_items"][0][0] is state["round_items"][0][0]
    (False, True)
    """
    new = state.copy()
    for k, v in state.items():
        kind = type(v)
        if kind is not list and kind is not dict:
            continue  # a number, a string, None: nothing to copy
        if k in SHARED:
            continue
        if kind is list and (k in FLAT_LISTS or k in ITEM_LISTS or k == "history"):
            new[k] = v.copy()
        elif kind is list and k in SEAT_ITEM_LISTS and all(type(items) is list for items in v):
            new[k] = [items.copy() for items in v]
        elif kind is list:
            new[k] = v.copy() if _all_atoms(v) else _deep_copy(v)
        else:
            new[k] = v.copy() if _all_atoms(v.values()) else _deep_copy(v)
    return new


_ATOMS = frozenset({int, str, bool, float, type(None)})


def _all_atoms(values: Iterable[Any]) -> bool:
    # in C throughout (map, the set lookup, all): a deck of 170 cards is checked in 2 µs,
    # where marshal took 12 µs to copy it
    return all(map(_ATOMS.__contains__, map(type, values)))


def _deep_copy(value: Any) -> Any:
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:  # not plain data (only a state made by hand): the slow general copy
        return copy.deepcopy(value)


NOT_ASKED = (False, False, False, False)  # the marks of a card none of whose questions was asked


def questions_asked(state: State, card: int) -> list[bool]:
    """Which of trivia card ``card``'s four questions have been asked (a fresh list)."""
    return list(state["asked"].get(str(card), NOT_ASKED))


# --- moves -----------------------------------------------------------------------------


def act(state: State, seat: int, kind: str, action: Mapping[str, Any]) -> State:
    """``seat``'s move ``action`` (of type ``kind``, not a timeout) as a new state, or
    IllegalAction. Every check reads ``state``; only then is it copied and the copy changed."""
    phase = state["phase"]
    wanted = {
        "trade": "trade",
        "keep": "trade",
        "ask": "ask",
        "answer": "answer",
        "judge": "judge",
        "accuse": "accuse",
        "dispute": "dispute",
        "agree": "dispute",
        "ready": "results",
    }[kind]
    # raised here, not through ``check``: its message would be made on every move
    if phase != wanted:
        raise IllegalAction("wrong_phase", f"That is not possible now (phase: {phase}).")
    if seat not in to_act(state):
        raise IllegalAction("not_your_turn", _whose_turn(state))
    if kind in ("trade", "keep"):
        if set(action) != {"type"}:
            raise IllegalAction("malformed", f"'{kind}' has no other fields.")
        s = _with_item(state, "trade", seat, kind)
        if all(t is not None for t in s["trade"]):
            s = copy_state(s)
            _resolve_trades(s)
        return s
    if kind == "ready":
        check(set(action) == {"type"}, "malformed", "'ready' has no other fields.")
        s = state.copy()
        s["ready"] = [*state["ready"], seat]
        if not to_act(s):
            s = copy_state(s)
            _start_round(s)
        return s
    if kind == "ask":
        check(set(action) == {"type", "index"}, "malformed", "'ask' needs exactly an 'index'.")
        index = action["index"]
        check(is_int(index) and 0 <= index < 4, "malformed", "'index' must be 0, 1, 2 or 3.")
        check(
            not questions_asked(state, state["hand"][seat])[index],
            "already_asked",
            "That question has already been asked.",
        )
        s = copy_state(state)
        _ask(s, index)
        return s
    if kind == "answer":
        check(set(action) - {"bot"} == {"type", "text"}, "malformed", "'answer' needs exactly a 'text'.")
        by_bot = _by_bot(action)
        text = action["text"]
        check(isinstance(text, str), "malformed", "'text' must be a string.")
        # control characters are dropped; runs of whitespace become one space
        text = " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())
        check(
            len(text) <= MAX_ANSWER_CHARS,
            "answer_too_long",
            f"An answer is at most {MAX_ANSWER_CHARS} characters.",
        )
        s = _with_item(state, "answers", seat, text)
        if by_bot:
            s = _with_item(s, "bot_answers", seat, True)
        if all(s["answers"][p] is not None for p in range(s["players"]) if p != s["genius"]):
            s = copy_state(s)
            _all_answered(s)
        return s
    if kind == "judge":
        check(set(action) <= {"type", "overrides", "bot"}, "malformed", "'judge' takes only 'overrides'.")
        by_bot = _by_bot(action)
        raw = action.get("overrides", {})
        check(isinstance(raw, dict), "malformed", "'overrides' must map seats to true/false.")
        overrides: dict[int, bool] = {}
        for key, value in raw.items():
            ok = isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 2 and isinstance(value, bool)
            check(ok, "malformed", "'overrides' must map seat numbers to true/false.")
            target = int(key)
            check(
                target < state["players"] and target != state["genius"],
                "bad_seat",
                f"Seat {key} gave no answer to judge.",
            )
            overrides[target] = value
        s = copy_state(state)
        _judge(s, overrides, by_bot)
        return s
    if kind == "dispute":
        check(set(action) == {"type", "target"}, "malformed", "'dispute' needs exactly a 'target'.")
        target = action["target"]
        check(is_int(target), "malformed", "'target' must be a seat number.")
        check(
            target in dispute_targets(state, seat),
            "bad_target",
            "You can dispute the verdict of each other person's answer once, never your own or a bot's.",
        )
        s = state.copy()
        s["disputes"] = [*state["disputes"], {"by": seat, "target": target}]
        if not dispute_targets(s, seat):
            s["agreed"] = [*state["agreed"], seat]  # nothing left to dispute: done
        return _dispute_goes_on(s)
    if kind == "agree":
        check(set(action) == {"type"}, "malformed", "'agree' has no other fields.")
        s = state.copy()
        s["agreed"] = [*state["agreed"], seat]
        return _dispute_goes_on(s)
    # accuse
    check(set(action) == {"type", "target"}, "malformed", "'accuse' needs exactly a 'target'.")
    target = action["target"]
    if target is not None:
        check(is_int(target), "malformed", "'target' must be a seat number or null.")
        check(target != seat, "bad_target", "You can't accuse yourself.")
        check(
            target in accuse_targets(state, seat),
            "bad_target",
            "You can only accuse a player whose answer was wrong.",
        )
    s = state.copy()
    _record_accusation(s, seat, target)
    if _accuser_waits(s):
        return s  # the phase goes on
    s = copy_state(s)
    _skip_accusers(s)
    return s


def _by_bot(action: Mapping[str, Any]) -> bool:
    """Whether a move says a bot made it (``"bot": true``; absent: a person)."""
    flag = action.get("bot", False)
    check(isinstance(flag, bool), "malformed", "'bot' must be true or false.")
    return bool(flag)


def _dispute_goes_on(s: State) -> State:
    """After a dispute or an agree: the phase waits for the other voters, or closes."""
    if to_act(s):
        return s
    s = copy_state(s)
    _close_dispute(s)
    return s


def _with_item(state: State, key: str, index: int, value: Any) -> State:
    """``state`` with ``state[key][index]`` set to ``value``, as a new state sharing every
    other value: all that a move within a phase changes (a trade decision, an answer). A
    move that ends a phase copies the new state again (``copy_state``) before changing more."""
    s = state.copy()
    items = s[key] = list(state[key])
    items[index] = value
    return s


# --- transitions (each changes ``s``, a copy the caller owns) ---------------------------


def timeout(s: State) -> None:
    """The system's move when the phase's time limit passes (``GameInfo.timed_phases``)."""
    phase = s["phase"]
    if phase == "trade":
        s["trade"] = [t if t is not None else "keep" for t in s["trade"]]
        _resolve_trades(s)
    elif phase == "ask":
        asked = questions_asked(s, s["hand"][s["genius"]])
        _ask(s, asked.index(False))
    elif phase == "answer":
        for p in range(s["players"]):
            if p != s["genius"] and s["answers"][p] is None:
                s["answers"][p] = ""
        _all_answered(s)
    elif phase == "judge":
        _judge(s, {}, False)
    elif phase == "dispute":
        _close_dispute(s)
    elif phase == "accuse":
        _accuse(s, s["accuse_order"][s["accuse_pos"]], None)
    elif phase == "results":
        _start_round(s)


def _draw_card(s: State) -> int:
    """The trivia deck's front card. An empty deck takes back the discards that still
    have unasked questions (shuffled); failing that, every card not in a hand comes back
    with all four questions askable again."""
    if not s["deck"]:
        fresh = [c for c in s["discard"] if not all(questions_asked(s, c))]
        if not fresh:
            held = set(s["hand"])
            fresh = [c for c in range(card_count(s)) if c not in held]
            asked = dict(s["asked"])
            for c in fresh:
                asked.pop(str(c), None)
            s["asked"] = asked
        s["discard"] = [c for c in s["discard"] if c not in set(fresh)]
        if s["shuffle"]:
            rng = Rng(s["rng"])
            rng.shuffle(fresh)
            s["rng"] = rng.state
        s["deck"] = fresh
    card, s["deck"] = s["deck"][0], s["deck"][1:]
    return int(card)


def _resolve_trades(s: State) -> None:
    # in seat order, each trader discards and takes the deck's next card
    for p in range(s["players"]):
        if s["trade"][p] == "trade":
            s["discard"] = [*s["discard"], s["hand"][p]]
            s["hand"][p] = _draw_card(s)
    _start_round(s)


def _clear_round(s: State, n: int) -> None:
    """No question, answers, verdicts or accusations yet: how every round begins."""
    s["question"] = None
    s["answers"] = [None] * n
    s["bot_answers"] = [False] * n  # whose answer a bot gave (``"bot": true``)
    s["dispute_voters"] = []  # after a bot Genius: the people who answered, who may dispute
    s["disputes"] = []  # {"by", "target"} in order
    s["agreed"] = []  # the voters done disputing
    s["overturned"] = None  # once the dispute closes: the seats whose verdict the table overturned
    s["engine_verdicts"] = [None] * n
    s["overrides"] = [None] * n
    s["verdicts"] = [None] * n
    s["accuse_order"] = []
    s["accuse_pos"] = 0
    s["accusations"] = []
    s["round_items"] = [[] for _ in range(n)]
    s["ready"] = []  # in ``results``: the seats that have seen the round's reveal


def _start_round(s: State) -> None:
    n = s["players"]
    s["round"] += 1
    g = (s["first_genius"] + s["round"] - 1) % n
    s["genius"] = g
    if all(questions_asked(s, s["hand"][g])):
        # a Genius whose card is used up (only on a long tie) takes a new one
        s["discard"] = [*s["discard"], s["hand"][g]]
        s["hand"][g] = _draw_card(s)
    if len(s["whoami"]) < n:
        _reshuffle_whoami(s)
    s["identity"] = [None] * n
    s["revealed"] = [False] * n
    # every player gets a card, from the Genius's left round to the Genius, whose card is set
    # aside unseen (the Genius does not answer) and turned over with the others at scoring
    dealt, s["whoami"] = s["whoami"][:n], s["whoami"][n:]
    for p, card in zip(seats_from(g + 1, n)[: n - 1], dealt, strict=False):
        s["identity"][p] = card
    s["genius_card"] = dealt[-1]
    s["whoami_idiots_dealt"] += dealt.count(IDIOT)
    _clear_round(s, n)
    s["phase"] = "ask"


def _reshuffle_whoami(s: State) -> None:
    """All WHOAMI cards back together (shuffled, or in the given order)."""
    if s["shuffle"]:
        rng = Rng(s["rng"])
        s["whoami"] = rng.shuffled(s["whoami_all"])
        s["rng"] = rng.state
    else:
        s["whoami"] = list(s["whoami_all"])
    s["whoami_idiots_dealt"] = 0
    s["whoami_shuffles"] += 1


def _ask(s: State, index: int) -> None:
    card = s["hand"][s["genius"]]
    asked = questions_asked(s, card)
    asked[index] = True
    s["asked"] = {**s["asked"], str(card): asked}
    s["question"] = index
    s["phase"] = "answer"


def accepted_answers(s: State) -> list[str]:
    """The accepted answers of the question being asked."""
    return card_questions(s, s["hand"][s["genius"]])[s["question"]][1]


def _all_answered(s: State) -> None:
    question, accepted = card_questions(s, s["hand"][s["genius"]])[s["question"]]
    others = known_others(s)
    for p in range(s["players"]):
        if p != s["genius"]:
            s["engine_verdicts"][p] = judge(s["answers"][p], accepted, question, language(s), others)
    s["phase"] = "judge"


def _judge(s: State, overrides: dict[int, bool], by_bot: bool) -> None:
    """The Genius's verdicts. After a bot Genius, the people who answered may dispute them
    first (when there are two or more of them: a person never judges their own answer)."""
    n, g = s["players"], s["genius"]
    for p, v in overrides.items():
        s["overrides"][p] = v
    answerers = seats_from(g + 1, n)[: n - 1]
    for p in answerers:
        s["verdicts"][p] = overrides.get(p, s["engine_verdicts"][p])
    people = [p for p in answerers if not s["bot_answers"][p]]
    if by_bot and len(people) >= 2:
        s["dispute_voters"] = people
        s["phase"] = "dispute"
        return
    _read_out(s)


def overturns(voters: int, disputes: int) -> bool:
    """Whether ``disputes`` of a verdict overturn it: a majority of the ``voters`` other than
    the answerer (more than half of them).

    >>> overturns(2, 1), overturns(3, 1), overturns(3, 2), overturns(4, 2)
    (True, False, True, True)
    """
    return 2 * disputes > voters - 1


def _close_dispute(s: State) -> None:
    """The table's verdicts: each verdict a majority of the other voters disputed is
    overturned; then the answers are read out."""
    voters = s["dispute_voters"]
    s["overturned"] = [t for t in voters if overturns(len(voters), sum(1 for d in s["disputes"] if d["target"] == t))]
    for t in s["overturned"]:
        s["verdicts"][t] = not s["verdicts"][t]
    _read_out(s)


def _read_out(s: State) -> None:
    n, g = s["players"], s["genius"]
    # read out from the Genius's left: a right answer scores 2 at once and is revealed
    for p in seats_from(g + 1, n)[: n - 1]:
        right = s["verdicts"][p]
        if right:
            s["revealed"][p] = True
            if s["identity"][p] == BRAINIAC:
                s["scores"][p] += 2
                s["round_items"][p].append(_item(2, "correct_answer", None))
    s["accuse_order"] = seats_from(g, n)
    s["accuse_pos"] = 0
    s["phase"] = "accuse"
    _skip_accusers(s)


def _accuser_waits(s: State) -> bool:
    """Whether the seat whose turn it is to accuse has someone to accuse: the phase then
    waits for its move."""
    pos = s["accuse_pos"]
    return pos < s["players"] and bool(accuse_targets(s, s["accuse_order"][pos]))


def _skip_accusers(s: State) -> None:
    # an accuser with nobody to accuse passes without being asked; after the last, the round
    # is scored
    while not _accuser_waits(s):
        if s["accuse_pos"] >= s["players"]:
            _score(s)
            return
        s["accusations"].append({"by": s["accuse_order"][s["accuse_pos"]], "target": None, "auto": True})
        s["accuse_pos"] += 1


def _accuse(s: State, seat: int, target: int | None) -> None:
    _record_accusation(s, seat, target)
    _skip_accusers(s)


def _record_accusation(s: State, seat: int, target: int | None) -> None:
    """``seat`` accuses ``target`` (None: passes), and the turn to accuse moves on. The
    accusations are set as a new list: ``s`` may share the old one with the state before."""
    s["accusations"] = [*s["accusations"], {"by": seat, "target": target, "auto": False}]
    s["accuse_pos"] += 1


def _score(s: State) -> None:
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
    before = [s["scores"][p] - sum(i["points"] for i in items[p] if i["kind"] == "correct_answer") for p in range(n)]
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
            "disputes": list(s["disputes"]),
            "overturned": list(s["overturned"] or []),
            "identities": list(s["identity"]),
            "genius_card": s["genius_card"],
            # no move changes an accusation or a score item once made: the record shares them
            "accusations": list(s["accusations"]),
            "changes": changes,
            "items": [list(seat_items) for seat_items in items],
            "scores": list(s["scores"]),
        }
    )
    # the WHOAMI deck comes back together once its last IDIOT has been revealed
    idiots = s["whoami_all"].count(IDIOT)
    if idiots and s["whoami_idiots_dealt"] >= idiots:
        _reshuffle_whoami(s)
    _end_of_round(s)


def _end_of_round(s: State) -> None:
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
