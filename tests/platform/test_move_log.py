"""The move log (``storage.movelog.MoveLog``), the same tests against both adapters: the
SQLite file's (``SQLiteMoveLog``) and PostgreSQL's (``PostgresMoveLog``, when
GENIUSNIGHT_TEST_POSTGRES_URL is set), and the group commit over it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select, update
from sqlalchemy.exc import DBAPIError

from geniusnight.server.play.games import GroupCommit
from geniusnight.server.rooms.statements import lock_room
from geniusnight.storage.database import Database
from geniusnight.storage.models import Game, GameSeat, Member, Move, Room, RoomStatus
from geniusnight.storage.movelog import LoggedMove, SeqTaken
from geniusnight.storage.postgres import PostgresMoveLog
from geniusnight.storage.sqlite import SQLiteMoveLog
from moves import NOW, new_moves


async def _database(url: str) -> Database:
    """``url``'s database with two rooms playing games 1 and 2, and a closed room's game 3;
    member 1 holds seat 0 of game 1, seat 1 nobody."""
    db = Database(url)

    def setup(conn: Any) -> None:
        rooms = [{"id": f"r{i}", "invite": f"i{i}", "game": "count21", "status": RoomStatus.PLAYING} for i in (1, 2)]
        rooms.append({"id": "r3", "invite": "i3", "game": "count21", "status": RoomStatus.CLOSED})
        conn.execute(insert(Room), rooms)
        conn.execute(insert(Member), [{"id": 1, "room_id": "r1", "name": "Ada", "seat": 0}])
        seats = [{"name": "Ada", "member_id": 1}, {"name": "Bot", "bot": "random"}]
        conn.execute(
            insert(Game),
            [
                {"id": i, "room_id": f"r{i}", "engine": "count21", "seed": 7, "players": 2, "seats": seats}
                for i in (1, 2, 3)
            ],
        )
        conn.execute(
            insert(GameSeat), [{"game_id": 1, "seat": 0, "member_id": 1}, {"game_id": 1, "seat": 1, "member_id": None}]
        )
        for i in (1, 2, 3):
            conn.execute(update(Room).where(Room.id == f"r{i}").values(current_game_id=i))

    await db.write(setup)
    return db


def _utc(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


async def test_the_adapter_is_the_databases_own(any_db_url: str) -> None:
    db = Database(any_db_url)
    try:
        assert isinstance(db.moves, SQLiteMoveLog if db.sqlite else PostgresMoveLog)
    finally:
        await db.dispose()


async def test_appended_moves_are_read_back_in_order_with_the_game_row_they_leave(any_db_url: str) -> None:
    db = await _database(any_db_url)
    try:
        await db.moves.append([*new_moves(1, 3), *new_moves(2, 2, ends=False)])
        moves, now = await db.moves.since(1, 0)
        written = new_moves(1, 3)
        assert moves == [LoggedMove(m.seq, m.seat, m.member_id, m.action, m.ref) for m in written]
        assert now is not None and now.deadline_at is None and now.deadline_seq is None
        assert now.seats == [{"name": "Ada", "member_id": 1}, {"name": "Bot", "bot": "random"}]
        moves, now = await db.moves.since(2, 1)
        assert [m.seq for m in moves] == [2] and now is not None
        assert (now.deadline_at, now.deadline_seq) == (NOW + timedelta(minutes=2), 2)
        assert await db.moves.since(2, 2) == ([], None)

        async with db.sessions() as s:
            game = await s.get(Game, 1)
            assert game is not None and game.last_seq == 3 and game.result == {"winners": [0], "note": "é ☃ \u2028"}
            assert game.finished_at is not None and _utc(game.finished_at) == NOW + timedelta(seconds=3)
            ongoing = await s.get(Game, 2)
            assert ongoing is not None and ongoing.last_seq == 2 and ongoing.result is None
            assert [r.status for r in (await s.scalars(select(Room).order_by(Room.id))).all()] == [
                RoomStatus.FINISHED,
                RoomStatus.PLAYING,
                RoomStatus.CLOSED,
            ]
    finally:
        await db.dispose()


async def test_a_batch_with_a_taken_seq_writes_nothing(any_db_url: str) -> None:
    db = await _database(any_db_url)
    try:
        await db.moves.append(new_moves(1, 1, ends=False))
        with pytest.raises(SeqTaken):
            await db.moves.append([*new_moves(2, 1, ends=False), *new_moves(1, 2)])  # game 1's seq 1 again
        assert [m.seq for m in (await db.moves.since(1, 0))[0]] == [1]
        assert (await db.moves.since(2, 0))[0] == []
        async with db.sessions() as s:
            game = await s.get(Game, 1)
            assert game is not None and game.last_seq == 1 and game.result is None
    finally:
        await db.dispose()


async def test_a_game_is_loaded_with_its_holders_and_its_rooms_state(any_db_url: str) -> None:
    db = await _database(any_db_url)
    try:
        stored = await db.moves.load(1)
        assert stored is not None and not stored.closed and stored.holders == {1: 0}
        game = stored.game
        assert (game.id, game.room_id, game.engine, game.seed, game.players) == (1, "r1", "count21", 7, 2)
        assert game.deadline_at is None and game.seats[1] == {"name": "Bot", "bot": "random"}
        closed = await db.moves.load(3)
        assert closed is not None and closed.closed and closed.holders == {}
        assert await db.moves.load(99) is None
        seats = await db.moves.seats(1)
        assert seats is not None and seats[1] == {1: 0} and seats[0].seats == game.seats
        assert await db.moves.seats(99) is None
    finally:
        await db.dispose()


async def test_the_first_clock_is_stored_and_loaded_as_utc(any_db_url: str) -> None:
    db = await _database(any_db_url)
    try:
        await db.moves.start_clock(2, NOW)
        stored = await db.moves.load(2)
        assert stored is not None and (stored.game.deadline_at, stored.game.deadline_seq) == (NOW, 0)
    finally:
        await db.dispose()


async def test_two_batches_under_way_at_once_are_both_written(any_db_url: str) -> None:
    """On SQLite a batch's commit runs in the commit thread while the loop goes on: a second
    batch that comes meanwhile waits for its turn."""
    db = await _database(any_db_url)
    try:
        await asyncio.gather(db.moves.append(new_moves(1)), db.moves.append(new_moves(2)))
        async with db.sessions() as s:
            stored = (await s.execute(select(Move.game_id, Move.seq).order_by(Move.game_id, Move.seq))).all()
        assert [tuple(row) for row in stored] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    finally:
        await db.dispose()


async def test_a_group_commit_with_a_taken_seq_commits_the_other_moves_and_fails_only_that_one(
    any_db_url: str,
) -> None:
    db = await _database(any_db_url)
    await db.write(lambda conn: conn.execute(insert(Move), [{"game_id": 1, "seq": 1, "seat": 0, "action": {"n": 1}}]))
    writer = GroupCommit(db.moves)  # another process already wrote game 1's seq 1
    try:
        results = await asyncio.gather(
            writer.write(new_moves(1, 1, ends=False)[0]),
            writer.write(new_moves(2, 1, ends=False)[0]),
            return_exceptions=True,
        )
        assert isinstance(results[0], SeqTaken) and results[1] is None
        async with db.sessions() as s:
            rows = (await s.execute(select(Move.game_id, Move.seq, Move.action).order_by(Move.game_id))).all()
        assert [(g, seq, a["n"]) for g, seq, a in rows] == [(1, 1, 1), (2, 1, 1)]  # the loser changed nothing
    finally:
        await writer.stop()
        await db.dispose()


async def test_a_games_last_move_waits_for_its_rooms_lock_before_locking_the_game(any_db_url: str) -> None:
    """A change of a room's seats or games locks the room's row, then its games' rows
    (``rooms.statements.lock_room``). A commit that ends a game writes the room too, and must
    take the two in the same order, or each waits for the other (PostgreSQL then fails one
    of them as a deadlock): while the room's lock is held, the commit holds no game row."""
    if not any_db_url.startswith("postgresql"):
        pytest.skip("row locks are PostgreSQL's (SQLite has one writer)")
    db = await _database(any_db_url)
    try:
        async with db.engine.connect() as other:
            await other.begin()
            await other.run_sync(lock_room, "r1")  # a change of room r1 under way
            ending = asyncio.create_task(db.moves.append(new_moves(1, 2)))  # game 1's last move
            await asyncio.sleep(0.5)  # the commit has started and waits for the room
            assert not ending.done()
            # the change now writes game 1's row: nothing else holds it
            await other.execute(select(Game.id).where(Game.id == 1).with_for_update(nowait=True))
            await other.execute(update(Game).where(Game.id == 1).values(last_move_at=NOW))
            await other.commit()
        await asyncio.wait_for(ending, 10)
        async with db.sessions() as s:
            room = await s.get(Room, "r1")
            assert room is not None and room.status == RoomStatus.FINISHED
    finally:
        await db.dispose()


async def test_a_batch_that_lost_a_deadlock_is_written_again(any_db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL breaks a deadlock by failing one transaction: nothing of it was committed
    and no move of it acknowledged, so the move log writes the batch again."""
    if not any_db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's deadlock error")
    db = await _database(any_db_url)
    try:
        log = db.moves
        assert isinstance(log, PostgresMoveLog)
        write, failures = log.tx.write, []

        class Deadlock(Exception):
            sqlstate = "40P01"

        async def loses_once(fn: Any) -> Any:
            if not failures:
                failures.append(fn)
                raise DBAPIError("UPDATE rooms ...", {}, Deadlock("deadlock detected"))
            return await write(fn)

        monkeypatch.setattr(log.tx, "write", loses_once)
        await log.append(new_moves(1, 2))
        assert len(failures) == 1 and [m.seq for m in (await log.since(1, 0))[0]] == [1, 2]
    finally:
        await db.dispose()
