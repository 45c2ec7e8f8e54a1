"""Genius Idea rules on a plain JSON state (docs/rules/genius-idea.md).

The state is a dict of JSON values only, so ``dump``/``load`` are copies and ``apply`` works
on a copy (``next_state``; the given state is never changed). Keys:

- ``players``, ``mode`` (``competitive``/``coop``), ``shuffle``, ``first_riddler``,
  ``rounds_total``, ``rng`` (the PRNG state; never in a view)
- ``supply``: the undealt cards, front first; ``discards``: cards out of the game
- ``hands``: per seat, the 10 cards being prepared (empty when not preparing)
- ``riddles``: per seat, the prepared riddle ``{"answer", "hints"}`` not yet played, or None
- ``preparing``: seats that still have to prepare in the current ``prepare`` phase
- ``phase``: ``prepare`` | ``reveal`` | ``order`` | ``guess`` | ``results`` | ``over``
- ``round``: 0-based index of the current round (in ``results``, the one just played; in a
  ``prepare`` before any round, the next one); ``cur``: the live round or None
- ``ready``: in ``results``, the seats that have seen the round's result
- ``scores``, ``history`` (finished rounds, public), ``winners`` (once over)
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from typing import Any

from ..base import IllegalAction, Rng, check, winners_by_max

State = dict[str, Any]


def jcopy(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, str, int, bool, None); far faster than
    ``copy.deepcopy``, which matters because every ``apply`` copies the whole state."""
    return marshal.loads(marshal.dumps(value))


# Values no move changes in place: a move that changes one sets a new value in its state
# (``state["supply"] = state["supply"][5:]``, never ``del state["supply"][:5]``), so states
# share them. The card piles are a state's largest values, and most moves leave them be.
SHARED = frozenset({"supply", "discards", "history", "hands"})
# lists whose items a move replaces or adds, never changes in place: numbers, and each seat's
# prepared riddle (a move gives a seat a new riddle, or None; it never edits one)
SHALLOW_LISTS = frozenset({"preparing", "ready", "scores", "winners", "riddles"})


def next_state(state: State) -> State:
    """The copy of ``state`` a move works on (the given state is never changed): what no
    move changes in place (``SHARED``) is shared, the lists whose items are never changed in
    place are copied one level deep, and so is the live round ``cur`` (a move adds to its
    lists, or sets its numbers and lists anew, but never changes a guess once made), so
    states share the items; anything else is copied deeply. Copying was half of a move's
    ``apply``."""
    new = dict(state)
    for key, value in state.items():
        kind = type(value)
        if (kind is not list and kind is not dict) or key in SHARED:
            continue
        if key in SHALLOW_LISTS:
            new[key] = list(value)
        elif key == "cur" and kind is dict:
            new[key] = {k: list(v) if type(v) is list else v for k, v in value.items()}
        else:
            new[key] = jcopy(value)
    return new


def _give_hand(state: State, seat: int, hand: list[str]) -> None:
    """``seat`` holds ``hand`` now (``hands`` is shared between states: see ``SHARED``)."""
    hands = state["hands"] = list(state["hands"])
    hands[seat] = hand


HAND_SIZE = 10
HINTS = 5
PUBLIC_FROM_SUPPLY = 15
COOP_ROUNDS = 4
COOP_TARGET = 15  # the pair wins with a team total above this
CHANCES = {3: 3, 4: 2, 5: 1, 6: 1}
COOP_CHANCES = 3


def rounds_for(mode: str, players: int) -> int:
    return COOP_ROUNDS if mode == "coop" else players


def cards_needed(mode: str, players: int) -> int:
    """Exactly how many cards a game draws: the deals, 15 per round, and co-op re-deals.

    Competitive: ``players*10 + 15*players``. Co-op (2 players, 4 rounds): the first two hands
    (20), 15 per round (60) and the two fresh hands before rounds 3 and 4 (20) = 100.
    """
    if mode == "coop":
        return players * HAND_SIZE + PUBLIC_FROM_SUPPLY * COOP_ROUNDS + HAND_SIZE * (COOP_ROUNDS - players)
    return players * HAND_SIZE + PUBLIC_FROM_SUPPLY * players


def riddler_of(state: State, round_index: int) -> int:
    return (state["first_riddler"] + round_index) % state["players"]


def roles_for(state: State, round_index: int) -> list[str]:
    """Role by seat in that round: the Riddler, the next seat Disruptor (competitive), Solvers."""
    n = state["players"]
    riddler = riddler_of(state, round_index)
    roles = ["solver"] * n
    roles[riddler] = "riddler"
    if state["mode"] == "competitive":
        roles[(riddler + 1) % n] = "disruptor"
    return roles


def new_game(
    players: int, mode: str, language: str, deck: list[str], shuffle: bool, first_riddler: int, rng: Rng
) -> State:
    """A new game dealt from ``deck``; ``language`` is the room's content language, whose
    tables the bots read the words with."""
    if shuffle:
        rng.shuffle(deck)
    hands = [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(players)]
    state: State = {
        "players": players,
        "mode": mode,
        "language": language,
        "shuffle": shuffle,
        "first_riddler": first_riddler,
        "rounds_total": rounds_for(mode, players),
        "rng": rng.state,
        "supply": deck[players * HAND_SIZE :],
        "discards": [],
        "hands": hands,
        "riddles": [None] * players,
        "preparing": list(range(players)),
        "phase": "prepare",
        "round": 0,
        "cur": None,
        "scores": [0] * players,
        "history": [],
        "winners": None,
        "ready": [],
    }
    return state


# --- queries ---------------------------------------------------------------------------


def solvers(state: State) -> list[int]:
    cur = state["cur"]
    return [] if cur is None else list(cur["solvers"])


def active_solvers(state: State) -> list[int]:
    """Solvers with chances left."""
    cur = state["cur"]
    return [s for s in cur["solvers"] if cur["chances"][s] > 0]


def to_act(state: State) -> set[int]:
    phase = state["phase"]
    if phase == "prepare":
        return set(state["preparing"])
    cur = state["cur"]
    if phase == "reveal":
        return {cur["disruptor"]}
    if phase == "order":
        return {cur["riddler"]}
    if phase == "guess":
        return {s for s in active_solvers(state) if s not in cur["passed"]}
    if phase == "results":
        return {s for s in range(state["players"]) if s not in state["ready"]}
    return set()


def may_pass(state: State) -> bool:
    return len(state["cur"]["revealed"]) < HINTS


def whose_turn(state: State) -> str:
    """Why a seat that may not act now may not (the message of ``not_your_turn``)."""
    phase = state["phase"]
    if phase == "prepare":
        return "You have already prepared your riddle."
    if phase == "reveal":
        return "The Disruptor reveals the next hint."
    if phase == "order":
        return "The Riddler is ordering the hints."
    if phase == "results":
        return "You are already ready for the next round."
    return "You can't guess now (you are not a Solver with chances left, or you passed)."


def outcome(state: State) -> dict[str, Any] | None:
    if state["winners"] is None:
        return None
    result: dict[str, Any] = {"winners": list(state["winners"]), "scores": list(state["scores"])}
    if state["mode"] == "coop":
        result["team_total"] = sum(state["scores"])
        result["target"] = COOP_TARGET
    return result


# --- actions (a player's move as sent, checked here, then made) ----------------------------


# The checks every move passes raise where a condition fails rather than call ``check``, whose
# message (formatted, or built by ``whose_turn``) would be made on every move.


def _str(action: Mapping[str, Any], key: str) -> str:
    value = action.get(key)
    if type(value) is not str:
        raise IllegalAction("malformed", f"'{key}' must be a card's word.")
    return value


def _str_list(action: Mapping[str, Any], key: str) -> list[str]:
    value = action.get(key)
    if type(value) is not list or not all(type(v) is str for v in value):
        raise IllegalAction("malformed", f"'{key}' must be a list of words.")
    return list(value)


def act(state: State, seat: int, kind: str, action: Mapping[str, Any]) -> None:
    """Make ``seat``'s move ``action`` (of type ``kind``) on ``state``, a copy the caller owns,
    or raise IllegalAction (the copy is then thrown away)."""
    phase = state["phase"]
    wanted = {"pass": "guess", "ready": "results"}.get(kind, kind)
    if phase != wanted:
        raise IllegalAction("wrong_phase", f"That move is not possible now: the game is in the {phase} phase.")
    if seat not in to_act(state):
        raise IllegalAction("not_your_turn", whose_turn(state))
    if kind == "prepare":
        answer = _str(action, "answer")
        hints = _str_list(action, "hints")
        check(len(hints) == HINTS, "bad_riddle", "A riddle needs exactly 5 hints.")
        prepare(state, seat, answer, hints)
    elif kind == "reveal":
        reveal(state, _str(action, "hint"))
    elif kind == "order":
        order(state, _str_list(action, "hints"))
    elif kind == "guess":
        guess(state, seat, _str(action, "card"))
    elif kind == "ready":
        check(set(action) == {"type"}, "malformed", "'ready' has no other fields.")
        ready(state, seat)
    else:
        pass_(state, seat)


# --- transitions -----------------------------------------------------------------------


def prepare(state: State, seat: int, answer: str, hints: list[str]) -> None:
    hand = state["hands"][seat]
    for card in (answer, *hints):
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{card!r} is not one of your cards.")
    check(len(set(hints)) == HINTS, "bad_riddle", "The 5 hints must be 5 different cards.")
    check(answer not in hints, "bad_riddle", "The answer can't also be a hint.")
    state["riddles"][seat] = {"answer": answer, "hints": list(hints)}
    used = {answer, *hints}
    state["discards"] = [*state["discards"], *(c for c in hand if c not in used)]
    _give_hand(state, seat, [])
    state["preparing"].remove(seat)
    if not state["preparing"]:
        start_round(state)


def start_round(state: State) -> None:
    """Lay out the public area and move to the first reveal (or a co-op re-prepare first)."""
    r = state["round"]
    riddler = riddler_of(state, r)
    if state["riddles"][riddler] is None:
        # Co-op: this player is about to be Riddler a second time: 10 fresh cards first.
        _give_hand(state, riddler, state["supply"][:HAND_SIZE])
        state["supply"] = state["supply"][HAND_SIZE:]
        state["preparing"] = [riddler]
        state["phase"] = "prepare"
        state["cur"] = None
        return
    riddle = state["riddles"][riddler]
    state["riddles"][riddler] = None
    roles = roles_for(state, r)
    public = [*state["supply"][:PUBLIC_FROM_SUPPLY], riddle["answer"]]
    state["supply"] = state["supply"][PUBLIC_FROM_SUPPLY:]
    rng = Rng(state["rng"])
    if state["shuffle"]:
        rng.shuffle(public)
    state["rng"] = rng.state
    chances = COOP_CHANCES if state["mode"] == "coop" else CHANCES[state["players"]]
    solver_seats = [s for s in range(state["players"]) if roles[s] == "solver"]
    state["cur"] = {
        "riddler": riddler,
        "disruptor": roles.index("disruptor") if "disruptor" in roles else None,
        "solvers": solver_seats,
        "answer": riddle["answer"],
        "hints": riddle["hints"],
        "revealed": [],
        "public": public,
        "wrong": [],
        "chances": [chances if s in solver_seats else 0 for s in range(state["players"])],
        "passed": [],
        "guesses": [],
        "disruptor_points": 0,
    }
    next_hint(state)


def next_hint(state: State) -> None:
    """Passes are cleared and the next hint comes: the Disruptor's choice, or random in co-op."""
    cur = state["cur"]
    cur["passed"] = []
    if state["mode"] == "coop":
        system_reveal(state)
    else:
        state["phase"] = "reveal"


def system_reveal(state: State) -> None:
    """The engine reveals a hint itself (co-op, or a reveal timeout): a random unrevealed one
    from the in-state PRNG, or with ``shuffle`` false the first unrevealed one in the order the
    Riddler prepared them, so a fixed deal fixes the whole game."""
    cur = state["cur"]
    hidden = [h for h in cur["hints"] if h not in cur["revealed"]]
    if state["shuffle"]:
        rng = Rng(state["rng"])
        choice = rng.choice(hidden)
        state["rng"] = rng.state
    else:
        choice = hidden[0]
    reveal(state, choice)


def reveal(state: State, hint: str) -> None:
    cur = state["cur"]
    if hint not in cur["hints"]:
        raise IllegalAction("not_a_hint", f"{hint!r} is not one of this riddle's hints.")
    if hint in cur["revealed"]:
        raise IllegalAction("already_revealed", f"{hint!r} is already revealed.")
    cur["revealed"].append(hint)  # new hints go last; the Riddler may then reorder
    state["phase"] = "order" if len(cur["revealed"]) >= 2 else "guess"


def order(state: State, hints: list[str]) -> None:
    cur = state["cur"]
    check(
        len(hints) == len(cur["revealed"]) and sorted(hints) == sorted(cur["revealed"]),
        "bad_order",
        "The order must list every revealed hint exactly once.",
    )
    cur["revealed"] = list(hints)
    state["phase"] = "guess"


def guess(state: State, seat: int, card: str) -> None:
    cur = state["cur"]
    if card not in cur["public"]:
        raise IllegalAction("not_public", f"{card!r} is not a card in the public area.")
    if card in cur["wrong"]:
        raise IllegalAction("already_wrong", f"{card!r} was already guessed wrong.")
    if card == cur["answer"]:
        cur["guesses"].append({"seat": seat, "card": card, "correct": True})
        points = 2 + HINTS - len(cur["revealed"])
        state["scores"][cur["riddler"]] += points
        state["scores"][seat] += points
        end_round(state, solver=seat, points=points)
        return
    cur["guesses"].append({"seat": seat, "card": card, "correct": False})
    cur["wrong"].append(card)
    cur["chances"][seat] -= 1
    if cur["disruptor"] is not None:
        state["scores"][cur["disruptor"]] += 1
        cur["disruptor_points"] += 1
    settle(state)


def pass_(state: State, seat: int) -> None:
    check(may_pass(state), "no_pass", "All 5 hints are out: you can't pass, you must guess.")
    state["cur"]["passed"].append(seat)
    settle(state)


def settle(state: State) -> None:
    """After a guess or pass: end unsolved, bring the next hint, or keep racing."""
    cur = state["cur"]
    active = active_solvers(state)
    if not active:
        end_round(state, solver=None, points=0)
    elif all(s in cur["passed"] for s in active):
        next_hint(state)


def timeout(state: State) -> None:
    """The system's move when a phase's time runs out (preparation is done by the engine)."""
    phase = state["phase"]
    cur = state["cur"]
    if phase == "reveal":
        system_reveal(state)
    elif phase == "order":
        order(state, list(cur["revealed"]))
    elif phase == "guess":
        if not may_pass(state):
            end_round(state, solver=None, points=0)
        else:
            waiting = sorted(to_act(state))
            cur["passed"].extend(waiting)
            settle(state)
    elif phase == "results":
        next_round(state)
    else:  # pragma: no cover - prepare is handled by the engine, over refuses earlier
        raise IllegalAction("wrong_phase", "Nothing to time out now.")


def end_round(state: State, solver: int | None, points: int) -> None:
    cur = state["cur"]
    n = state["players"]
    gained = [0] * n
    if solver is not None:
        gained[cur["riddler"]] += points
        gained[solver] += points
    if cur["disruptor"] is not None:
        gained[cur["disruptor"]] += cur["disruptor_points"]
    state["history"] = [
        *state["history"],
        {
            "round": state["round"] + 1,
            "riddler": cur["riddler"],
            "disruptor": cur["disruptor"],
            "answer": cur["answer"],
            "hints": list(cur["hints"]),
            "revealed": list(cur["revealed"]),
            "public": list(cur["public"]),
            "wrong": list(cur["wrong"]),
            "guesses": jcopy(cur["guesses"]),
            "solved_by": solver,
            "points": gained,
        },
    ]
    state["discards"] = [*state["discards"], *cur["public"], *cur["hints"]]
    state["cur"] = None
    if state["round"] + 1 >= state["rounds_total"]:
        state["round"] += 1
        finish(state)
    else:
        # The table looks at the result (``history[-1]``) before the next round is dealt.
        state["phase"] = "results"
        state["ready"] = []


def ready(state: State, seat: int) -> None:
    """A seat has seen the round's result; once every seat has, the next round starts."""
    state["ready"].append(seat)
    if not to_act(state):
        next_round(state)


def next_round(state: State) -> None:
    state["ready"] = []
    state["round"] += 1
    start_round(state)


def finish(state: State) -> None:
    state["phase"] = "over"
    if state["mode"] == "coop":
        state["winners"] = list(range(state["players"])) if sum(state["scores"]) > COOP_TARGET else []
    else:
        state["winners"] = winners_by_max(state["scores"])
