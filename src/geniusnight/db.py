"""Tables and the async database engine.

A game is its options, seed and the ordered list of accepted moves; the unique
``(game_id, seq)`` index is what keeps moves strictly ordered, even between processes.
A seat belongs to one member: unique ``(room_id, seat)`` for the lobby and unique
``(game_id, seat)`` and ``(game_id, member_id)`` for a game, so that of two joins racing
for a seat exactly one wins, on every database.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

import aiosqlite
import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
    true,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import NullPool

T = TypeVar("T")


def dumps_json(value: Any) -> str:
    """The text stored in a JSON column: orjson's, as every move writes its action and game
    (the standard library's encoder took a fiftieth of a busy server's CPU), and the
    standard library's for what orjson refuses (an integer past 64 bits, a key that is not
    text). Read back with the standard library, which reads every integer exactly.

    >>> dumps_json({"cells": [[1, 2]], "word": "Käse"}), dumps_json({1: 2**70})
    ('{"cells":[[1,2]],"word":"Käse"}', '{"1": 1180591620717411303424}')
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: DateTime(timezone=True)}


class RoomStatus(StrEnum):
    """Where a room stands. Read from the database as these values (never a bare string), so a
    status no one knows cannot get past the storage layer."""

    LOBBY = "lobby"  # seats fill, the host sets the options
    PLAYING = "playing"  # its current game runs
    FINISHED = "finished"  # its current game is over; the host may start a rematch
    CLOSED = "closed"  # an admin closed it: nobody joins or plays any more


class Room(Base):
    __tablename__ = "rooms"
    # retention reads rooms by status and age (migration 0007)
    __table_args__ = (
        Index("ix_rooms_status_updated_at", "status", "updated_at"),
        Index("ix_rooms_code", "code", unique=True),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite: Mapped[str] = mapped_column(String(64), unique=True)  # the invite link token
    # the short code people type to join (server/rooms/codes.py; migration 0009), and
    # whether the host lets it admit people
    code: Mapped[str | None] = mapped_column(String(8), nullable=True)
    code_open: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # the host locked the room: no newcomers by invite or code; members come back (migration 0010)
    locked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # phase name -> seconds; the system's timeout action runs when one passes
    time_limits: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[RoomStatus] = mapped_column(
        Enum(RoomStatus, native_enum=False, length=16, values_callable=lambda e: [s.value for s in e]),
        default=RoomStatus.LOBBY,
    )
    host_member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    current_game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # one more with every change a room frame shows (see bump_room_versions): processes
    # that pass room snapshots to each other keep the newest, whatever order they arrive in
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Member(Base):
    """Anyone in a room: a seated player, a bot seat, or a spectator (``seat`` is None).

    ``seat`` is the lobby seat, the one the member gets in the room's next game; the seats
    of a game that has started are its :class:`GameSeat` rows."""

    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("room_id", "seat", name="uq_members_room_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bot policy id
    kicked: Mapped[bool] = mapped_column(Boolean, default=False)  # no longer in the room (see ``gone``)
    # how they went (migration 0010): "left" on their own, "removed" by the host; None while
    # they are here, and for those who went before the column was kept (shown as "gone")
    gone: Mapped[str | None] = mapped_column(String(8), nullable=True)
    muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the host muted their chat
    # a bot stands in for the member at their game seats while they are away: "host" (the
    # host handed the seat over; it ends when they come back) or "self" (they asked; it ends
    # when they take the seat back). None: they play their seats themselves.
    away_by: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    engine: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    # by seat: {"name", "member_id", "bot"}
    seats: Mapped[list[Any]] = mapped_column(default=list)
    time_limits: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    last_move_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # the running phase's deadline (survives restarts); None when no limit applies; indexed
    # for the driver's sweep (migration 0007)
    deadline_at: Mapped[datetime | None] = mapped_column(nullable=True, index=True)
    deadline_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class GameSeat(Base):
    """Who holds a seat of a game: set when the game starts, from the lobby seats.

    ``member_id`` is None once nobody holds the seat any more (its member was kicked and a
    bot plays it). Who plays a seat right now (the member or a bot) is in ``Game.seats``: a
    seat whose member is away is still theirs, a bot only stands in (``"away": true``)."""

    __tablename__ = "game_seats"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_game_seats_game_seat"),
        UniqueConstraint("game_id", "member_id", name="uq_game_seats_game_member"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id", ondelete="SET NULL"), nullable=True)


class Move(Base):
    __tablename__ = "moves"
    # one index: by game and seq (a game's log is read in order). Refs are looked up in
    # the game's cache, which replays them from the log, never in the database.
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_moves_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the system
    # the member who sent it; None for the server's own moves (bots, timeouts). A ref is
    # unique per sender, so no client can take a ref the server will use.
    member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column()
    ref: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RefusedAction(Base):
    """A refused move, kept for a while for debugging reports (admin only): a sample, the
    first few of each sender and of each game, its action cut short when it is large
    (play/refusals.py); every refusal is counted in :class:`RefusalCount`."""

    __tablename__ = "refused_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at_seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the member who sent it; None for the server's own moves (bots, timeouts)
    member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    code: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RefusalCount(Base):
    """How many moves of one sender a game refused, and when the first and the last came."""

    __tablename__ = "refusal_counts"
    __table_args__ = (UniqueConstraint("game_id", "sender", name="uq_refusal_counts_game_sender"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    sender: Mapped[int] = mapped_column(Integer)  # the member's id; 0 for the server's own moves
    count: Mapped[int] = mapped_column(Integer)
    first_at: Mapped[datetime] = mapped_column()
    last_at: Mapped[datetime] = mapped_column()


@event.listens_for(Session, "before_flush")
def bump_room_versions(session: Session, flush_context: Any, instances: Any) -> None:
    """A transaction that changes a room, one of its members or one of its games counts one
    more version of that room, once, in its first flush that does.

    The version is read first of all when a room's snapshot is built, so a snapshot carries
    at most the version of what it shows (docs/deploy.md, "How the processes cooperate"). Rows a
    flush inserts with their room start at version 0; a room the flush deletes needs none."""
    dirty = session.dirty  # built anew from the identity map at each access: once here
    touched = {o.room_id for o in (*session.new, *dirty, *session.deleted) if isinstance(o, Member | Game)}
    touched |= {o.id for o in dirty if isinstance(o, Room)}
    bumped: set[str] = session.info.setdefault("rooms_bumped", set())
    touched -= bumped
    if touched:
        bumped |= touched
        table = Room.__table__
        session.connection().execute(
            table.update().where(table.c.id.in_(sorted(touched))).values(version=table.c.version + 1)  # type: ignore[attr-defined]
        )


@event.listens_for(Session, "after_transaction_end")
def _forget_bumped_rooms(session: Session, transaction: Any) -> None:
    if transaction.parent is None:
        session.info.pop("rooms_bumped", None)


class AdminSession(Base):
    """A logged-in admin browser: the admin cookie works only while its row is here, so a
    logout ends the session on the server, whoever kept a copy of the cookie."""

    __tablename__ = "admin_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the cookie's session id
    expires_at: Mapped[datetime] = mapped_column()


class RoomEvent(Base):
    """One line of a room's audit log: what its host did to the room or its members (a
    removal, a mute, a lock, a new invite) and who left. Shown to the admin (docs/admin.md,
    "Audit"); deleted with its room."""

    __tablename__ = "room_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    actor_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the member who did it
    actor: Mapped[str | None] = mapped_column(String(32), nullable=True)  # their name then
    target_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the member it was done to
    target: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


SQLITE_BUSY_MS = 200  # an outside process (a backup, the sqlite3 shell) may hold the lock this long


def _sqlite_pragmas(dbapi_conn: Any, _record: Any, busy_ms: int = SQLITE_BUSY_MS) -> None:
    # WAL lets readers run beside the writer; synchronous=FULL makes every commit durable
    # before we acknowledge a move.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={busy_ms}")
    cur.close()


def _move_writer_pragmas(dbapi_conn: Any, record: Any) -> None:
    _sqlite_pragmas(dbapi_conn, record, busy_ms=0)  # Database.write waits, with the loop running


WRITER_WAIT_SECONDS = 10.0  # a write waits this long for the process's other writer, then fails


class OneWriter:
    """One SQLite write transaction at a time in this process, handed over in arrival order.

    SQLite has a single write lock. Calls run inline (SQLiteConnection), so a transaction
    seldom spans loop iterations; but one that does (a session that awaits something else
    between its first write and its commit) would send the next writer of this process into
    SQLite's busy handler, which sleeps on the loop's thread: the holder could not run to
    its commit, and the waiter would give up with "database is locked". Here writers wait
    their turn on an asyncio lock instead, with the loop running, so SQLite's lock is only
    ever contended by other processes (a backup, the sqlite3 shell). A holder is a
    connection (or the move writer); it keeps its turn until its transaction ends.
    """

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


def _reads_only(sql: str) -> bool:
    # what the sqlite3 module runs without opening a transaction and SQLite without its
    # write lock; anything else takes the process's write turn first
    return sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA")


class _Cursor:
    """A cursor for SQLAlchemy's aiosqlite dialect whose calls run at once, on the loop's
    thread, on the standard library's cursor; statements that may write take the process's
    write turn first (OneWriter)."""

    def __init__(self, conn: SQLiteConnection) -> None:
        self._conn = conn
        self._cursor = conn.sqlite.cursor()

    async def execute(self, sql: str, parameters: Any = ()) -> _Cursor:
        return await self._in_turn(self._cursor.execute, sql, parameters)

    async def executemany(self, sql: str, parameters: Any) -> _Cursor:
        return await self._in_turn(self._cursor.executemany, sql, parameters)

    async def _in_turn(self, run: Callable[[str, Any], Any], sql: str, parameters: Any) -> _Cursor:
        """``run(sql, parameters)``, in the write turn if ``sql`` may write (handed back when
        no transaction is left open)."""
        await self._conn.before(sql)
        try:
            run(sql, parameters)
        finally:
            self._conn.after()
        return self

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> Any:
        return self._cursor.fetchmany(self._cursor.arraysize if size is None else size)

    async def fetchall(self) -> Any:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value

    def __await__(self) -> Generator[Any, None, _Cursor]:
        yield from ()
        return self

    async def __aenter__(self) -> _Cursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cursor.close()


class SQLiteConnection(aiosqlite.Connection):
    """An aiosqlite connection, for SQLAlchemy's aiosqlite dialect, whose calls run at once
    on the event loop's thread.

    SQLite calls here take microseconds (a commit with its fsync, about a millisecond), far
    less than a trip to a worker thread and back through a busy loop. And a transaction
    then never spans loop iterations: SQLite has one write lock, and a writer that held it
    while waiting for the loop (aiosqlite's threads) made every other writer queue behind it
    (docs/performance.md, D2). aiosqlite opens (and finally closes) the connection in its
    worker thread as usual; the methods the dialect calls to work with it (``cursor``,
    ``commit``, ``rollback``, ``close``) are overridden to use the ``sqlite3`` connection
    directly. Only public API of both is used, so no version of either is pinned.
    """

    def __init__(self, path: str, writer: OneWriter) -> None:
        self.sqlite: sqlite3.Connection
        self.writer = writer

        def connect() -> sqlite3.Connection:  # in aiosqlite's thread, once
            self.sqlite = sqlite3.connect(path, check_same_thread=False)
            return self.sqlite

        super().__init__(connect, iter_chunk_size=64)

    async def before(self, sql: str) -> None:
        if self.writer.holder is not self and not _reads_only(sql):
            await self.writer.acquire(self)

    def after(self) -> None:
        if self.writer.holder is self and not self.sqlite.in_transaction:
            self.writer.release(self)  # it ran without a transaction, or failed to open one

    def cursor(self) -> Any:  # an awaitable that is also an async context manager
        return _Cursor(self)

    async def execute(self, sql: str, parameters: Any = None) -> Any:  # type: ignore[override]
        return await _Cursor(self).execute(sql, () if parameters is None else parameters)

    async def create_function(
        self, name: str, num_params: int, func: Callable[..., Any], deterministic: bool = False
    ) -> None:
        self.sqlite.create_function(name, num_params, func, deterministic=deterministic)

    async def commit(self) -> None:
        try:
            self.sqlite.commit()
        finally:
            self.after()

    async def rollback(self) -> None:
        try:
            self.sqlite.rollback()
        finally:
            self.after()

    async def close(self) -> None:
        self.writer.release(self)
        self.sqlite.close()  # at once, whatever happens to the wait below
        await super().close()  # aiosqlite's own close, which ends its thread

    def stop(self) -> asyncio.Future[Any] | None:
        self.writer.release(self)
        return super().stop()


def _made_in_a_daemon_thread(make: Callable[[], SQLiteConnection]) -> SQLiteConnection:
    """``make()``, called in a short-lived daemon thread. A thread is a daemon when the thread
    that creates it is one, so aiosqlite's worker thread (created with the connection) never
    keeps the process from exiting, whether or not the engine was disposed."""
    made: list[SQLiteConnection] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            made.append(make())
        except BaseException as e:
            failed.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return made[0]


def make_engine(url: str, writer: OneWriter | None = None) -> AsyncEngine:
    if url.startswith("sqlite"):
        path = make_url(url).database or ":memory:"
        one_writer = writer or OneWriter()

        async def connect() -> aiosqlite.Connection:
            return await _made_in_a_daemon_thread(lambda: SQLiteConnection(path, one_writer))  # busy: _sqlite_pragmas

        # an in-memory database lives in one connection (SQLAlchemy's StaticPool takes no
        # sizes); a file's connections are all kept open, as opening one (or closing it) is a
        # trip to a new aiosqlite thread and back
        sizes: dict[str, Any] = {} if path == ":memory:" else {"pool_size": 30, "max_overflow": 0}
        engine = create_async_engine(url, async_creator=connect, json_serializer=dumps_json, **sizes)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    engine = create_async_engine(url, pool_size=10, max_overflow=20, json_serializer=dumps_json)
    event.listen(engine.sync_engine, "connect", _mark_used)
    event.listen(engine.sync_engine, "checkin", _mark_used)
    event.listen(engine.sync_engine, "checkout", _ping_if_idle)
    return engine


def _migrate(conn: Connection) -> None:
    """Run every migration on ``conn`` (alembic's env.py takes the connection it is given)."""
    from alembic import command
    from alembic.config import Config

    from .resources import data_dir

    cfg = Config()
    cfg.set_main_option("script_location", str(data_dir("alembic")))
    cfg.attributes["connection"] = conn
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")


# A pooled PostgreSQL connection unused this long is pinged before it is handed out; one the
# pool handed back more recently is not. SQLAlchemy's pool_pre_ping pings on every checkout:
# three round trips (begin, ";", rollback) before each commit and each read, 7-9 % of a busy
# process's CPU (docs/performance.md, D8).
PING_AFTER_IDLE = 5.0  # seconds


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


WRITE_RETRY_SECONDS = 30.0  # how long a move write waits for SQLite's lock before it fails


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.writer = OneWriter()
        self.engine = make_engine(url, self.writer)
        self._maker = async_sessionmaker(self.engine, expire_on_commit=False)
        # an in-memory database lives in the engine's one connection: migrated there, once,
        # before its first use (see _ready)
        self.memory = self.sqlite and (make_url(url).database or ":memory:") == ":memory:"
        self._migrated = not self.memory
        self._migrating = asyncio.Lock()
        # SQLite file: writes (moves, starts) and Core reads go through plain connections
        # kept open (no pool, no greenlet, no driver thread: a batch costs a third of the
        # CPU): the statements inline on the loop, the writes in the process's write turn
        # (OneWriter) like every other write, their commits in a thread (see write)
        self._file_engine: Engine | None = None
        self._read_conn: Connection | None = None
        path = make_url(url).database if self.sqlite else None
        if path and path != ":memory:":
            self._file_engine = create_engine(
                f"sqlite:///{path}",
                poolclass=NullPool,
                json_serializer=dumps_json,
                connect_args={"check_same_thread": False},  # commits run in the commit thread
            )
            event.listen(self._file_engine, "connect", _move_writer_pragmas)
        # the writes' connection, and the thread their commits run in (see write)
        self._write_conn: Connection | None = None
        self._committer: concurrent.futures.ThreadPoolExecutor | None = None

    def sessions(self) -> AbstractAsyncContextManager[AsyncSession]:
        """``async with db.sessions() as s``: a session, closed on the way out."""
        return self._inline_session() if self.sqlite else self._maker()

    @asynccontextmanager
    async def _inline_session(self) -> AsyncIterator[AsyncSession]:
        # SQLAlchemy closes a session (or connection) left by ``async with`` in a task of its
        # own, shielded from cancellation: three trips through the loop, each a long wait
        # when the loop is busy. On SQLite a close does its work at once (SQLiteConnection:
        # a rollback, or a close before aiosqlite's thread is told to end), so nothing can
        # cut it short and it may simply run here.
        await self._ready()
        s = self._maker()
        try:
            yield s
        finally:
            await s.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[AsyncConnection]:
        if not self.sqlite:
            async with self.engine.connect() as conn:
                yield conn
            return
        await self._ready()
        conn = await self.engine.connect()
        try:
            yield conn
        finally:
            await conn.close()  # as in _inline_session

    async def _ready(self) -> None:
        """Migrate an in-memory database before its first use. It exists only in the
        engine's one connection (SQLAlchemy's StaticPool), so ``geniusnight db upgrade``, or
        any other process, cannot reach it: the server that holds it migrates it, for tests
        and demos (docs/deploy.md, "An in-memory database")."""
        if self._migrated:
            return
        async with self._migrating:
            if self._migrated:
                return
            conn = await self.engine.connect()
            try:
                await conn.run_sync(_migrate)
                await conn.commit()
            finally:
                await conn.close()
            self._migrated = True

    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as s:
            yield s

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` (Core statements on a sync connection) as one transaction; returns what
        it returns once it is committed. If another process holds SQLite's write lock, wait
        for it here, with the loop running, rather than in SQLite's busy handler.

        On the SQLite file, ``fn`` runs on the loop, in the process's write turn, on the
        writes' own connection, and the commit runs in a thread while the loop serves other
        rooms. SQLite writes the transaction's pages to its log and waits for the disk
        (synchronous=FULL) without the interpreter's lock: for a group commit's batch about
        8 µs of CPU a move in the load benchmark, plus the fsync's wait, during which the
        loop would stand still (docs/performance.md, D5). Only the commit: the statements
        would take the interpreter's lock back after every row, and a thread that waits for
        it each time costs more than it saves."""
        return await self._until_unlocked(lambda: self._write_once(fn))

    async def _in_transaction(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` in a transaction of the async engine's own: PostgreSQL, or SQLite in memory
        (whose connection takes the write turn itself)."""
        async with self._connection() as conn, conn.begin():
            return await conn.run_sync(fn)

    async def _write_once(self, fn: Callable[[Connection], T]) -> T:
        if self._file_engine is None:
            return await self._in_transaction(fn)
        turn = object()  # this write's own: two writes under way here take turns too
        await self.writer.acquire(turn)
        try:
            return await self._write_here(fn)
        finally:
            self.writer.release(turn)

    async def _write_here(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` on the writes' connection, then its commit in the commit thread."""
        assert self._file_engine is not None
        if self._write_conn is None:
            self._write_conn = self._file_engine.connect()
        if self._committer is None:
            self._committer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="geniusnight-commit")
        conn = self._write_conn
        transaction = conn.begin()
        try:
            result = fn(conn)
        except BaseException:
            transaction.rollback()
            raise
        committed = asyncio.get_running_loop().run_in_executor(self._committer, transaction.commit)
        try:
            await asyncio.shield(committed)
        except BaseException:
            # cancelled, or the commit failed: once its thread is done with the connection,
            # it is closed (the next write opens another), and the write turn is kept
            # until then (the caller releases it)
            self._write_conn = None
            with contextlib.suppress(BaseException):
                await committed
            with contextlib.suppress(Exception):
                conn.close()
            raise
        return result

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` (Core reads on a sync connection) and return what it returns. On the
        SQLite file it runs inline on a connection of the reads' own, where a read costs a
        third of a session's (no session, no greenlet); it sees what is committed."""
        return await self._until_unlocked(lambda: self._read_once(fn))

    async def _read_once(self, fn: Callable[[Connection], T]) -> T:
        if self._file_engine is None:
            return await self._in_transaction(fn)
        if self._read_conn is None:
            self._read_conn = self._file_engine.connect()
        with self._read_conn.begin():
            return fn(self._read_conn)

    async def _until_unlocked(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt()``, again while another process holds SQLite's lock (with the loop
        running, backing off), for up to ``WRITE_RETRY_SECONDS``."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + WRITE_RETRY_SECONDS
        pause = 0.001
        while True:
            try:
                return await attempt()
            except OperationalError as e:
                if "locked" not in str(e.orig) or loop.time() > give_up:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)

    async def ping(self) -> None:
        """Raises unless the database answers a query."""
        async with self.sessions() as s:
            await s.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self._committer is not None:
            if self._write_conn is not None:
                await asyncio.get_running_loop().run_in_executor(self._committer, self._write_conn.close)
                self._write_conn = None
            self._committer.shutdown()
            self._committer = None
        if self._read_conn is not None:
            self._read_conn.close()
            self._read_conn = None
        if self._file_engine is not None:
            self._file_engine.dispose()
