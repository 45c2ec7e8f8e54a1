"""What each seat sees of a Brainiac or IDIOT! game: the shared part (scores, the round's
public progress, the history) and each seat's own part (its card, its identity, the answers
and verdicts a Genius judges). Views only read the state.

A state is never changed once made (every apply copies it first), so the views share its
lists and dicts instead of copying them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..base import is_seat, seats_from, to_act_ops
from .cards import IDIOT, ROUND_PHASES, State, card_entries, language
from .rules import NOT_ASKED, accuse_targets, dispute_targets, outcome, to_act


def shared_view(state: State) -> dict[str, Any]:
    s = state
    n, g, phase = s["players"], s["genius"], s["phase"]
    in_round = phase in ROUND_PHASES
    v: dict[str, Any] = {
        "phase": phase,
        "to_act": sorted(to_act(s)),
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
            "idiots_seen": idiots_seen(s),
            "size": len(s["whoami_all"]),
        },
        # A finished round's record is never changed (apply works on a copy), so views
        # share the records instead of copying them per seat.
        "history": list(s["history"]),
        "traded": None if phase == "trade" else [t == "trade" for t in s["trade"]],
    }
    if in_round:
        order = seats_from(g, n)
        v["readout_order"] = order[1:]
        v["accuse_order"] = order
        v["revealed"] = [who if shown else None for who, shown in zip(s["identity"], s["revealed"], strict=True)]
        answered = [a is not None for a in s["answers"]]
        answered[g] = False
        v["answered"] = answered
        v["answers"] = list(s["answers"]) if phase in ("judge", "dispute", "accuse") else None
        v["accusations"] = [{"by": a["by"], "target": a["target"]} for a in s["accusations"]]
        v["accuser"] = s["accuse_order"][s["accuse_pos"]] if phase == "accuse" else None
        v["dispute"] = _dispute(s)
    else:
        for key in ("answers", "revealed", "accuser", "dispute"):
            v[key] = None
        v["accusations"] = []
        v["answered"] = [False] * n
    if phase == "results":
        # the round just played, in full; the next round's cards are not dealt yet
        v["results"] = s["history"][-1]
        v["ready"] = sorted(s["ready"])
    if phase == "over":
        v["result"] = outcome(s)
    return v


def _dispute(s: State) -> dict[str, Any] | None:
    """The table's dispute of a bot Genius's verdicts (public), once the Genius has judged."""
    if not s["dispute_voters"]:
        return None
    return {
        "voters": list(s["dispute_voters"]),
        "disputes": [{"by": d["by"], "target": d["target"]} for d in s["disputes"]],
        "agreed": sorted(s["agreed"]),
        "overturned": s["overturned"],
    }


def shared_view_ops(old: State, new: State) -> list[dict[str, Any]] | None:
    """The JSON Patch operations that turn ``shared_view(old)`` into ``shared_view(new)`` for
    ``new`` a later position of the same game in the same phase of the same round, or None
    (a new phase or round: the server then diffs the two views). Within a phase only the
    moves of that phase happen, and each changes a few values, found here from the state
    without building either view: who is to act, who has answered, the accusations made and
    the next accuser, who is ready. (Whatever else a move does, such as scoring, dealing or
    revealing, starts another phase.)

    >>> from geniusnight.engines import get_engine
    >>> engine = get_engine("brainiac")
    >>> a = engine.setup(3, {}, seed=1)
    >>> b = engine.apply(a, 0, {"type": "keep"})
    >>> shared_view_ops(a, b)
    [{'op': 'replace', 'path': '/to_act', 'value': [1, 2]}]
    """
    if not _one_phase(old, new):
        return None
    phase = new["phase"]
    ops = to_act_ops(to_act(old), to_act(new))
    if phase == "answer":
        g, was, now = new["genius"], old["answers"], new["answers"]
        ops += [
            {"op": "replace", "path": f"/answered/{p}", "value": True}
            for p in range(new["players"])
            if p != g and was[p] is None and now[p] is not None
        ]
    elif phase == "accuse":
        made = new["accusations"]
        ops += [
            {"op": "add", "path": f"/accusations/{i}", "value": {"by": a["by"], "target": a["target"]}}
            for i, a in enumerate(made[len(old["accusations"]) :], len(old["accusations"]))
        ]
        accuser = new["accuse_order"][new["accuse_pos"]]
        if old["accuse_order"][old["accuse_pos"]] != accuser:
            ops.append({"op": "replace", "path": "/accuser", "value": accuser})
    elif phase == "dispute":
        made = new["disputes"]
        ops += [
            {"op": "add", "path": f"/dispute/disputes/{i}", "value": {"by": d["by"], "target": d["target"]}}
            for i, d in enumerate(made[len(old["disputes"]) :], len(old["disputes"]))
        ]
        if old["agreed"] != new["agreed"]:
            ops.append({"op": "replace", "path": "/dispute/agreed", "value": sorted(new["agreed"])})
    elif phase == "results" and old["ready"] != new["ready"]:
        ops.append({"op": "replace", "path": "/ready", "value": sorted(new["ready"])})
    return ops


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    s = state
    n, g, phase = s["players"], s["genius"], s["phase"]
    me = _player(s, seat)
    in_round = phase in ROUND_PHASES
    is_genius = me is not None and me == g and in_round
    v: dict[str, Any] = {"seat": me}
    if me is not None:
        hand = s["hand"][me]
        asked = tuple(s["asked"].get(str(hand), NOT_ASKED))  # (questions_asked, without its copy)
        if s["cards"] is None:
            v["card"] = _builtin_card(language(s), hand, asked, is_genius)
        else:
            v["card"] = _card(card_entries(s["cards"], hand, language(s)), asked, is_genius)
    if phase == "trade":
        v["trade"] = {
            "decided": [t is not None for t in s["trade"]],
            "mine": s["trade"][me] if me is not None else None,
        }
    if not in_round:
        for key in ("question", "verdicts", "identity", "my_answer"):
            v[key] = None
        v["accuse_targets"] = []
        v["dispute_targets"] = []
        return v
    v["identity"] = s["identity"][me] if me is not None else None
    v["my_answer"] = s["answers"][me] if me is not None else None
    if s["question"] is not None:
        q, accepted = card_entries(s["cards"], s["hand"][g], language(s))[s["question"]]
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
    elif phase in ("dispute", "accuse"):
        # in dispute, "final" is the Genius's verdict, which stands unless the table overturns it
        v["verdicts"] = {
            "engine": list(s["engine_verdicts"]),
            "overrides": list(s["overrides"]),
            "final": list(s["verdicts"]),
        }
    else:
        v["verdicts"] = None
    v["accuse_targets"] = _accuse_targets(s, me) if phase == "accuse" and me is not None else []
    v["dispute_targets"] = dispute_targets(s, me) if me is not None else []
    return v


def seat_view_ops(old: State, new: State, seat: int | None) -> list[dict[str, Any]] | None:
    """The JSON Patch operations that turn ``seat_view(old, seat)`` into ``seat_view(new,
    seat)`` for ``new`` a later position in the same phase of the same round, or None (a
    new phase or round: the server diffs the two views). Within a phase a seat's own part
    changes only by that phase's moves: who has decided to trade (and its own choice), its
    own answer, whom it may accuse when its turn to accuse comes or goes. Its card, identity,
    the question and the verdicts change only with the phase.

    >>> from geniusnight.engines import get_engine
    >>> engine = get_engine("brainiac")
    >>> a = engine.setup(3, {}, seed=1)
    >>> b = engine.apply(a, 0, {"type": "trade"})
    >>> seat_view_ops(a, b, 0)
    [{'op': 'replace', 'path': '/trade/decided/0', 'value': True}, \
{'op': 'replace', 'path': '/trade/mine', 'value': 'trade'}]
    >>> seat_view_ops(a, b, 1) == seat_view_ops(a, b, None) == seat_view_ops(a, b, 0)[:1]
    True
    """
    if not _one_phase(old, new):
        return None
    phase = new["phase"]
    n, me = new["players"], _player(new, seat)
    ops: list[dict[str, Any]] = []
    if phase == "trade":
        was, now = old["trade"], new["trade"]
        ops += [
            {"op": "replace", "path": f"/trade/decided/{p}", "value": True}
            for p in range(n)
            if was[p] is None and now[p] is not None
        ]
        if me is not None and was[me] != now[me]:
            ops.append({"op": "replace", "path": "/trade/mine", "value": now[me]})
    elif me is None:
        pass  # a spectator's part outside the trade is the same all phase long
    elif phase == "answer":
        if old["answers"][me] != new["answers"][me]:
            ops.append({"op": "replace", "path": "/my_answer", "value": new["answers"][me]})
    elif phase == "accuse":
        targets = _accuse_targets(new, me)
        if _accuse_targets(old, me) != targets:
            ops.append({"op": "replace", "path": "/accuse_targets", "value": targets})
    elif phase == "dispute":
        targets = dispute_targets(new, me)
        if dispute_targets(old, me) != targets:
            ops.append({"op": "replace", "path": "/dispute_targets", "value": targets})
    return ops


def _one_phase(old: State, new: State) -> bool:
    """Whether two positions of one game are in the same phase of the same round: then only
    that phase's moves lie between them (a round's phases come one after another, once)."""
    return (old["players"], old["round"], old["phase"]) == (new["players"], new["round"], new["phase"])


def _player(state: State, seat: int | None) -> int | None:
    """``seat`` if it is a player's, else None (a spectator, or a seat the game lacks)."""
    return seat if is_seat(seat, state["players"]) else None


def _accuse_targets(s: State, me: int) -> list[int]:
    """Whom seat ``me`` may accuse now, as its view says (in the accuse phase)."""
    return accuse_targets(s, me) if me == s["accuse_order"][s["accuse_pos"]] else []


def _card(
    entries: Sequence[tuple[str, Sequence[str]]], asked: tuple[bool, ...], is_genius: bool
) -> list[dict[str, Any]]:
    """A seat's trivia card as its view shows it: each question, whether it was asked, and
    for the Genius the accepted answers."""
    card = []
    for i, ((q, a), was_asked) in enumerate(zip(entries, asked, strict=True)):
        entry: dict[str, Any] = {"q": q, "level": i + 1, "asked": was_asked}
        if is_genius:
            entry["a"] = list(a)
        card.append(entry)
    return card


@lru_cache(maxsize=4096)
def _builtin_card(lang: str, hand: int, asked: tuple[bool, ...], is_genius: bool) -> list[dict[str, Any]]:
    """``_card`` of a card of the built-in bank of ``lang``, made once for each way it can look: a
    seat's card then stays the very same object from move to move, which the patch diff
    skips at once (comparing two equal cards cost a twentieth of a Brainiac move)."""
    return _card(card_entries(None, hand, lang), asked, is_genius)


def idiots_seen(s: State) -> int:
    """IDIOT cards revealed since the WHOAMI deck was last shuffled (public knowledge)."""
    dealt = s["whoami_idiots_dealt"]
    if s["phase"] in ROUND_PHASES:
        hidden = sum(1 for p in range(s["players"]) if s["identity"][p] == IDIOT and not s["revealed"][p])
        hidden += s["genius_card"] == IDIOT  # set aside unseen until the scoring
        return int(dealt - hidden)
    return int(dealt)
