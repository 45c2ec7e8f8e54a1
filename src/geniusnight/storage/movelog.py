"""The move log: the port through which the game service (server/play/games.py) stores and
reads its games. Two adapters implement it, on one database each: ``sqlite.SQLiteMoveLog``
(a SQLite file) and ``postgres.PostgresMoveLog`` (PostgreSQL; and SQLite in memory, which
lives in the async engine's one connection).

What a move writes: its row in ``moves`` (the unique ``(game_id, seq)`` index refuses a seq
taken twice, even by two processes), its game's row (``last_seq``, the clock, the result when
it ends the game) and, when it ends the game, its room set ``finished``. The reads here are
Core statements on a synchronous connection, the same for both adapters: ``Transactions``
runs them (on a SQLite file inline on the loop, docs/performance.md, D2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol, TypeVar

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.engine import Connection

from .models import Game, GameSeat, Move, Room, RoomStatus

T = TypeVar("T")

MOVES: Table = Move.__table__  # type: ignore[assignment]
GAMES: Table = Game.__table__  # type: ignore[assignment]
GAME_SEATS: Table = GameSeat.__table__  # type: ignore[assignment]
ROOMS: Table = Room.__table__  # type: ignore[assignment]


@dataclass(slots=True)
class NewMove:
    """One accepted move, and what it does to its game's row: ``result`` is set when it ends
    the game (its room ``room_id`` is then finished, at ``at``)."""

    game_id: int
    room_id: str
    seq: int
    seat: int | None  # None: the system's move (a timeout)
    member_id: int | None  # None: the server's own move (a bot, a timeout)
    action: Any
    ref: str | None
    at: datetime
    deadline_at: datetime | None  # the game's clock after the move
    deadline_seq: int | None
    result: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One stored move, as the replayer reads it (``replay.replayer.LoggedMove``)."""

    seq: int
    seat: int | None
    member_id: int | None
    action: Any
    ref: str | None


@dataclass(slots=True)
class StoredGame:
    """A game as stored: its row (``game``, not in any session), whether its room is closed,
    and who holds its seats (member id -> seat; a seat nobody holds is a bot's)."""

    game: Game
    closed: bool
    holders: dict[int, int]


@dataclass(slots=True)
class GameNow:
    """What of a game's row may change while it runs: who plays each seat, and its clock."""

    seats: list[dict[str, Any]]
    deadline_at: datetime | None
    deadline_seq: int | None


class SeqTaken(Exception):
    """A move's seq is stored already (another process took it), or its game is gone:
    nothing of the batch was written."""


class MoveLog(Protocol):
    """Where the game service stores its games' moves and reads them back."""

    async def append(self, moves: Sequence[NewMove]) -> None:
        """Write ``moves`` (of any games, each game's in seq order) in one transaction;
        return once it is durably committed. Raises :class:`SeqTaken` when a seq is taken
        (nothing is written), other errors as the database raises them."""
        ...

    async def load(self, game_id: int) -> StoredGame | None:
        """The game (None if there is none)."""
        ...

    async def since(self, game_id: int, seq: int) -> tuple[list[LoggedMove], GameNow | None]:
        """The moves after ``seq`` in order, and when there are any, the game's row now."""
        ...

    async def seats(self, game_id: int) -> tuple[GameNow, dict[int, int]] | None:
        """Who plays each seat now, and who holds them (None if there is no game)."""
        ...

    async def start_clock(self, game_id: int, deadline_at: datetime) -> None:
        """Set the first phase's deadline of a game that has no move yet."""
        ...


class Transactions(Protocol):
    """Runs Core statements on a synchronous connection (``storage.database.Database``, or
    the SQLite file's own connections, ``sqlite.SQLiteFile``)."""

    async def write(self, fn: Callable[[Connection], T]) -> T: ...

    async def read(self, fn: Callable[[Connection], T]) -> T: ...


class CoreMoveLog:
    """The reads and the clock of both adapters, as Core statements through ``tx``; each
    adapter writes moves its own way (``append``)."""

    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    async def load(self, game_id: int) -> StoredGame | None:
        return await self.tx.read(partial(read_game, game_id=game_id))

    async def since(self, game_id: int, seq: int) -> tuple[list[LoggedMove], GameNow | None]:
        return await self.tx.read(partial(read_since, game_id=game_id, seq=seq))

    async def seats(self, game_id: int) -> tuple[GameNow, dict[int, int]] | None:
        return await self.tx.read(partial(read_seats, game_id=game_id))

    async def start_clock(self, game_id: int, deadline_at: datetime) -> None:
        await self.tx.write(partial(_set_clock, game_id=game_id, deadline_at=deadline_at))


# the statements, built once
_GAME = select(
    GAMES.c.id,
    GAMES.c.room_id,
    GAMES.c.engine,
    GAMES.c.options,
    GAMES.c.seed,
    GAMES.c.players,
    GAMES.c.seats,
    GAMES.c.time_limits,
    GAMES.c.deadline_at,
    GAMES.c.deadline_seq,
    select(ROOMS.c.status).where(ROOMS.c.id == GAMES.c.room_id).scalar_subquery().label("status"),
).where(GAMES.c.id == bindparam("game_id"))
_HOLDERS = select(GAME_SEATS.c.member_id, GAME_SEATS.c.seat).where(
    GAME_SEATS.c.game_id == bindparam("game_id"), GAME_SEATS.c.member_id.is_not(None)
)
_MOVES = (
    select(MOVES.c.seq, MOVES.c.seat, MOVES.c.member_id, MOVES.c.action, MOVES.c.ref)
    .where(MOVES.c.game_id == bindparam("game_id"), MOVES.c.seq > bindparam("seq"))
    .order_by(MOVES.c.seq)
)
_GAME_NOW = select(GAMES.c.seats, GAMES.c.deadline_at, GAMES.c.deadline_seq).where(GAMES.c.id == bindparam("game_id"))
_SET_CLOCK = (
    update(GAMES).where(GAMES.c.id == bindparam("b_id")).values(deadline_at=bindparam("b_deadline_at"), deadline_seq=0)
)


def aware(dt: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes; everything stored is UTC."""
    if dt is None or dt.tzinfo is not None:
        return dt
    return dt.replace(tzinfo=UTC)


def _holders(conn: Connection, game_id: int) -> dict[int, int]:
    return {row.member_id: row.seat for row in conn.execute(_HOLDERS, {"game_id": game_id})}


def read_game(conn: Connection, game_id: int) -> StoredGame | None:
    row = conn.execute(_GAME, {"game_id": game_id}).one_or_none()
    if row is None:
        return None
    game = Game(
        id=row.id,
        room_id=row.room_id,
        engine=row.engine,
        options=row.options,
        seed=row.seed,
        players=row.players,
        seats=row.seats,
        time_limits=row.time_limits,
        deadline_at=aware(row.deadline_at),
        deadline_seq=row.deadline_seq,
    )
    return StoredGame(game, row.status == RoomStatus.CLOSED, _holders(conn, game_id))


def _game_now(conn: Connection, game_id: int) -> GameNow | None:
    row = conn.execute(_GAME_NOW, {"game_id": game_id}).one_or_none()
    return None if row is None else GameNow(row.seats, aware(row.deadline_at), row.deadline_seq)


def read_since(conn: Connection, game_id: int, seq: int) -> tuple[list[LoggedMove], GameNow | None]:
    moves = [LoggedMove(*row) for row in conn.execute(_MOVES, {"game_id": game_id, "seq": seq})]
    return moves, _game_now(conn, game_id) if moves else None


def read_seats(conn: Connection, game_id: int) -> tuple[GameNow, dict[int, int]] | None:
    now = _game_now(conn, game_id)
    return None if now is None else (now, _holders(conn, game_id))


def _set_clock(conn: Connection, game_id: int, deadline_at: datetime) -> None:
    conn.execute(_SET_CLOCK, {"b_id": game_id, "b_deadline_at": deadline_at})
