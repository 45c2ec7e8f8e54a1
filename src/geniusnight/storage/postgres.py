"""PostgreSQL: the async engine's pool (pings only after idle), and the move log through
SQLAlchemy's async engine (asyncpg)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from sqlalchemy import bindparam, event, insert, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .models import RoomStatus, dumps_json
from .movelog import GAMES, MOVES, ROOMS, CoreMoveLog, NewMove, SeqTaken

# A pooled PostgreSQL connection unused this long is pinged before it is handed out; one the
# pool handed back more recently is not. SQLAlchemy's pool_pre_ping pings on every checkout:
# three round trips (begin, ";", rollback) before each commit and each read, 7-9 % of a busy
# process's CPU (docs/performance.md, D8).
PING_AFTER_IDLE = 5.0  # seconds


def postgres_engine(url: str) -> AsyncEngine:
    if url.startswith("postgresql://"):
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    engine = create_async_engine(url, pool_size=10, max_overflow=20, json_serializer=dumps_json)
    event.listen(engine.sync_engine, "connect", _mark_used)
    event.listen(engine.sync_engine, "checkin", _mark_used)
    event.listen(engine.sync_engine, "checkout", _ping_if_idle)
    return engine


def _mark_used(dbapi_connection: Any, record: Any) -> None:
    record.info["used_at"] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """Hand out a connection only if the server still holds it: a restart of the database
    or a proxy that dropped an idle connection shows here, and the pool opens a new one
    (it retries a checkout that raises DisconnectionError)."""
    if time.monotonic() - record.info.get("used_at", 0.0) < PING_AFTER_IDLE:
        return
    try:
        dbapi_connection.ping()
    except Exception as e:
        raise DisconnectionError("the database dropped this pooled connection") from e


# PostgreSQL's "deadlock detected" and "could not serialize access": the transaction lost a
# race with another one and may simply be run again
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
APPEND_TRIES = 5


def lost_to_another_transaction(e: DBAPIError) -> bool:
    """Whether PostgreSQL failed ``e``'s transaction as a deadlock or a serialization race:
    nothing of it was committed, and it may be run again."""
    return getattr(e.orig, "sqlstate", None) in RETRYABLE_SQLSTATES


class PostgresMoveLog(CoreMoveLog):
    """The move log through SQLAlchemy's async engine: Core statements, each run once for the
    whole batch (``executemany``). PostgreSQL's; and a SQLite database in memory (tests,
    demos), which exists only in the async engine's one connection. A batch that lost a race
    with another transaction (a deadlock PostgreSQL broke by failing it) is written again:
    nothing of it was committed, and none of its moves was acknowledged."""

    async def append(self, moves: Sequence[NewMove]) -> None:
        for attempt in range(APPEND_TRIES):
            try:
                await self.tx.write(partial(append_rows, moves=moves))
                return
            except IntegrityError as e:
                raise SeqTaken(str(e.orig)) from e
            except DBAPIError as e:
                if not lost_to_another_transaction(e) or attempt == APPEND_TRIES - 1:
                    raise
                await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))


_INSERT_MOVE = insert(MOVES)
_GAME_MOVED = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("b_id"))
    .values(
        last_seq=bindparam("b_seq"),
        last_move_at=bindparam("b_at"),
        deadline_at=bindparam("b_deadline_at"),
        deadline_seq=bindparam("b_deadline_seq"),
    )
)
_GAME_ENDED = _GAME_MOVED.values(result=bindparam("b_result"), finished_at=bindparam("b_at"))
_ROOM_FINISHED = (
    update(ROOMS)
    .where(ROOMS.c.id == bindparam("b_room"), ROOMS.c.current_game_id == bindparam("b_id"))
    .values(status=RoomStatus.FINISHED, updated_at=bindparam("b_at"), version=ROOMS.c.version + 1)
)


def append_rows(conn: Connection, moves: Sequence[NewMove]) -> None:
    """Write ``moves`` on ``conn`` (in its transaction) through Core statements. The rooms of
    games that end are written first, in the order of their ids: a change of a room's seats or
    games locks the room's row before its games' (``rooms.statements.lock_room``), and taking
    them in the other order here let the two wait for each other."""
    ended = sorted((m for m in moves if m.result is not None), key=lambda m: m.room_id)
    if ended:
        conn.execute(_ROOM_FINISHED, [{"b_room": m.room_id, "b_id": m.game_id, "b_at": m.at} for m in ended])
    conn.execute(
        _INSERT_MOVE,
        [
            {
                "game_id": m.game_id,
                "seq": m.seq,
                "seat": m.seat,
                "member_id": m.member_id,
                "action": m.action,
                "ref": m.ref,
                "created_at": m.at,
            }
            for m in moves
        ],
    )
    rows = [
        {
            "b_id": m.game_id,
            "b_seq": m.seq,
            "b_at": m.at,
            "b_deadline_at": m.deadline_at,
            "b_deadline_seq": m.deadline_seq,
            **({} if m.result is None else {"b_result": m.result}),
        }
        for m in moves
    ]
    going = [row for row in rows if "b_result" not in row]
    if going:
        conn.execute(_GAME_MOVED, going)
    if ended:
        conn.execute(_GAME_ENDED, [row for row in rows if "b_result" in row])
