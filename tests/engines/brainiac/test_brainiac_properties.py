"""Property tests: many random Brainiac games, with junk actions mixed in, played to the end.

Raise ``BRAINIAC_PROPERTY_EXAMPLES`` (default 30) for a longer run.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

from brainiac_helpers import make_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hidden_info
from geniusnight.engines.base import IllegalAction, Rng
from geniusnight.engines.brainiac.cards import IDIOT, ROUND_PHASES, card_count
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.server.play.patches import apply_patch

EXAMPLES = int(os.environ.get("BRAINIAC_PROPERTY_EXAMPLES", "30"))

JUNK: list[Any] = [
    None,
    7,
    "ask",
    [],
    {},
    {"type": None},
    {"type": "dance"},
    {"type": "ask", "index": -1},
    {"type": "ask", "index": 4},
    {"type": "ask", "index": "0"},
    {"type": "ask", "index": 1.0},
    {"type": "answer"},
    {"type": "answer", "text": 12},
    {"type": "answer", "text": "x" * 201},
    {"type": "answer", "text": "ok", "extra": True},
    {"type": "judge", "overrides": []},
    {"type": "judge", "overrides": {"99": True}},
    {"type": "judge", "overrides": {"1": 1}},
    {"type": "accuse"},
    {"type": "accuse", "target": "1"},
    {"type": "accuse", "target": 99},
    {"type": "accuse", "target": -1},
    {"type": "trade", "please": 1},
    {"type": "keep", "x": None},
    {"type": "timeout", "x": 1},
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
junk_actions = st.one_of(
    st.sampled_from(JUNK),
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["trade", "keep", "ask", "answer", "judge", "accuse", "timeout"])},
        optional={"index": json_values, "text": json_values, "overrides": json_values, "target": json_values},
    ),
)


def check_view(state: dict[str, Any], seat: int | None) -> None:
    """The view's fixed fields; what it may not show is the game's oracle (tests/hidden_info.py)."""
    v = E.view(state, seat)
    assert set(v) >= {"phase", "to_act", "scores", "over"}
    assert all(x >= 0 for x in v["scores"])
    if v["over"]:
        assert v["result"] == E.outcome(state)
    hidden_info.check_view("brainiac", state, seat, v)


def check_conservation(state: dict[str, Any]) -> None:
    n = state["players"]
    held = list(state["hand"])
    pile = held + list(state["deck"]) + list(state["discard"])
    assert sorted(pile) == list(range(card_count(state))), "every trivia card is in one place"
    deck, every = state["whoami"], state["whoami_all"]
    dealt = len(every) - len(deck)
    assert 0 <= dealt <= len(every)
    assert state["whoami_idiots_dealt"] == every.count(IDIOT) - deck.count(IDIOT)
    if state["phase"] in ROUND_PHASES:
        assert sum(1 for x in state["identity"] if x is not None) == n - 1
        assert state["identity"][state["genius"]] is None and state["genius_card"] is not None
    assert all(x >= 0 for x in state["scores"])


def play(players: int, seed: int, options: dict[str, Any], junk: list[Any], bots: list[str]) -> tuple[Any, list[Any]]:
    state = E.setup(players, options, seed)
    rng = Rng.from_seed(seed)
    log: list[Any] = []
    for step in range(4000):
        if E.outcome(state) is not None:
            break
        check_conservation(state)
        seats: list[int | None] = [None, *range(players)]
        for seat in seats:
            check_view(state, seat)
        if junk and rng.random() < 0.3:
            action = junk[rng.randbelow(len(junk))]
            seat = rng.choice(seats)
            before = json.dumps(E.dump(state), sort_keys=True)
            try:
                new = E.apply(state, seat, action)
            except IllegalAction as e:
                assert e.code and str(e)
                assert json.dumps(E.dump(state), sort_keys=True) == before
                continue
            assert json.dumps(E.dump(state), sort_keys=True) == before  # the input never changes
            state = new
            log.append((seat, action))
            continue
        acting = sorted(E.to_act(state))
        if rng.random() < 0.08:
            actor, action = None, {"type": "timeout"}
        else:
            actor = rng.choice(acting)
            action = E.bot_action(state, actor, bots[actor], seed * 31 + step)
            assert action is not None
        state = E.apply(state, actor, action)
        log.append((actor, action))
    return state, log


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 2**40),
    shuffle=st.booleans(),
    custom=st.booleans(),
    small_whoami=st.booleans(),
    junk=st.lists(junk_actions, max_size=8),
    bots=st.lists(st.sampled_from(["random", "trivia"]), min_size=6, max_size=6),
)
def test_random_games_end_and_keep_every_invariant(
    players: int, seed: int, shuffle: bool, custom: bool, small_whoami: bool, junk: list[Any], bots: list[str]
) -> None:
    options: dict[str, Any] = {"shuffle": shuffle, "first_genius": seed % players}
    if custom:
        options["cards"] = make_cards(2 * players)
    if small_whoami:
        options["whoami"] = ["idiot", "brainiac", "brainiac", "idiot", "brainiac", "brainiac", "brainiac"]
    state, log = play(players, seed, options, junk, bots)
    outcome = E.outcome(state)
    assert outcome is not None, "the game ended"
    scores = outcome["scores"]
    assert all(x >= 0 for x in scores)
    top = max(scores)
    leaders = [p for p, x in enumerate(scores) if x == top]
    assert outcome["winners"] == leaders
    assert len(leaders) == 1 or state["round"] == state["rounds_total"] + 60
    assert state["round"] >= state["rounds_total"]
    # history explains every change: the items add up, the changes add up to the scores
    totals = [0] * players
    for h in state["history"]:
        for p in range(players):
            assert sum(i["points"] for i in h["items"][p]) == h["changes"][p]
            totals[p] += h["changes"][p]
        assert h["scores"] == totals
    assert totals == scores
    # dump/load and determinism: replaying the log gives the same dumps
    assert E.load(json.loads(json.dumps(E.dump(state)))) == state
    again = E.setup(players, options, seed)
    for seat, action in log:
        again = E.apply(again, seat, action)
    assert E.dump(again) == E.dump(state)


@settings(max_examples=max(10, EXAMPLES), deadline=None)
@given(seed=st.integers(0, 2**30), action=junk_actions, seat=st.one_of(st.none(), st.integers(-2, 8)))
def test_junk_actions_raise_illegal_action_and_change_nothing(seed: int, action: Any, seat: int | None) -> None:
    state = E.setup(4, {"cards": make_cards(8)}, seed)
    rng = Rng.from_seed(seed)
    for step in range(rng.randbelow(40)):
        if E.outcome(state) is not None:
            break
        actor = rng.choice(sorted(E.to_act(state)))
        state = E.apply(state, actor, E.bot_action(state, actor, "random", step))
    before = E.dump(state)
    with contextlib.suppress(IllegalAction):
        E.apply(state, seat, action)
    assert E.dump(state) == before


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON: ``==`` alone takes 1 and True for one another."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 2**40),
    custom=st.booleans(),
    bots=st.lists(st.sampled_from(["random", "trivia"]), min_size=6, max_size=6),
    gap=st.integers(1, 6),
)
def test_view_ops_take_every_view_to_any_later_position_in_the_same_phase(
    players: int, seed: int, custom: bool, bots: list[str], gap: int
) -> None:
    """The server sends ``E.shared_view_ops(old, new)`` and ``E.seat_view_ops(old, new,
    seat)`` instead of diffing two views: applied to the old view they must give the new
    one exactly, for every seat and spectators, one move apart or several (timeouts among
    them), and from a state read back from its dump. They may decline (None) only when the
    phase or the round changed between the two, where the server diffs the views."""
    options: dict[str, Any] = {"first_genius": seed % players}
    if custom:
        options["cards"] = make_cards(2 * players)
    _, log = play(players, seed, options, [], bots)
    states = [E.setup(players, options, seed)]
    for seat, action in log:
        states.append(E.apply(states[-1], seat, action))
    viewers: list[int | None] = [*range(players), None]
    given_ops = 0
    for i, old in enumerate(states):
        later = {id(s): s for s in states[i + 1 : i + 2] + states[i + gap : i + gap + 1]}.values()
        if i % 10 == 0 and i + gap < len(states):
            old = E.load(json.loads(json.dumps(E.dump(old))))
        for new in later:
            moved = (old["phase"], old["round"]) != (new["phase"], new["round"])
            ops = E.shared_view_ops(old, new)
            assert (ops is None) == moved
            if ops is not None:
                given_ops += 1
                assert _same_json(apply_patch(E.shared_view(old), ops), E.shared_view(new))
            for seat in viewers:
                ops = E.seat_view_ops(old, new, seat)
                assert (ops is None) == moved
                if ops is not None:
                    assert _same_json(apply_patch(E.seat_view(old, seat), ops), E.seat_view(new, seat))
    assert given_ops > 0
