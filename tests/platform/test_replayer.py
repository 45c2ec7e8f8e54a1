"""The one replayer: setup then the log, in order, with gaps and refused moves reported by code."""

from __future__ import annotations

import pytest

from geniusnight.engines import IllegalAction
from geniusnight.fixtures.count21 import ENGINE
from geniusnight.server.replay.replayer import LogEntry, ReplayError, initial_state, replay, steps


def log(*amounts: int) -> list[LogEntry]:
    return [LogEntry(i + 1, i % 2, {"type": "add", "n": n}) for i, n in enumerate(amounts)]


def test_replaying_the_whole_log_equals_applying_each_move_in_turn() -> None:
    moves = log(1, 2, 3, 1)
    state = initial_state(ENGINE, 2, {}, 7)
    expected = state
    for m in moves:
        expected = ENGINE.apply(expected, m.seat, m.action)
    assert replay(ENGINE, state, moves) == (4, expected)
    assert expected.counter == 7


def test_replay_stops_after_the_requested_seq() -> None:
    state = initial_state(ENGINE, 2, {}, 7)
    seq, upto2 = replay(ENGINE, state, log(1, 2, 3, 1), upto=2)
    assert seq == 2 and upto2.counter == 3


def test_steps_yield_every_state_of_the_step_through_replay() -> None:
    state = initial_state(ENGINE, 2, {}, 7)
    counters = [(m.seq, s.counter) for m, s in steps(ENGINE, state, log(1, 2, 3))]
    assert counters == [(1, 1), (2, 3), (3, 6)]


def test_replay_continues_from_a_cached_prefix() -> None:
    moves = log(1, 2, 3, 1)
    state = initial_state(ENGINE, 2, {}, 7)
    _, half = replay(ENGINE, state, moves[:2])
    assert replay(ENGINE, half, moves[2:], after=2) == replay(ENGINE, state, moves)


def test_a_gap_in_the_log_is_reported_as_log_gap_with_the_missing_seq() -> None:
    moves = log(1, 2, 3)
    with pytest.raises(ReplayError) as e:
        replay(ENGINE, initial_state(ENGINE, 2, {}, 7), [moves[0], moves[2]])
    assert (e.value.code, e.value.seq) == ("log_gap", 2)


def test_a_move_the_engine_refuses_is_reported_as_replay_failed() -> None:
    bad = [LogEntry(1, 1, {"type": "add", "n": 1})]  # seat 0 is to move
    with pytest.raises(ReplayError) as e:
        replay(ENGINE, initial_state(ENGINE, 2, {}, 7), bad)
    assert (e.value.code, e.value.seq) == ("replay_failed", 1)
    cause = e.value.__cause__
    assert isinstance(cause, IllegalAction) and cause.code == "not_your_turn"
