"""The database a process uses: its async engine and ORM sessions, Core transactions on a
synchronous connection (``write``, ``read``), and its move log (``moves``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar

from sqlalchemy import event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from .models import dumps_json
from .movelog import MoveLog
from .postgres import PostgresMoveLog, postgres_engine
from .sqlite import OneWriter, SessionWrites, SQLiteFile, SQLiteMoveLog, session_pragmas

T = TypeVar("T")


def make_engine(url: str) -> AsyncEngine:
    """The async engine for ``url``: SQLite through SQLAlchemy's aiosqlite dialect, or
    PostgreSQL through asyncpg (``postgresql://`` is taken to mean it)."""
    if not url.startswith("sqlite"):
        return postgres_engine(url)
    # an in-memory database lives in one connection (SQLAlchemy's StaticPool takes no sizes);
    # a file's connections are kept open, as each is a thread of aiosqlite's
    memory = (make_url(url).database or ":memory:") == ":memory:"
    sizes: dict[str, Any] = {} if memory else {"pool_size": 30, "max_overflow": 0}
    engine = create_async_engine(url, json_serializer=dumps_json, **sizes)
    event.listen(engine.sync_engine, "connect", session_pragmas)
    return engine


def migrate(conn: Connection) -> None:
    """Run every migration on ``conn`` (alembic's env.py takes the connection it is given)."""
    from alembic import command
    from alembic.config import Config

    from ..resources import data_dir

    cfg = Config()
    cfg.set_main_option("script_location", str(data_dir("alembic")))
    cfg.attributes["connection"] = conn
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.engine = make_engine(url)
        self._maker = async_sessionmaker(self.engine, expire_on_commit=False)
        path = make_url(url).database if self.sqlite else None
        # an in-memory database lives in the engine's one connection: migrated there, once,
        # before its first use (see _ready)
        self.memory = self.sqlite and (path or ":memory:") == ":memory:"
        self._migrated = not self.memory
        self._migrating = asyncio.Lock()
        # a SQLite file: the move path's connections, inline on the loop, and the process's
        # write turn, which the sessions' writes take too (sqlite.py)
        self.file = SQLiteFile(path, OneWriter()) if path and not self.memory else None
        if self.file is not None:
            SessionWrites(self.file.writer).listen(self.engine)
        self.moves: MoveLog = SQLiteMoveLog(self.file) if self.file is not None else PostgresMoveLog(self)

    def sessions(self) -> AbstractAsyncContextManager[AsyncSession]:
        """``async with db.sessions() as s``: a session, closed on the way out."""
        return self._maker() if self._migrated else self._first_session()

    @asynccontextmanager
    async def _first_session(self) -> AsyncIterator[AsyncSession]:
        await self._ready()
        async with self._maker() as s:
            yield s

    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as s:
            yield s

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
            async with self.engine.connect() as conn:
                await conn.run_sync(migrate)
                await conn.commit()
            self._migrated = True

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` (Core statements on a synchronous connection) as one transaction;
        returns what it returns once it is committed. On a SQLite file, inline on the loop
        with the commit beside it (``sqlite.SQLiteFile.write``)."""
        if self.file is not None:
            return await self.file.write(fn)
        return await self._in_transaction(fn)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` (Core reads on a synchronous connection) and return what it returns;
        it sees what is committed. On a SQLite file, inline on the loop."""
        if self.file is not None:
            return await self.file.read(fn)
        return await self._in_transaction(fn)

    async def _in_transaction(self, fn: Callable[[Connection], T]) -> T:
        await self._ready()
        async with self.engine.connect() as conn, conn.begin():
            return await conn.run_sync(fn)

    async def ping(self) -> None:
        """Raises unless the database answers a query."""
        async with self.sessions() as s:
            await s.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self.file is not None:
            await self.file.close()
