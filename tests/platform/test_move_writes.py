"""The SQLite file's move log writes what SQLAlchemy would write, inline on the loop.

``SQLiteMoveLog`` hands its rows to the ``sqlite3`` cursor's ``executemany`` with SQL of its
own. What it stores must be what SQLAlchemy's Core statements (``PostgresMoveLog``'s) store
for the same moves: the same text for every column (datetimes, JSON, the room's status), read
back as the same values by the ORM. And the file's writes wait for a lock another process
holds with the loop running, and keep the write turn until their commit is done.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import JSON, DateTime, create_engine, insert, select, text, update
from sqlalchemy.dialects import sqlite

from geniusnight.storage import postgres
from geniusnight.storage.database import Database
from geniusnight.storage.models import Game, Move, Room, RoomStatus, dumps_json
from geniusnight.storage.sqlite import SQLiteFile, datetime_text
from moves import NOW, new_moves


async def _two_rooms(db: Database) -> SQLiteFile:
    def setup(conn: Any) -> None:
        conn.execute(
            insert(Room), [{"id": r, "invite": r, "game": "count21", "status": "playing"} for r in ("r1", "r2")]
        )
        conn.execute(
            insert(Game), [{"id": i, "room_id": f"r{i}", "engine": "count21", "seed": 1, "players": 2} for i in (1, 2)]
        )
        for i in (1, 2):
            conn.execute(update(Room).where(Room.id == f"r{i}").values(current_game_id=i))

    await db.write(setup)
    assert db.file is not None
    return db.file


def _stored(path: str, sql: str, key: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as raw:
        return [row[1:] for row in raw.execute(sql) if row[0] == key]


async def test_moves_are_stored_as_sqlalchemys_statements_store_them(db_url: str) -> None:
    db = Database(db_url)
    try:
        await _two_rooms(db)
        await db.moves.append(new_moves(1))
        await db.write(partial(postgres.append_rows, moves=new_moves(2)))  # SQLAlchemy Core's executemany
        path = db_url.split(":///", 1)[1]
        moves = "SELECT game_id, seq, seat, member_id, action, ref, created_at FROM moves ORDER BY seq"
        assert _stored(path, moves, 1) == _stored(path, moves, 2) and len(_stored(path, moves, 1)) == 2
        games = "SELECT id, last_seq, last_move_at, deadline_at, deadline_seq, result, finished_at FROM games"
        assert _stored(path, games, 1) == _stored(path, games, 2)
        rooms = "SELECT current_game_id, status, updated_at, version FROM rooms"
        assert _stored(path, rooms, 1) == _stored(path, rooms, 2)
        assert _stored(path, rooms, 1)[0][0] == "finished"

        async with db.sessions() as s:
            stored = (await s.scalars(select(Move).where(Move.game_id == 1).order_by(Move.seq))).all()
            assert [m.action for m in stored] == [m.action for m in new_moves(1)]
            assert [m.created_at.replace(tzinfo=UTC) for m in stored] == [NOW + timedelta(seconds=s) for s in (1, 2)]
            game = await s.get(Game, 1)
            assert game is not None and game.result == {"winners": [0], "note": "é ☃ \u2028"}
            room = await s.get(Room, "r1")
            assert room is not None and room.status == RoomStatus.FINISHED
    finally:
        await db.dispose()


async def test_a_batch_waits_for_a_lock_another_process_holds_with_the_loop_running(db_url: str) -> None:
    """Another process's write transaction (here a plain ``sqlite3`` connection) holds the
    lock: the batch is retried with the loop running, and written once the lock is free."""
    db = Database(db_url)
    other = sqlite3.connect(db_url.split(":///", 1)[1], isolation_level=None)
    try:
        await _two_rooms(db)
        other.execute("BEGIN IMMEDIATE")
        writing = asyncio.create_task(db.moves.append(new_moves(1)))
        ticks = 0
        for _ in range(30):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 30 and not writing.done()  # the loop ran on while the batch waited
        other.execute("COMMIT")
        await asyncio.wait_for(writing, 10)
        assert [m.seq for m in (await db.moves.since(1, 0))[0]] == [1, 2]
    finally:
        other.close()
        await db.dispose()


async def test_a_batch_cancelled_while_its_commit_runs_keeps_the_write_turn_until_it_is_done(db_url: str) -> None:
    """A batch's commit runs in the file's commit thread, while the loop goes on. A batch
    cancelled meanwhile (a shutdown) does not let another writer onto SQLite's lock before
    the commit is done: its moves are stored, and the next batch writes on a new connection."""
    db = Database(db_url)
    try:
        file = await _two_rooms(db)  # the commit thread and its connection exist
        assert file.committer is not None
        release = asyncio.Event()
        loop = asyncio.get_running_loop()
        # the commit thread is busy until the test says so: the next commit waits behind it
        busy = loop.run_in_executor(file.committer, asyncio.run_coroutine_threadsafe(release.wait(), loop).result)
        writing = asyncio.create_task(db.moves.append(new_moves(1)))
        await asyncio.sleep(0.2)
        assert not writing.done() and file.writer.holder is not None  # the loop went on; the turn is held
        writing.cancel()
        await asyncio.sleep(0.2)
        assert not writing.done() and file.writer.holder is not None  # still, until the commit is done
        release.set()
        await busy
        with pytest.raises(asyncio.CancelledError):
            await writing
        assert file.writer.holder is None
        assert [m.seq for m in (await db.moves.since(1, 0))[0]] == [1, 2]
        await db.moves.append(new_moves(2))  # a new connection takes the next batch
        assert [m.seq for m in (await db.moves.since(2, 0))[0]] == [1, 2]
    finally:
        await db.dispose()


async def test_the_move_paths_reads_never_yield_to_the_loop(db_url: str) -> None:
    """The move log's reads run inline on the loop's thread: a busy loop cannot delay them."""
    db = Database(db_url)
    yielded = 0

    async def count() -> None:
        nonlocal yielded
        while True:
            yielded += 1
            await asyncio.sleep(0)

    await _two_rooms(db)
    await db.moves.append(new_moves(1)[:1])
    counter = asyncio.create_task(count())
    await asyncio.sleep(0)
    try:
        threads = set(threading.enumerate())
        before = yielded
        assert (await db.moves.load(1)) is not None
        assert len((await db.moves.since(1, 0))[0]) == 1
        assert await db.read(lambda conn: conn.execute(text("SELECT count(*) FROM moves")).scalar()) == 1
        # no thread started (one an earlier test left may have ended meanwhile)
        assert yielded == before and set(threading.enumerate()) <= threads
    finally:
        counter.cancel()
        await db.dispose()


@given(st.datetimes(timezones=st.sampled_from([None, UTC])))
def test_datetimes_are_written_as_the_sqlite_dialect_writes_them(value: datetime) -> None:
    dialect = sqlite.dialect()
    process = DateTime().dialect_impl(dialect).bind_processor(dialect)
    assert process is not None and datetime_text(value) == process(value)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_json_values_are_written_as_the_engines_json_processor_writes_them(value: Any) -> None:
    """The engines encode JSON with ``dumps_json``: their JSON bind processor writes what
    ``dumps_json`` writes, which the SQLite move log writes directly."""
    dialect = create_engine("sqlite://", json_serializer=dumps_json).dialect
    process = JSON().dialect_impl(dialect).bind_processor(dialect)
    assert process is not None and dumps_json(value) == process(value)
