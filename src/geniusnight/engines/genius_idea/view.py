"""What each seat sees of a Genius Idea game: the shared part (roles, the public cards, the
revealed hints, the history) and each seat's own part (its hand, its riddle, the answer for
the Riddler). Views only read the state.

A state is never changed once made (every apply copies it first), so the views share its
lists and dicts instead of copying them.
"""

from __future__ import annotations

from typing import Any

from .rules import HINTS, State, is_int, may_pass, outcome, riddler_of, roles_for, to_act


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
        v["revealed"] = list(cur["revealed"])
        v["hidden_count"] = HINTS - len(cur["revealed"])
        v["wrong"] = list(cur["wrong"])
        v["chances"] = [cur["chances"][s] if s in cur["solvers"] else None for s in range(n)]
        v["passed"] = sorted(cur["passed"])
        v["guesses"] = list(cur["guesses"])
        v["may_pass"] = may_pass(state)
        v["points_if_solved"] = 2 + HINTS - len(cur["revealed"])
    if phase == "over":
        v["result"] = outcome(state)
    return v


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {}
    if seat is None or not is_int(seat) or not 0 <= seat < state["players"]:
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
