"""Tables and the async database engine.

A game is its options, seed and the ordered list of accepted moves; the unique
``(game_id, seq)`` index is what keeps moves strictly ordered, even between processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: DateTime(timezone=True)}


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite: Mapped[str] = mapped_column(String(64), unique=True)  # the invite link token
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # phase name -> seconds; the system's timeout action runs when one passes
    time_limits: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="lobby")  # lobby|playing|finished|closed
    host_member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    current_game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Member(Base):
    """Anyone in a room: a seated player, a bot seat, or a spectator (``seat`` is None)."""

    __tablename__ = "members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bot policy id
    kicked: Mapped[bool] = mapped_column(Boolean, default=False)
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
    # the running phase's deadline (survives restarts); None when no limit applies
    deadline_at: Mapped[datetime | None] = mapped_column(nullable=True)
    deadline_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Move(Base):
    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_moves_game_seq"),
        Index("ix_moves_game_seat_ref", "game_id", "seat", "ref"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the system
    action: Mapped[dict[str, Any]] = mapped_column()
    ref: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RefusedAction(Base):
    """A refused move, kept for a while for debugging reports (admin only)."""

    __tablename__ = "refused_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at_seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    code: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text)
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


def _sqlite_pragmas(dbapi_conn: Any, _record: Any, busy_ms: int = 30000) -> None:
    # WAL lets readers run beside the writer; synchronous=FULL makes every commit durable
    # before we acknowledge a move.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={busy_ms}")
    cur.close()


def _writer_pragmas(dbapi_conn: Any, record: Any) -> None:
    _sqlite_pragmas(dbapi_conn, record, busy_ms=0)  # never wait inside the event loop


def make_engine(url: str) -> AsyncEngine:
    if url.startswith("sqlite"):
        # a session keeps its connection across several trips through a busy loop: with the
        # default 5 (+10) connections, requests queued for one (bench: 2.5x slower game starts)
        engine = create_async_engine(url, connect_args={"timeout": 30}, pool_size=30, max_overflow=30)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


WRITE_RETRY_SECONDS = 30.0  # how long a write waits for SQLite's lock before it fails


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite file: the hot write path (moves) runs on a plain sqlite3 connection, right on
        # the event loop. A batch of moves is a millisecond or two of work with the commit;
        # doing it inline holds SQLite's single write lock for exactly that long. On a thread
        # (aiosqlite, or our own) the transaction waits for the GIL and for the loop between
        # statements while it holds the lock, and every other writer starves.
        self._writer: Engine | None = None
        if url.startswith("sqlite") and ":memory:" not in url and url.split(":///", 1)[-1]:
            self._writer = create_engine(url.replace("+aiosqlite", "", 1), connect_args={"timeout": 0})
            event.listen(self._writer, "connect", _writer_pragmas)

    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as s:
            yield s

    async def write(self, fn: Callable[[Connection], None]) -> None:
        """Run ``fn`` (Core statements on a sync connection) as one transaction; returns once
        it is committed."""
        if self._writer is None:
            async with self.engine.begin() as conn:
                await conn.run_sync(fn)
            return
        loop = asyncio.get_running_loop()
        give_up = loop.time() + WRITE_RETRY_SECONDS
        pause = 0.001
        while True:
            try:
                with self._writer.begin() as conn:
                    fn(conn)
                return
            except OperationalError as e:
                # another connection holds the write lock: let the loop run it to its commit
                if "locked" not in str(e.orig) or loop.time() > give_up:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.016)

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self._writer is not None:
            self._writer.dispose()
