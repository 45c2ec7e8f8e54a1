"""The engine contract (docs/engine-contract.md), checked on every registered engine alike."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geniusnight.engines import ENGINES, IllegalAction, Rng, get_engine, register
from geniusnight.engines.base import Engine, GameInfo
from geniusnight.fixtures.count21 import ENGINE as TOY

register(TOY)
SEED = 987654321987654
REQUIRED_VIEW_KEYS = {"phase", "to_act", "scores", "over"}


def engines() -> list[str]:
    return sorted(ENGINES)


def play(engine: Engine, players: int, seed: int, max_steps: int = 3000) -> tuple[Any, list[tuple[Any, Any]]]:
    """Play random bot moves (or the system timeout when every bot waits) to the end."""
    state = engine.setup(players, engine.validate_options(players, {}), seed)
    rng = Rng.from_seed(seed)
    history: list[tuple[Any, Any]] = []
    for step in range(max_steps):
        if engine.outcome(state) is not None:
            break
        seats = sorted(engine.to_act(state))
        rng.shuffle(seats)
        action, actor = None, None
        for seat in seats:
            action = engine.bot_action(state, seat, "random", seed + step)
            if action is not None:
                actor = seat
                break
        if action is None:
            action, actor = {"type": "timeout"}, None
        state = engine.apply(state, actor, action)
        history.append((actor, action))
    return state, history


def player_counts(engine: Engine) -> list[int]:
    lo, hi = engine.player_range(engine.validate_options(None, {}))
    return sorted({lo, hi})


@pytest.mark.parametrize("game", engines())
def test_registry_returns_each_engine_by_its_id(game: str) -> None:
    engine = get_engine(game)
    assert engine.info.id == game and isinstance(engine, Engine)
    assert engine.info.min_players <= engine.info.max_players
    json.dumps(engine.info.to_json())


def test_unknown_game_is_a_key_error_naming_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known"):
        get_engine("no-such-game")


@pytest.mark.parametrize("game", engines())
def test_random_games_end_with_views_that_hold_the_contract(game: str) -> None:
    engine = get_engine(game)
    for players in player_counts(engine):
        state, _ = play(engine, players, SEED + players)
        assert engine.outcome(state) is not None, f"{game} with {players} did not end"
        outcome = engine.outcome(state)
        assert outcome is not None and set(outcome) >= {"winners", "scores"}
        for seat in [None, *range(players)]:
            view = engine.view(state, seat)
            assert set(view) >= REQUIRED_VIEW_KEYS
            assert view["over"] is True and "result" in view
            text = json.dumps(view)
            assert str(SEED + players) not in text


@pytest.mark.parametrize("game", engines())
def test_apply_never_changes_the_state_it_was_given(game: str) -> None:
    engine = get_engine(game)
    players = player_counts(engine)[0]
    state = engine.setup(players, engine.validate_options(players, {}), SEED)
    for step in range(40):
        if engine.outcome(state) is not None:
            break
        seat = min(engine.to_act(state))
        action = engine.bot_action(state, seat, "random", step) or {"type": "timeout"}
        actor = None if action == {"type": "timeout"} else seat
        before = json.dumps(engine.dump(state), sort_keys=True)
        new_state = engine.apply(state, actor, action)
        assert json.dumps(engine.dump(state), sort_keys=True) == before
        state = new_state


@pytest.mark.parametrize("game", engines())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**62), count=st.integers(0, 1), timeouts=st.integers(2, 9))
def test_no_later_move_changes_an_earlier_state(game: str, seed: int, count: int, timeouts: int) -> None:
    """States may share what a move does not change (the server keeps old states for patch
    frames and the bots read them), so no move may change a shared value in place: every
    state of a whole random game, timeouts among the moves, is still as it was made."""
    engine = get_engine(game)
    counts = player_counts(engine)
    players = counts[count % len(counts)]
    state = engine.setup(players, engine.validate_options(players, {}), seed)
    made: list[tuple[Any, str]] = [(state, json.dumps(engine.dump(state), sort_keys=True))]
    for step in range(3000):
        if engine.outcome(state) is not None:
            break
        seat = min(engine.to_act(state), default=None)
        action = engine.bot_action(state, seat, "random", seed + step) if seat is not None else None
        if action is None or step % timeouts == timeouts - 1:
            try:
                state = engine.apply(state, None, {"type": "timeout"})
            except IllegalAction:  # nothing to time out now: the move instead
                if action is None:
                    raise
                state = engine.apply(state, seat, action)
        else:
            state = engine.apply(state, seat, action)
        made.append((state, json.dumps(engine.dump(state), sort_keys=True)))
    assert engine.outcome(state) is not None
    changed = [i for i, (kept, text) in enumerate(made) if json.dumps(engine.dump(kept), sort_keys=True) != text]
    assert changed == []


@pytest.mark.parametrize("game", engines())
def test_views_are_json_with_sorted_to_act_and_scores_by_seat(game: str) -> None:
    engine = get_engine(game)
    players = player_counts(engine)[-1]
    state = engine.setup(players, engine.validate_options(players, {}), SEED)
    for seat in [None, *range(players)]:
        view = json.loads(json.dumps(engine.view(state, seat)))
        assert view["to_act"] == sorted(engine.to_act(state))
        assert len(view["scores"]) == players
        assert view["over"] is False


@pytest.mark.parametrize("game", engines())
def test_same_seed_and_actions_give_the_same_dumps(game: str) -> None:
    engine = get_engine(game)
    players = player_counts(engine)[0]
    a, history = play(engine, players, SEED, max_steps=200)
    b = engine.setup(players, engine.validate_options(players, {}), SEED)
    for seat, action in history:
        b = engine.apply(b, seat, action)
    assert json.dumps(engine.dump(a), sort_keys=True) == json.dumps(engine.dump(b), sort_keys=True)


@pytest.mark.parametrize("game", engines())
def test_dump_load_round_trips_through_json(game: str) -> None:
    engine = get_engine(game)
    players = player_counts(engine)[0]
    state, _ = play(engine, players, SEED, max_steps=60)
    data = json.loads(json.dumps(engine.dump(state)))
    again = engine.load(data)
    assert json.dumps(engine.dump(again), sort_keys=True) == json.dumps(engine.dump(state), sort_keys=True)
    assert engine.view(again, 0) == engine.view(state, 0)


JUNK: list[Any] = [None, "place", 7, [], {}, {"type": 3}, {"type": "no-such-action"}, {"type": None}]


@pytest.mark.parametrize("game", engines())
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_actions_raise_illegal_action_with_a_code(game: str, junk: Any) -> None:
    engine = get_engine(game)
    players = player_counts(engine)[0]
    state = engine.setup(players, engine.validate_options(players, {}), SEED)
    before = json.dumps(engine.dump(state), sort_keys=True)
    seat = min(engine.to_act(state))
    with pytest.raises(IllegalAction) as info:
        engine.apply(state, seat, junk)
    assert info.value.code and str(info.value)
    assert json.dumps(engine.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("game", engines())
def test_a_seat_that_may_not_act_is_refused(game: str) -> None:
    engine = get_engine(game)
    players = player_counts(engine)[-1]
    state = engine.setup(players, engine.validate_options(players, {}), SEED)
    idle = [s for s in range(players) if s not in engine.to_act(state)]
    if not idle:
        pytest.skip("every seat acts in the first phase")
    acting = min(engine.to_act(state))
    action = engine.bot_action(state, acting, "random", 1)
    assert action is not None
    with pytest.raises(IllegalAction):
        engine.apply(state, idle[0], action)


@pytest.mark.parametrize("game", engines())
def test_bad_options_are_refused_with_bad_option(game: str) -> None:
    engine = get_engine(game)
    with pytest.raises(IllegalAction) as info:
        engine.validate_options(None, {"no_such_option_at_all": 1})
    assert info.value.code == "bad_option"


@pytest.mark.parametrize("game", engines())
def test_the_default_bot_is_one_of_the_games_bots_and_plays(game: str) -> None:
    engine = get_engine(game)
    assert engine.info.default_bot in {b.id for b in engine.info.bots}
    lo, _ = engine.player_range({})
    state = engine.setup(lo, engine.validate_options(lo, {}), 3)
    seat = min(engine.to_act(state))
    action = engine.bot_action(state, seat, engine.info.default_bot, 1)
    if action is not None:
        engine.apply(state, seat, action)  # legal


def test_a_game_info_whose_default_bot_it_does_not_have_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="default_bot"):
        GameInfo("g", "G", 1, 2, default_bot="genius")


def test_default_time_limits_may_only_name_timed_phases() -> None:
    with pytest.raises(ValueError, match="default_time_limits"):
        GameInfo("g", "G", 1, 2, default_time_limits={"play": 10})
    info = GameInfo("g", "G", 1, 2, timed_phases={"play": "passes"}, default_time_limits={"play": 10})
    assert info.to_json()["default_time_limits"] == {"play": 10}


@pytest.mark.parametrize("game", engines())
def test_only_json_options_are_read_from_files_and_bad_files_are_refused(game: str) -> None:
    engine = get_engine(game)
    with pytest.raises(IllegalAction) as refused:
        engine.import_option("no_such_option_at_all", b"[]", "x.json")
    assert refused.value.code == "bad_option"
    for spec in engine.info.options:
        if spec.kind == "json":
            with pytest.raises(IllegalAction):
                engine.import_option(spec.name, b"\xff\xfe not a file of any kind {", "x.json")


@pytest.mark.parametrize("game", engines())
def test_a_view_is_the_shared_part_plus_the_seats_own_part(game: str) -> None:
    """The server encodes ``shared_view`` once per move and adds each seat's ``seat_view``:
    their keys never overlap, they make up ``view``, and a view taken earlier never changes
    when the game moves on, for any seat or a spectator (views share the state's never-changed
    records, such as the Ingenious event log and Brainiac's round history, instead of copying
    them)."""
    engine = get_engine(game)
    players = player_counts(engine)[-1]
    state = engine.setup(players, engine.validate_options(players, {}), SEED)
    earlier: list[tuple[dict[str, Any], str]] = []
    for step in range(400):
        shared = engine.shared_view(state)
        for seat in [None, *range(players)]:
            own = engine.seat_view(state, seat)
            assert not set(own) & set(shared), f"{game}: keys in both parts at step {step}"
            view = engine.view(state, seat)
            assert view == {**shared, **own}
            earlier.append((view, json.dumps(view, sort_keys=True)))
        if engine.outcome(state) is not None:
            break
        seat = min(engine.to_act(state), default=None)
        action = (engine.bot_action(state, seat, "random", step) if seat is not None else None) or {"type": "timeout"}
        state = engine.apply(state, None if action == {"type": "timeout"} else seat, action)
    for view, text in earlier:
        assert json.dumps(view, sort_keys=True) == text
