"""Shared helpers for the Brainiac tests: small fixed decks and a round driver."""

from __future__ import annotations

from typing import Any

from geniusnight.engines.brainiac.engine import ENGINE as E

B, I = "brainiac", "idiot"  # noqa: E741 - short names keep the fixed deals readable


def make_cards(count: int, tag: str = "") -> list[list[dict[str, Any]]]:
    """``count`` cards; card c question j asks "Card c question j?" and accepts "ans c j"."""
    return [
        [{"q": f"{tag}Card {c} question {j}?", "a": [f"{tag}ans c{c} q{j}"]} for j in range(4)] for c in range(count)
    ]


def right(state: dict[str, Any]) -> str:
    """An accepted answer of the question being asked."""
    return E.accepted(state)[0]


def new(players: int = 4, whoami: list[str] | None = None, **options: Any) -> dict[str, Any]:
    """A game with a fixed deal (shuffle false), custom cards, past the trade phase."""
    opts: dict[str, Any] = {"shuffle": False, "cards": make_cards(2 * players + 2)}
    if whoami is not None:
        opts["whoami"] = whoami
    opts.update(options)
    s = E.setup(players, opts, seed=1)
    for seat in range(players):
        s = E.apply(s, seat, {"type": "keep"})
    return s


def play_round(
    s: dict[str, Any],
    correct: set[int] | frozenset[int] = frozenset(),
    accuse: dict[int, int | None] | None = None,
    overrides: dict[str, bool] | None = None,
    index: int | None = None,
) -> dict[str, Any]:
    """Ask (the first unasked question unless ``index``), answer (seats in ``correct``
    right, others "wrong"), judge with ``overrides``, accuse as ``accuse`` says, and go on
    past the round's reveal (every seat ready)."""
    g = s["genius"]
    s = E.apply(s, None, {"type": "timeout"}) if index is None else E.apply(s, g, {"type": "ask", "index": index})
    for p in range(s["players"]):
        if p != g:
            s = E.apply(s, p, {"type": "answer", "text": right(s) if p in correct else "wrong"})
    s = E.apply(s, g, {"type": "judge", "overrides": overrides or {}})
    accuse = accuse or {}
    while s["phase"] == "accuse":
        who = s["accuse_order"][s["accuse_pos"]]
        s = E.apply(s, who, {"type": "accuse", "target": accuse.get(who)})
    return ready_all(s)


def ready_all(s: dict[str, Any]) -> dict[str, Any]:
    """Every seat says ready on the round's reveal, so the next round starts."""
    while s["phase"] == "results":
        s = E.apply(s, min(E.to_act(s)), {"type": "ready"})
    return s
