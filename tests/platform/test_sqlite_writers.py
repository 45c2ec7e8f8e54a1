"""SQLite's one write lock, shared by the requests' sessions and the move writer of a process.

What the server relies on: a write transaction of this process never waits for another one
in SQLite's busy handler (on the loop's thread it would stall every room; in a session's
aiosqlite thread it polls, and gives up with "database is locked"). They take turns on the
loop instead (``storage.sqlite.OneWriter``): the move path's inline writes, and a session's
from its first write until it hands its connection back (``storage.sqlite.SessionWrites``).
So write transactions that span loop iterations never end in "database is locked", and a
game start commits promptly while moves stream in.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select

from geniusnight.storage.database import Database
from geniusnight.storage.models import Game, GameSeat, Member, Move, Room


async def test_many_write_transactions_spanning_loop_iterations_never_meet_a_locked_database(db_url: str) -> None:
    db = Database(db_url)
    now = datetime.now(UTC)
    async with db.sessions() as s:
        s.add(Room(id="moves", invite="moves", game="count21"))
        await s.flush()
        s.add(Game(id=1, room_id="moves", engine="count21", seed=1, players=2))
        await s.commit()

    streaming = True
    moves_written = 0

    async def stream_moves() -> None:  # the move writer, as GroupCommit drives it
        nonlocal moves_written
        seq = 0
        while streaming:
            seq += 1
            row = {"game_id": 1, "seq": seq, "seat": 0, "action": {"n": 1}, "ref": None, "created_at": now}
            await db.write(lambda c, row=row: c.execute(insert(Move), [row]))
            moves_written += 1
            await asyncio.sleep(0)

    async def open_room(i: int) -> None:  # a request: its transaction awaits in the middle
        async with db.sessions() as s:
            s.add(Room(id=f"r{i}", invite=f"i{i}", game="count21"))
            await s.flush()  # SQLite's write lock is taken here...
            await asyncio.sleep(0.002)  # ...and held across loop iterations
            s.add(Member(room_id=f"r{i}", name=f"m{i}", seat=0))
            await s.commit()

    async def start_game() -> float:  # a rematch: a game and its seats, while moves stream in
        loop = asyncio.get_running_loop()
        began = loop.time()
        async with db.sessions() as s:
            s.add(Game(id=2, room_id="moves", engine="count21", seed=2, players=2))
            await s.flush()
            await asyncio.sleep(0.002)
            s.add_all([GameSeat(game_id=2, seat=seat) for seat in (0, 1)])
            await s.commit()
        return loop.time() - began

    writer = asyncio.create_task(stream_moves())
    try:
        await asyncio.sleep(0.05)
        before = moves_written
        results = await asyncio.gather(*(open_room(i) for i in range(60)), start_game(), return_exceptions=True)
        beside = moves_written - before  # moves committed while the sessions held their turns
        await asyncio.sleep(0.05)
    finally:
        streaming = False
        await writer
    errors = [r for r in results if isinstance(r, BaseException)]
    assert errors == []
    took = results[-1]
    assert isinstance(took, float) and took < 5.0  # the start waited its turn, not for the stream to end
    async with db.sessions() as s:
        count: Any = await s.scalar(select(func.count()).select_from(Member))
        seats: Any = await s.scalar(select(func.count()).select_from(GameSeat))
        moves: Any = await s.scalar(select(func.count()).select_from(Move))
    assert (count, seats, moves) == (60, 2, moves_written)
    assert beside >= 1, "the move writer was shut out while the sessions wrote"
    await db.dispose()


async def test_a_failed_write_gives_the_turn_back(db_url: str) -> None:
    from sqlalchemy.exc import IntegrityError

    db = Database(db_url)
    async with db.sessions() as s:
        s.add(Room(id="r", invite="i", game="count21"))
        await s.commit()
    async with db.sessions() as s:
        s.add(Room(id="r", invite="other", game="count21"))  # the same id: refused
        try:
            await s.commit()
        except IntegrityError:
            pass
        else:
            raise AssertionError("a duplicate room id was accepted")
    assert db.file is not None and db.file.writer.holder is None
    async with db.sessions() as s:  # the next writer is not kept waiting
        s.add(Room(id="r2", invite="i2", game="count21"))
        await asyncio.wait_for(s.commit(), 1)
    await db.dispose()


async def test_the_connections_threads_never_keep_the_process_alive(db_url: str) -> None:
    before = set(threading.enumerate())
    db = Database(db_url)

    async def read() -> None:
        async with db.sessions() as s:
            await s.execute(select(Room.id))
            await asyncio.sleep(0.01)

    await asyncio.gather(*(read() for _ in range(5)))
    new = set(threading.enumerate()) - before
    assert new  # aiosqlite opened each connection in a thread of its own...
    assert all(t.daemon for t in new)  # ...which does not hold up the exit of a process
    await db.dispose()
    # (a thread an earlier test left may end meanwhile: what counts is that none is new)
    for _ in range(100):
        if not set(threading.enumerate()) - before:
            break
        await asyncio.sleep(0.01)
    assert not set(threading.enumerate()) - before  # none left to keep the process from exiting


async def test_a_sessions_write_holds_the_write_turn_until_its_commit(db_url: str) -> None:
    """A session's first write takes the process's write turn (``storage.sqlite.SessionWrites``):
    an inline write (a batch of moves) that comes meanwhile waits on the loop, not in SQLite,
    and goes on once the session has committed and handed its connection back."""
    db = Database(db_url)
    assert db.file is not None
    try:
        async with db.sessions() as s:
            await s.execute(select(Room.id))  # a read takes no turn
            assert db.file.writer.holder is None
            s.add(Room(id="r", invite="i", game="count21"))
            await s.flush()
            assert db.file.writer.holder is not None
            row = {"id": "q", "invite": "q", "game": "count21"}
            inline = asyncio.create_task(db.write(lambda c: c.execute(insert(Room), [row])))
            await asyncio.sleep(0.1)
            assert not inline.done()
            await s.commit()
            assert db.file.writer.holder is None
        await asyncio.wait_for(inline, 5)
        async with db.sessions() as s:
            assert sorted((await s.scalars(select(Room.id))).all()) == ["q", "r"]
    finally:
        await db.dispose()


async def test_a_session_whose_connection_is_invalidated_gives_the_turn_back(db_url: str) -> None:
    """A connection dropped in the middle of a write (an error that invalidates it) hands the
    write turn back when the session gives it up: the next writer is not kept waiting."""
    db = Database(db_url)
    assert db.file is not None
    try:
        async with db.sessions() as s:
            s.add(Room(id="r", invite="i", game="count21"))
            await s.flush()
            assert db.file.writer.holder is not None
            await (await s.connection()).invalidate()
        assert db.file.writer.holder is None
        async with db.sessions() as s:
            s.add(Room(id="r2", invite="i2", game="count21"))
            await asyncio.wait_for(s.commit(), 1)
        async with db.sessions() as s:
            assert (await s.scalars(select(Room.id))).all() == ["r2"]
    finally:
        await db.dispose()
