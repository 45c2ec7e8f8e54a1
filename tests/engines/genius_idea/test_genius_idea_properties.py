"""Property tests: many random Genius Idea games in both modes and every content language,
played to the end.

At every step: scores only rise, and only as the rules say; chances never go negative; every
card is in exactly one place; no seat but the Riddler and Disruptor sees an unrevealed hint and
no one but the Riddler can tell the answer (its word appears once, in the public area, in every
other seat's view); junk actions raise IllegalAction and change nothing. At the end: replaying
the actions gives the same dump, and dump/load round-trips through JSON.

``GENIUS_IDEA_PROPERTY_EXAMPLES`` raises the number of games (default keeps the module fast).
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hidden_info
from geniusnight.engines import IllegalAction, Rng
from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea.engine import LANGUAGES
from geniusnight.engines.genius_idea.similarity import builtin_words
from geniusnight.server.play.patches import apply_patch

EXAMPLES = int(os.environ.get("GENIUS_IDEA_PROPERTY_EXAMPLES", "60"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
TYPES = ["prepare", "reveal", "order", "guess", "pass", "timeout", "nope", ""]
structured_junk = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={"answer": json_values, "hints": json_values, "hint": json_values, "card": json_values},
)
junk_actions = json_values | structured_junk
junk_seats = st.sampled_from([None, -1, 0, 1, 2, 5, 99, True, "0", 1.5])


def snapshot(state: Any) -> str:
    return json.dumps(E.dump(state), sort_keys=True)


def all_cards(state: Any) -> list[str]:
    cards = list(state["supply"]) + list(state["discards"])
    for hand in state["hands"]:
        cards += hand
    for riddle in state["riddles"]:
        if riddle is not None:
            cards += [riddle["answer"], *riddle["hints"]]
    cur = state["cur"]
    if cur is not None:
        cards += cur["public"] + cur["hints"]
    return cards


def check_views(state: Any, deck_size: int) -> None:
    cards = all_cards(state)
    assert len(cards) == len(set(cards)) == deck_size, "a card is missing or in two places"
    for seat in [None, *range(state["players"])]:
        view = E.view(state, seat)
        assert view["to_act"] == sorted(E.to_act(state))
        if state["cur"] is not None:
            assert all(x is None or x >= 0 for x in view["chances"])
        hidden_info.check_view("genius-idea", state, seat, view)  # what it may not show


def expected_gain(before: Any, seat: int | None, action: dict[str, Any]) -> list[int]:
    """The score changes the rules allow for this move: only guesses score."""
    gain = [0] * before["players"]
    cur = before["cur"]
    if action.get("type") == "guess" and cur is not None and seat is not None:
        if action["card"] == cur["answer"]:
            points = 2 + 5 - len(cur["revealed"])
            gain[cur["riddler"]] += points
            gain[seat] += points
        elif cur["disruptor"] is not None:
            gain[cur["disruptor"]] += 1  # a wrong guess pays the Disruptor at once
    return gain


def play(
    players: int, seed: int, mode_bots: list[str], junk: list[tuple[Any, Any]], language: str = "en"
) -> list[tuple[int | None, dict[str, Any]]]:
    """A random game dealt from ``language``'s deck to its end, every invariant checked at
    each step: the moves made."""
    options = E.validate_options(players, {"language": language})
    state = E.setup(players, options, seed)
    assert sorted(all_cards(state)) == sorted(builtin_words(language)), "not dealt from the room language's deck"
    deck_size = len(all_cards(state))
    rng = Rng.from_seed(seed)
    history: list[tuple[int | None, dict[str, Any]]] = []
    junk_iter = iter(junk)
    for step in range(2000):
        check_views(state, deck_size)
        if E.outcome(state) is not None:
            break
        # junk first: it must be refused (or, if it happens to be legal, leave the input alone)
        item = next(junk_iter, None)
        if item is not None:
            before = snapshot(state)
            try:
                E.apply(state, item[0], item[1])
            except IllegalAction as err:
                assert err.code
            assert snapshot(state) == before
        seats = sorted(E.to_act(state))
        if rng.randbelow(12) == 0 or not seats:
            seat, action = None, {"type": "timeout"}
        else:
            seat = rng.choice(seats)
            bot = mode_bots[seat % len(mode_bots)]
            action = E.bot_action(state, seat, bot, seed * 7919 + step)
            assert action is not None
            if action["type"] != "prepare":  # (hints may come in any order)
                assert action in E.legal_actions(state, seat)
        new = E.apply(state, seat, action)
        gain = [a - b for a, b in zip(new["scores"], state["scores"], strict=True)]
        assert all(g >= 0 for g in gain), "a score went down"
        assert gain == expected_gain(state, seat, action), f"unexpected score change {gain} for {action}"
        history.append((seat, action))
        state = new
    outcome = E.outcome(state)
    assert outcome is not None, "the game did not end"
    expected_rounds = 4 if players == 2 else players
    assert len(state["history"]) == expected_rounds
    if players == 2:
        assert outcome["winners"] == ([0, 1] if sum(outcome["scores"]) > 15 else [])
    else:
        top = max(outcome["scores"])
        assert outcome["winners"] == [s for s, v in enumerate(outcome["scores"]) if v == top]
    replay = E.setup(players, options, seed)
    for seat, action in history:
        replay = E.apply(replay, seat, action)
    assert snapshot(replay) == snapshot(state)
    loaded = E.load(json.loads(json.dumps(E.dump(state))))
    assert snapshot(loaded) == snapshot(state) and E.view(loaded, 0) == E.view(state, 0)
    return history


bots = st.lists(st.sampled_from(["random", "smart"]), min_size=1, max_size=3)
junk_lists = st.lists(st.tuples(junk_seats, junk_actions), max_size=6)


languages = st.sampled_from(LANGUAGES)


@SETTINGS
@given(seed=st.integers(0, 2**40), bots=bots, junk=junk_lists, language=languages)
def test_random_coop_games_keep_every_invariant(
    seed: int, bots: list[str], junk: list[tuple[Any, Any]], language: str
) -> None:
    play(2, seed, bots, junk, language)


@SETTINGS
@given(seed=st.integers(0, 2**40), players=st.integers(3, 6), bots=bots, junk=junk_lists, language=languages)
def test_random_competitive_games_keep_every_invariant(
    seed: int, players: int, bots: list[str], junk: list[tuple[Any, Any]], language: str
) -> None:
    play(players, seed, bots, junk, language)


@settings(max_examples=EXAMPLES * 4, deadline=None)
@given(seat=junk_seats, action=junk_actions, phase_steps=st.integers(0, 12), seed=st.integers(0, 1000))
def test_junk_actions_raise_illegal_action_and_change_nothing(
    seat: Any, action: Any, phase_steps: int, seed: int
) -> None:
    state = E.setup(4, {}, seed)
    for _ in range(phase_steps):  # walk into a later phase with timeouts
        if E.outcome(state) is not None:
            break
        state = E.apply(state, None, {"type": "timeout"})
    before = snapshot(state)
    try:
        E.apply(state, seat, action)
    except IllegalAction as err:
        assert err.code and str(err)
    assert snapshot(state) == before


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=json_values)
def test_load_refuses_what_is_not_a_state(data: Any) -> None:
    try:
        E.load(data)
    except IllegalAction as err:
        assert err.code == "bad_state"


def given_between(old: Any, new: Any) -> bool:
    """Where the engine gives its views' operations: one round in play in both positions, or
    one phase with no round in play (a preparation, a look at the results)."""
    if old["round"] != new["round"]:
        return False
    if old["cur"] is not None and new["cur"] is not None:
        return True
    return old["cur"] is None and new["cur"] is None and old["phase"] == new["phase"]


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON: ``==`` alone takes 1 and True for one another."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@SETTINGS
@given(seed=st.integers(0, 2**40), players=st.integers(2, 6), bots=bots, gap=st.integers(1, 6))
def test_view_ops_take_every_view_to_any_later_position_in_the_same_round(
    seed: int, players: int, bots: list[str], gap: int
) -> None:
    """The server sends ``E.shared_view_ops(old, new)`` and ``E.seat_view_ops(old, new,
    seat)`` instead of diffing two views: applied to the old view they must give the new
    one exactly, for every seat and spectators, one move apart or several (timeouts among
    them), and from a state read back from its dump. They decline (None) only across a
    round's start or end (the server then diffs the views)."""
    history = play(players, seed, bots, [])
    options = E.validate_options(players, {})
    states = [E.setup(players, options, seed)]
    for seat, action in history:
        states.append(E.apply(states[-1], seat, action))
    viewers: list[int | None] = [*range(players), None]
    for i, old in enumerate(states):
        later = {id(s): s for s in states[i + 1 : i + 2] + states[i + gap : i + gap + 1]}.values()
        if i % 10 == 0:
            old = E.load(json.loads(json.dumps(E.dump(old))))
        for new in later:
            given_here = given_between(old, new)
            ops = E.shared_view_ops(old, new)
            assert (ops is not None) == given_here
            if ops is not None:
                assert _same_json(apply_patch(E.shared_view(old), ops), E.shared_view(new))
            for seat in viewers:
                ops = E.seat_view_ops(old, new, seat)
                assert (ops is not None) == given_here
                if ops is not None:
                    assert _same_json(apply_patch(E.seat_view(old, seat), ops), E.seat_view(new, seat))
