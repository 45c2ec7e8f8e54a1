"""SQLite: the connections' settings, the file's inline connections, and its move log.

A SQLite file is used two ways (docs/performance.md, D2 and D33):

- The move path (moves, game starts, refusals, room snapshots) runs on two plain ``sqlite3``
  connections kept open by :class:`SQLiteFile`, through SQLAlchemy's synchronous ``pysqlite``
  dialect: statements inline on the event loop (microseconds each), a write's commit in a
  thread beside the loop (its fsync), and a process's writes one at a time (:class:`OneWriter`).
- Everything else (the ORM sessions of requests, the admin, the driver's sweeps) goes
  through SQLAlchemy's aiosqlite dialect as it is: each connection's calls run in its own
  aiosqlite thread. A session's first statement that may write takes the same write turn
  first (:class:`SessionWrites`), so the process's writers queue on the loop, in order,
  rather than in SQLite's busy handler, which polls.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import NullPool

from .models import dumps_json
from .movelog import CoreMoveLog, NewMove, SeqTaken

T = TypeVar("T")

# How long a statement of a session waits for SQLite's write lock in its aiosqlite thread (the
# loop runs meanwhile) while another process (a backup, the sqlite3 shell) holds it; this
# process's own writers take turns (OneWriter)
SESSION_BUSY_MS = 10_000
WRITE_RETRY_SECONDS = 30.0  # how long an inline write waits for SQLite's lock before it fails
WRITER_WAIT_SECONDS = 10.0  # a write waits this long for the process's other writer, then fails


def set_pragmas(dbapi_conn: Any, busy_ms: int) -> None:
    # WAL lets readers run beside the writer; synchronous=FULL makes every commit durable
    # before we acknowledge a move.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={busy_ms}")
    cur.close()


def session_pragmas(dbapi_conn: Any, record: Any) -> None:
    """The settings of an aiosqlite connection (a ``connect`` event of the async engine)."""
    set_pragmas(dbapi_conn, SESSION_BUSY_MS)


def _inline_pragmas(dbapi_conn: Any, record: Any) -> None:
    set_pragmas(dbapi_conn, 0)  # never wait in the busy handler on the loop: SQLiteFile retries


class OneWriter:
    """One SQLite write transaction at a time in this process, handed over in arrival order.

    An inline write's commit runs in a thread while the loop goes on (SQLiteFile.write), and a
    session's transaction spans its trips to its aiosqlite thread: a second writer could start
    meanwhile and find SQLite's lock held, then retry (inline) or poll in SQLite's busy handler
    (a session). Here it waits its turn on an asyncio lock instead, with the loop running. A
    holder is any object (an inline write, a session's connection); it keeps the turn until
    its transaction ends."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self.holder: object | None = None

    async def acquire(self, holder: object) -> None:
        if self.holder is holder:
            return
        if not self._lock.locked():
            await self._lock.acquire()  # free: taken without a trip through the loop
        else:
            try:
                async with asyncio.timeout(WRITER_WAIT_SECONDS):
                    await self._lock.acquire()
            except TimeoutError:
                raise sqlite3.OperationalError(
                    f"database is locked (this process's other writer kept it {WRITER_WAIT_SECONDS:.0f} s)"
                ) from None
        self.holder = holder

    def release(self, holder: object) -> None:
        if self.holder is holder:
            self.holder = None
            self._lock.release()


# the key of a pool entry's ``record_info`` that holds the write turn its connection took
# (``record_info`` lives as long as the entry; ``info`` is documented to be cleared once an
# invalidated connection is replaced, which is after its checkin, but not promised when)
TURN = "geniusnight_write_turn"


class SessionWrites:
    """Puts the ORM sessions' writes in the process's write turn (:class:`OneWriter`), through
    SQLAlchemy's public events: the first statement of a pooled connection that may write
    waits for the turn (``AdaptedConnection.run_async`` awaits it from the event, inside the
    session's greenlet), and the connection hands it back when it returns to the pool, its
    transaction over (a session gives its connection back at each commit and rollback)."""

    def __init__(self, writer: OneWriter) -> None:
        self.writer = writer

    def listen(self, engine: AsyncEngine) -> None:
        event.listen(engine.sync_engine, "before_cursor_execute", self.before_statement)
        event.listen(engine.sync_engine, "checkin", self.returned)

    def before_statement(
        self, conn: Connection, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
    ) -> None:
        info = conn.connection.record_info  # None only for a connection detached from its pool
        if info is None or TURN in info or _reads_only(statement):
            return
        turn = object()
        try:
            conn.connection.dbapi_connection.run_async(lambda _driver: self.writer.acquire(turn))  # type: ignore[union-attr]
        except sqlite3.OperationalError as e:
            raise OperationalError(statement, parameters, e) from e  # as the driver's would be raised
        info[TURN] = turn

    def returned(self, dbapi_connection: Any, record: Any) -> None:
        turn = record.record_info.pop(TURN, None)
        if turn is not None:
            self.writer.release(turn)


def _reads_only(sql: str) -> bool:
    # what the sqlite3 module runs without opening a transaction and SQLite without its
    # write lock; anything else takes the process's write turn first
    return sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA")


def is_locked(e: BaseException) -> bool:
    """Whether ``e`` says another connection holds SQLite's lock (as the driver raises it, or
    as SQLAlchemy wraps it)."""
    if isinstance(e, OperationalError):
        return "locked" in str(e.orig)
    return isinstance(e, sqlite3.OperationalError) and "locked" in str(e)


class SQLiteFile:
    """A SQLite file's inline connections: one for writes, one for reads, each kept open.

    A write runs its statements on the loop, in the process's write turn (:class:`OneWriter`),
    and its commit in a thread while the loop serves other rooms: SQLite writes the
    transaction's pages to its log and waits for the disk (synchronous=FULL) without the
    interpreter's lock (docs/performance.md, D5). Only the commit: the statements would take
    the interpreter's lock back after every row, and a thread that waits for it each time
    costs more than it saves. Another process's lock is waited for with the loop running."""

    def __init__(self, path: str, writer: OneWriter) -> None:
        self.writer = writer
        self.engine = create_engine(
            f"sqlite:///{path}",
            poolclass=NullPool,
            json_serializer=dumps_json,
            connect_args={"check_same_thread": False},  # commits run in the commit thread
        )
        event.listen(self.engine, "connect", _inline_pragmas)
        self.write_conn: Connection | None = None
        self.read_conn: Connection | None = None
        self.committer: concurrent.futures.ThreadPoolExecutor | None = None  # the commits' thread

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` (Core statements) as one transaction; returns what it returns once it is
        committed."""
        return await until_unlocked(lambda: self._write_once(fn))

    async def _write_once(self, fn: Callable[[Connection], T]) -> T:
        turn = object()  # this write's own: two writes under way here take turns too
        await self.writer.acquire(turn)
        try:
            return await self._write_here(fn)
        finally:
            self.writer.release(turn)

    async def _write_here(self, fn: Callable[[Connection], T]) -> T:
        if self.write_conn is None:
            self.write_conn = self.engine.connect()
        if self.committer is None:
            self.committer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="geniusnight-commit")
        conn = self.write_conn
        transaction = conn.begin()
        try:
            result = fn(conn)
        except BaseException:
            transaction.rollback()
            raise
        committed = asyncio.get_running_loop().run_in_executor(self.committer, transaction.commit)
        try:
            await asyncio.shield(committed)
        except BaseException:
            # cancelled, or the commit failed: once its thread is done with the connection,
            # it is closed (the next write opens another), and the write turn is kept
            # until then (the caller releases it)
            self.write_conn = None
            with contextlib.suppress(BaseException):
                await committed
            with contextlib.suppress(Exception):
                conn.close()
            raise
        return result

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` (Core reads) inline and return what it returns; it sees what is committed."""
        return await until_unlocked(lambda: self._read_once(fn))

    async def _read_once(self, fn: Callable[[Connection], T]) -> T:
        if self.read_conn is None:
            self.read_conn = self.engine.connect()
        with self.read_conn.begin():
            return fn(self.read_conn)

    async def close(self) -> None:
        if self.committer is not None:
            if self.write_conn is not None:
                await asyncio.get_running_loop().run_in_executor(self.committer, self.write_conn.close)
                self.write_conn = None
            self.committer.shutdown()
            self.committer = None
        if self.read_conn is not None:
            self.read_conn.close()
            self.read_conn = None
        self.engine.dispose()


async def until_unlocked(attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt()``, again while another connection holds SQLite's lock (with the loop
    running, backing off), for up to ``WRITE_RETRY_SECONDS``."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + WRITE_RETRY_SECONDS
    pause = 0.001
    while True:
        try:
            return await attempt()
        except (OperationalError, sqlite3.OperationalError) as e:
            if not is_locked(e) or loop.time() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.05)


class SQLiteMoveLog(CoreMoveLog):
    """The move log of a SQLite file. Moves are written on the file's write connection
    through the ``sqlite3`` cursor's ``executemany``, with SQL written here: SQLAlchemy's
    execution around a batch (a compiled-cache look-up, an execution context, every row
    processed as a dict) cost more than the writes themselves (docs/performance.md, D4). What
    it stores is what SQLAlchemy stores for the same values (the dialect's datetime text,
    the engine's JSON serializer, the status's value): tests/platform/test_move_log.py
    compares every column."""

    def __init__(self, file: SQLiteFile) -> None:
        super().__init__(file)
        self.file = file

    async def append(self, moves: Sequence[NewMove]) -> None:
        await self.file.write(partial(_append, moves=moves))


_INSERT_MOVE = "INSERT INTO moves (game_id, seq, seat, member_id, action, ref, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
_GAME_MOVED = "UPDATE games SET last_seq = ?, last_move_at = ?, deadline_at = ?, deadline_seq = ? WHERE games.id = ?"
_GAME_ENDED = (
    "UPDATE games SET last_seq = ?, last_move_at = ?, deadline_at = ?, deadline_seq = ?, result = ?, finished_at = ?"
    " WHERE games.id = ?"
)
_ROOM_FINISHED = (
    "UPDATE rooms SET status = 'finished', updated_at = ?, version = rooms.version + 1"
    " WHERE rooms.id = ? AND rooms.current_game_id = ?"
)
_DATETIME_TEXT = "%04d-%02d-%02d %02d:%02d:%02d.%06d"


def datetime_text(value: datetime | None) -> str | None:
    """A datetime as SQLAlchemy's SQLite dialect stores it by default (its wall time, no zone;
    the server's are UTC), formatted from a tuple: half the time of the dialect's format."""
    if value is None:
        return None
    return _DATETIME_TEXT % (
        value.year,
        value.month,
        value.day,
        value.hour,
        value.minute,
        value.second,
        value.microsecond,
    )


def _append(conn: Connection, moves: Sequence[NewMove]) -> None:
    raw = conn.connection.dbapi_connection  # the sqlite3 connection, in the transaction begun
    assert raw is not None
    cursor = raw.cursor()
    try:
        cursor.executemany(
            _INSERT_MOVE,
            [(m.game_id, m.seq, m.seat, m.member_id, dumps_json(m.action), m.ref, datetime_text(m.at)) for m in moves],
        )
        going = [m for m in moves if m.result is None]
        if going:
            cursor.executemany(
                _GAME_MOVED,
                [(m.seq, datetime_text(m.at), datetime_text(m.deadline_at), m.deadline_seq, m.game_id) for m in going],
            )
        if len(going) < len(moves):
            ended = [m for m in moves if m.result is not None]
            cursor.executemany(
                _GAME_ENDED,
                [
                    (
                        m.seq,
                        datetime_text(m.at),
                        datetime_text(m.deadline_at),
                        m.deadline_seq,
                        dumps_json(m.result),
                        datetime_text(m.at),
                        m.game_id,
                    )
                    for m in ended
                ],
            )
            cursor.executemany(_ROOM_FINISHED, [(datetime_text(m.at), m.room_id, m.game_id) for m in ended])
    except sqlite3.IntegrityError as e:
        raise SeqTaken(str(e)) from e
    finally:
        cursor.close()
