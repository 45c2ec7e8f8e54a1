"""What each seat sees of a Genius Idea game: the shared part (roles, the public cards, the
revealed hints, the history) and each seat's own part (its hand, its riddle, the answer for
the Riddler). Views only read the state.

A state is never changed once made (every apply copies it first), so the views share its
lists and dicts instead of copying them.
"""

from __future__ import annotations

from typing import Any

from ..base import is_seat, to_act_ops
from .rules import HINTS, State, may_pass, outcome, riddler_of, roles_for, to_act


def shared_view(state: State) -> dict[str, Any]:
    n = state["players"]
    phase = state["phase"]
    cur = state["cur"]
    round_index = min(state["round"], state["rounds_total"] - 1)
    roles = roles_for(state, round_index)
    v: dict[str, Any] = {
        "phase": phase,
        "to_act": sorted(to_act(state)),
        "scores": list(state["scores"]),
        "over": phase == "over",
        "mode": state["mode"],
        "players": n,
        "round": round_index + 1,
        "rounds_total": state["rounds_total"],
        "roles": roles,
        "riddler": riddler_of(state, round_index),
        "disruptor": roles.index("disruptor") if "disruptor" in roles else None,
        "supply_count": len(state["supply"]),
        "history": list(state["history"]),
    }
    if phase == "results":
        # the round just played, in full; nothing of the next round is dealt yet
        v["results"] = state["history"][-1]
        v["ready"] = sorted(state["ready"])
    if phase == "prepare":
        v["preparing"] = sorted(state["preparing"])
        v["prepared"] = [s not in state["preparing"] for s in range(n)]
    if cur is not None:
        v["public"] = list(cur["public"])
        v.update(_play_view(state))
    if phase == "over":
        v["result"] = outcome(state)
    return v


def _play_view(state: State) -> dict[str, Any]:
    """The shared view's values of the live round (``cur``) that its moves may change, each
    compared whole by ``shared_view_ops`` (the guesses and the wrong cards only grow)."""
    n, cur = state["players"], state["cur"]
    return {
        "revealed": list(cur["revealed"]),
        "hidden_count": HINTS - len(cur["revealed"]),
        "wrong": list(cur["wrong"]),
        "chances": [cur["chances"][s] if s in cur["solvers"] else None for s in range(n)],
        "passed": sorted(cur["passed"]),
        "guesses": list(cur["guesses"]),
        "may_pass": may_pass(state),
        "points_if_solved": 2 + HINTS - len(cur["revealed"]),
    }


def _span(old: State, new: State) -> str | None:
    """What lies between two positions of one game, where the views' operations are given:
    ``"play"``, one round in play in both (it has a live ``cur``); ``"wait"``, one phase
    without a live round (a preparation, a look at the results); else None (a round began
    or ended between them)."""
    if (old["players"], old["round"]) != (new["players"], new["round"]):
        return None
    if old["cur"] is not None and new["cur"] is not None:
        return "play"
    if old["cur"] is None and new["cur"] is None and old["phase"] == new["phase"]:
        return "wait"
    return None


def shared_view_ops(old: State, new: State) -> list[dict[str, Any]] | None:
    """The JSON Patch operations that turn ``shared_view(old)`` into ``shared_view(new)`` for
    ``new`` a later position of the same game, or None (the server then diffs the two views).

    Given while one round is in play in both (the reveals, orders, guesses and passes, most
    of a game's moves): its public cards, roles and the history stay as they are, and the
    values its moves change (``_play_view``) are compared one by one. Given too between two
    positions of one preparation, or of one look at a round's results: who has prepared,
    who is ready. Not given across a round's start or end, where the view changes whole.

    >>> from geniusnight.engines import get_engine
    >>> engine = get_engine("genius-idea")
    >>> a = engine.setup(3, {}, seed=1)
    >>> b = engine.apply(a, 0, engine.bot_action(a, 0, "random", 0))
    >>> [(op["op"], op["path"]) for op in shared_view_ops(a, b)]
    [('replace', '/to_act'), ('replace', '/preparing'), ('replace', '/prepared/0')]
    """
    span = _span(old, new)
    if span is None:
        return None
    ops = to_act_ops(to_act(old), to_act(new))
    if span == "play":
        if old["phase"] != new["phase"]:
            ops.append({"op": "replace", "path": "/phase", "value": new["phase"]})
        if old["scores"] != new["scores"]:
            ops.append({"op": "replace", "path": "/scores", "value": list(new["scores"])})
        was, now = _play_view(old), _play_view(new)
        for key, value in now.items():
            before = was[key]
            if before == value:
                continue
            if key in ("guesses", "wrong"):  # these only grow
                ops += [{"op": "add", "path": f"/{key}/{i}", "value": value[i]} for i in range(len(before), len(value))]
            else:
                ops.append({"op": "replace", "path": f"/{key}", "value": value})
        return ops
    phase = new["phase"]
    if phase == "prepare" and old["preparing"] != new["preparing"]:
        ops.append({"op": "replace", "path": "/preparing", "value": sorted(new["preparing"])})
        ops += [
            {"op": "replace", "path": f"/prepared/{s}", "value": True}
            for s in old["preparing"]
            if s not in new["preparing"]
        ]
    elif phase == "results" and old["ready"] != new["ready"]:
        ops.append({"op": "replace", "path": "/ready", "value": sorted(new["ready"])})
    return ops


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {}
    if not is_seat(seat, state["players"]):
        return v
    if state["phase"] == "prepare" and seat in state["preparing"]:
        v["hand"] = list(state["hands"][seat])
    if state["riddles"][seat] is not None:
        # Your own riddle for a later round: you made it, so you may see it.
        v["my_riddle"] = state["riddles"][seat]
    cur = state["cur"]
    if cur is not None:
        if seat == cur["riddler"]:
            v["answer"] = cur["answer"]
            v["hints"] = list(cur["hints"])
        elif seat == cur["disruptor"]:
            v["hints"] = list(cur["hints"])
    return v


def seat_view_ops(old: State, new: State, seat: int | None) -> list[dict[str, Any]] | None:
    """The JSON Patch operations that turn ``seat_view(old, seat)`` into ``seat_view(new,
    seat)``, or None, where ``shared_view_ops`` gives its own: while one round is in play a
    seat's own part (its riddle for later, or as Riddler or Disruptor the hints) stays as it
    is, and in one preparation a seat that prepares loses its hand and keeps its riddle.

    >>> from geniusnight.engines import get_engine
    >>> engine = get_engine("genius-idea")
    >>> a = engine.setup(3, {}, seed=1)
    >>> b = engine.apply(a, 0, engine.bot_action(a, 0, "random", 0))
    >>> [(op["op"], op["path"]) for op in seat_view_ops(a, b, 0)], seat_view_ops(a, b, 1)
    ([('remove', '/hand'), ('add', '/my_riddle')], [])
    """
    span = _span(old, new)
    if span is None:
        return None
    if span == "play":
        return []
    if not is_seat(seat, new["players"]) or new["phase"] != "prepare":
        return []
    ops: list[dict[str, Any]] = []
    if seat in old["preparing"] and seat not in new["preparing"]:
        ops.append({"op": "remove", "path": "/hand"})
    was, now = old["riddles"][seat], new["riddles"][seat]
    if was != now:
        ops.append({"op": "add" if was is None else "replace", "path": "/my_riddle", "value": now})
    return ops
