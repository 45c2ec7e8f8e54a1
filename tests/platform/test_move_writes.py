"""A batch of accepted moves is written as SQLAlchemy would write it.

On the SQLite file, ``write_moves`` hands its rows to the driver's ``executemany`` with the
SQL and bind processors worked out once (``games._execute_many``). What it stores must be
what ``Connection.execute`` of the same statements stores: the same text for every column
(datetimes, JSON, the room's status), read back as the same values by the ORM.
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import JSON, DateTime, create_engine, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError

from geniusnight.db import Database, Game, Move, Room, RoomStatus, dumps_json
from geniusnight.server.play.games import (
    FINISH_ROOM,
    INSERT_MOVES,
    PendingWrite,
    _datetime_text,
    _quicker,
    game_row,
    game_update,
    write_moves,
)

NOW = datetime(2026, 12, 6, 5, 50, 59, 123456, tzinfo=UTC)


async def _two_rooms(db: Database) -> None:
    async with db.sessions() as s:
        for name, game_id in (("driver", 1), ("core", 2)):
            s.add(Room(id=name, invite=name, game="count21", status=RoomStatus.PLAYING))
            await s.flush()
            s.add(Game(id=game_id, room_id=name, engine="count21", seed=1, players=2))
            await s.flush()
            room = await s.get(Room, name)
            assert room is not None
            room.current_game_id = game_id
        await s.commit()


def _batch(game_id: int, room_id: str) -> list[PendingWrite]:
    """Two moves of a game, the second ending it: every kind of value a batch writes."""
    out = []
    for seq in (1, 2):
        last = seq == 2
        values: dict[str, Any] = {
            "last_seq": seq,
            "last_move_at": NOW + timedelta(seconds=seq),
            "deadline_at": None if last else NOW + timedelta(minutes=1),
            "deadline_seq": None if last else seq,
        }
        if last:
            values.update(result={"winners": [0], "note": "é ☃ \u2028"}, finished_at=NOW)
        move = {
            "game_id": game_id,
            "seq": seq,
            "seat": seq % 2,
            "member_id": None if last else 7,
            "action": {"add": seq, "word": "naïve", "nested": [1, 2.5, None, True]},
            "ref": None if last else f"m{seq}",
            "created_at": NOW + timedelta(seconds=seq),
        }
        out.append(PendingWrite(move, game_id, game_row(game_id, values), room_id if last else None, NOW))
    return out


def _core_write(batch: list[PendingWrite]) -> Any:
    """The same statements through ``Connection.execute``, one move at a time."""

    def write(conn: Any) -> None:
        for w in batch:
            conn.execute(INSERT_MOVES, [w.move])
            conn.execute(game_update(tuple(w.game_row)), [w.game_row])
            if w.room_id is not None:
                conn.execute(FINISH_ROOM, [{"b_room": w.room_id, "b_game": w.game_id, "b_now": w.now}])

    return write


def _stored(path: str, sql: str, key: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as raw:
        return [row for row in raw.execute(sql) if row[0] == key]


async def test_moves_written_by_the_driver_are_stored_as_core_stores_them(db_url: str) -> None:
    db = Database(db_url)
    try:
        await _two_rooms(db)
        await write_moves(db, _batch(1, "driver"))
        await db.write(_core_write(_batch(2, "core")))
        path = db_url.split(":///", 1)[1]

        def rows(sql: str, key: Any) -> list[tuple[Any, ...]]:
            return [row[1:] for row in _stored(path, sql, key)]

        moves = "SELECT game_id, seq, seat, member_id, action, ref, created_at FROM moves ORDER BY seq"
        assert rows(moves, 1) == rows(moves, 2)
        games = "SELECT id, last_seq, last_move_at, deadline_at, deadline_seq, result, finished_at FROM games"
        assert rows(games, 1) == rows(games, 2)
        rooms = "SELECT current_game_id, status, updated_at, version FROM rooms"
        assert rows(rooms, 1) == rows(rooms, 2)
        assert rows(rooms, 1)[0][0] == "finished"

        async with db.sessions() as s:
            stored = (await s.scalars(select(Move).where(Move.game_id == 1).order_by(Move.seq))).all()
            assert [m.action for m in stored] == [w.move["action"] for w in _batch(1, "driver")]
            assert [m.created_at.replace(tzinfo=UTC) for m in stored] == [NOW + timedelta(seconds=s) for s in (1, 2)]
            game = await s.get(Game, 1)
            assert game is not None and game.result == {"winners": [0], "note": "é ☃ \u2028"}
            room = await s.get(Room, "driver")
            assert room is not None and room.status == RoomStatus.FINISHED
    finally:
        await db.dispose()


async def test_a_batch_whose_move_is_taken_writes_nothing(db_url: str) -> None:
    """A seq already stored fails the whole batch (GroupCommit then writes its moves one by
    one): the transaction is rolled back, not half kept."""
    db = Database(db_url)
    try:
        await _two_rooms(db)
        await write_moves(db, _batch(1, "driver")[:1])
        with pytest.raises(IntegrityError, match="UNIQUE"):  # SQLAlchemy's, as the callers expect
            await write_moves(db, _batch(1, "driver"))  # seq 1 again, then seq 2
        async with db.sessions() as s:
            assert (await s.scalars(select(Move.seq).where(Move.game_id == 1))).all() == [1]
            game = await s.get(Game, 1)
            assert game is not None and game.last_seq == 1 and game.result is None
    finally:
        await db.dispose()


async def test_a_batch_waits_for_a_lock_another_process_holds_then_is_written(db_url: str) -> None:
    """Another process's write transaction (here a plain ``sqlite3`` connection) holds the
    lock: the batch is retried with the loop running, as ``Database.write`` does for a lock
    it is told of as SQLAlchemy's OperationalError, and written once the lock is free."""
    db = Database(db_url)
    other = sqlite3.connect(db_url.split(":///", 1)[1], isolation_level=None)
    try:
        await _two_rooms(db)
        other.execute("BEGIN IMMEDIATE")
        writing = asyncio.create_task(write_moves(db, _batch(1, "driver")))
        await asyncio.sleep(0.3)
        assert not writing.done()
        other.execute("COMMIT")
        await asyncio.wait_for(writing, 10)
        async with db.sessions() as s:
            assert (await s.scalars(select(Move.seq).where(Move.game_id == 1).order_by(Move.seq))).all() == [1, 2]
    finally:
        other.close()
        await db.dispose()


async def test_a_batch_cancelled_while_its_commit_runs_keeps_the_write_turn_until_it_is_done(db_url: str) -> None:
    """A batch's commit runs in the database's commit thread, while the loop goes on. A batch
    cancelled meanwhile (a shutdown) does not let another writer onto SQLite's lock before
    the commit is done: its moves are stored, and the next batch writes on a new connection."""
    db = Database(db_url)
    try:
        await _two_rooms(db)
        await write_moves(db, _batch(2, "core")[:1])  # the commit thread and its connection exist
        assert db._committer is not None
        release = asyncio.Event()
        loop = asyncio.get_running_loop()
        # the commit thread is busy until the test says so: the next commit waits behind it
        busy = loop.run_in_executor(db._committer, asyncio.run_coroutine_threadsafe(release.wait(), loop).result)
        writing = asyncio.create_task(write_moves(db, _batch(1, "driver")))
        await asyncio.sleep(0.2)
        assert not writing.done() and db.writer.holder is not None  # the loop went on; the turn is held
        writing.cancel()
        await asyncio.sleep(0.2)
        assert not writing.done() and db.writer.holder is not None  # still, until the commit is done
        release.set()
        await busy
        with pytest.raises(asyncio.CancelledError):
            await writing
        assert db.writer.holder is None
        async with db.sessions() as s:
            assert (await s.scalars(select(Move.seq).where(Move.game_id == 1).order_by(Move.seq))).all() == [1, 2]
        await write_moves(db, _batch(2, "core")[1:])  # a new connection takes the next batch
        async with db.sessions() as s:
            assert (await s.scalars(select(Move.seq).where(Move.game_id == 2).order_by(Move.seq))).all() == [1, 2]
    finally:
        await db.dispose()


@given(st.datetimes(timezones=st.sampled_from([None, UTC])))
def test_datetimes_are_written_as_the_sqlite_dialect_writes_them(value: datetime) -> None:
    dialect = sqlite.dialect()
    process = DateTime().dialect_impl(dialect).bind_processor(dialect)
    assert _quicker(process) is _datetime_text
    assert _datetime_text(value) == process(value)


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
    """The move connection's engine encodes JSON with ``dumps_json``: its bind processor is
    replaced by that function, which writes the same text."""
    dialect = create_engine("sqlite://", json_serializer=dumps_json).dialect
    process = JSON().dialect_impl(dialect).bind_processor(dialect)
    assert _quicker(process) is dumps_json
    assert dumps_json(value) == process(value)


def test_a_json_processor_that_writes_other_text_is_kept() -> None:
    """With the standard library's serializer (it escapes non-ASCII text), the processor stays."""
    dialect = create_engine("sqlite://").dialect
    process = JSON().dialect_impl(dialect).bind_processor(dialect)
    assert _quicker(process) is process


async def test_two_writes_under_way_at_once_take_turns(db_url: str) -> None:
    """A write's commit runs in the commit thread while the loop goes on: a second write
    that comes meanwhile (a game's start beside a batch of moves) waits for its turn."""
    db = Database(db_url)
    try:
        await _two_rooms(db)
        await asyncio.gather(write_moves(db, _batch(1, "driver")), write_moves(db, _batch(2, "core")))
        async with db.sessions() as s:
            stored = (await s.execute(select(Move.game_id, Move.seq).order_by(Move.game_id, Move.seq))).all()
            assert [tuple(row) for row in stored] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    finally:
        await db.dispose()
