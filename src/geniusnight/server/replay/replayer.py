"""The one replayer: a game's state is its setup followed by its log, applied in order.

The live cache, the admin, the players' replay and ``geniusnight replay FILE`` all rebuild
states here, so a gap in the log or a move the engine no longer accepts is detected the
same way everywhere. No I/O: callers read the log and pass its moves in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ...engines import Engine, IllegalAction


class LoggedMove(Protocol):
    """What the replayer reads from one log entry (a ``db.Move`` row or a :class:`LogEntry`)."""

    @property
    def seq(self) -> int: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def action(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move of a log that does not come from the database (an export file)."""

    seq: int
    seat: int | None
    action: Any


M = TypeVar("M", bound=LoggedMove)


class ReplayError(RuntimeError):
    """The log cannot be replayed: ``log_gap`` (a missing seq) or ``replay_failed``
    (the engine refuses a logged move, only if the engine changed since the game was played)."""

    def __init__(self, code: str, seq: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.seq = seq
        self.message = message


def initial_state(engine: Engine, players: int, options: Mapping[str, Any], seed: int) -> Any:
    """The state before the first move (seq 0)."""
    return engine.setup(players, dict(options), seed)


def steps(
    engine: Engine, state: Any, moves: Iterable[M], *, after: int = 0, upto: int | None = None
) -> Iterator[tuple[M, Any]]:
    """Apply ``moves`` to ``state`` (the state at seq ``after``), yielding each move with the
    state after it; stops after seq ``upto`` when given. Raises :class:`ReplayError`."""
    seq = after
    for move in moves:
        if upto is not None and move.seq > upto:
            return
        if move.seq != seq + 1:
            raise ReplayError("log_gap", seq + 1, f"the log has a gap at seq {seq + 1}")
        try:
            state = engine.apply(state, move.seat, move.action)
        except IllegalAction as e:
            raise ReplayError("replay_failed", move.seq, f"seq {move.seq} no longer replays: {e.message}") from e
        seq = move.seq
        yield move, state


def replay(
    engine: Engine, state: Any, moves: Iterable[LoggedMove], *, after: int = 0, upto: int | None = None
) -> tuple[int, Any]:
    """The seq reached and the state after applying ``moves`` (up to ``upto``) to ``state``."""
    seq = after
    for move, next_state in steps(engine, state, moves, after=after, upto=upto):
        seq, state = move.seq, next_state
    return seq, state
