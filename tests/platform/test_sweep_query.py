"""The driver's sweep reads only the games that can be overdue (docs/deploy.md, "Abandoned
rooms"): running games of open rooms whose clock ran out, or that moved or started within
``SWEEP_WINDOW``. Not every running game of all time every 3 s: with 10,000 old running games
the sweep's query uses indexes (primary keys and ``ix_games_deadline_at``), never a scan of
``games``, on SQLite and PostgreSQL.

``pytest -s tests/platform/test_sweep_query.py`` prints the query plans and the time of the
old query (every running game) beside the sweep's, on each database.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event, insert, select, text, update

from geniusnight.server.play.bus import Bus
from geniusnight.server.play.driver import SWEEP_GRACE, SWEEP_WINDOW, Driver
from geniusnight.server.play.games import GameService
from geniusnight.server.play.hub import Hub
from geniusnight.storage.models import Game, Move, Room, RoomStatus
from support import FakeClock

OLD_GAMES = 10_000
BOT_SEATS = [{"name": "Ann", "member_id": None, "bot": None}, {"name": "Bot", "member_id": None, "bot": "smart"}]


def _room(room_id: str, at: datetime, status: RoomStatus = RoomStatus.PLAYING) -> dict[str, Any]:
    return {
        "id": room_id,
        "invite": f"inv-{room_id}",
        "game": "count21",
        "options": {},
        "time_limits": {},
        "status": status,
        "created_at": at,
        "updated_at": at,
        "version": 1,
    }


def _game(room_id: str, at: datetime, deadline: datetime | None = None) -> dict[str, Any]:
    return {
        "room_id": room_id,
        "engine": "count21",
        "options": {"target": 99},
        "seed": 7,
        "players": 2,
        "seats": BOT_SEATS,
        "time_limits": {},
        "started_at": at,
        "last_seq": 0,
        "last_move_at": None,
        "deadline_at": deadline,
        "deadline_seq": 0 if deadline else None,
    }


class Swept:
    """The driver of one process on ``db_url`` (a fake clock), the games its sweep loads, and
    the sweep's own SQL statements as they reach the database."""

    def __init__(self, db_url: str) -> None:
        from geniusnight.engines import ENGINES, register
        from geniusnight.fixtures.count21 import ENGINE
        from geniusnight.storage.database import Database

        if ENGINE.info.id not in ENGINES:
            register(ENGINE)
        self.clock = FakeClock()
        self.db = Database(db_url)
        # one process's view: no sweeper task of its own (the test calls sweep)
        self.games = GameService(self.db, multi_process=False, clock=self.clock)
        hub = Hub(self.games, reads=None)  # type: ignore[arg-type]  # the sweep reads no room
        self.driver = Driver(self.games, Bus(hub), bot_delay=0.5, clock=self.clock)
        self.loaded: list[int] = []
        self.statements: list[tuple[str, Any]] = []
        real_catch_up = self.games.catch_up

        async def catch_up(game_id: int) -> Any:
            self.loaded.append(game_id)
            return await real_catch_up(game_id)

        self.games.catch_up = catch_up  # type: ignore[method-assign]
        self.driver.schedule = lambda live: None  # type: ignore[method-assign]  # what is read is the point here
        event.listen(self.db.engine.sync_engine, "before_cursor_execute", self._record)

    def _record(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if "JOIN rooms" in statement:
            self.statements.append((statement, parameters))

    async def sweep(self) -> list[int]:
        self.loaded.clear()
        await self.driver.sweep()
        return sorted(self.loaded)

    async def plan(self, statement: str, parameters: Any) -> str:
        explain = "EXPLAIN QUERY PLAN " if self.db.sqlite else "EXPLAIN "
        async with self.db.engine.connect() as conn:
            rows = (await conn.exec_driver_sql(explain + statement, parameters)).all()
        return "\n".join(" ".join(str(c) for c in row) for row in rows)

    async def timed(self, statement: str, parameters: Any, runs: int = 20) -> float:
        """Milliseconds per run of ``statement``, the best of ``runs``."""
        best = float("inf")
        async with self.db.engine.connect() as conn:
            for _ in range(runs):
                started = time.perf_counter()
                (await conn.exec_driver_sql(statement, parameters)).all()
                best = min(best, time.perf_counter() - started)
        return best * 1000


async def test_the_sweep_reads_only_games_that_can_be_overdue_through_indexes(any_db_url: str) -> None:
    swept = Swept(any_db_url)
    now = swept.clock.now()
    old = now - timedelta(days=5)
    try:
        async with swept.db.sessions() as s:
            await s.execute(insert(Room), [_room(f"old{i}", old) for i in range(OLD_GAMES)])
            await s.execute(insert(Game), [_game(f"old{i}", old) for i in range(OLD_GAMES)])
            await s.execute(
                insert(Room),
                [
                    _room("clock", old),
                    _room("closed", old, RoomStatus.CLOSED),
                    _room("fresh", now),
                    _room("later", old),
                ],
            )
            overdue = now - timedelta(seconds=SWEEP_GRACE + 1)
            await s.execute(insert(Game), [_game("clock", old, deadline=overdue), _game("closed", old, overdue)])
            await s.commit()
            if not swept.db.sqlite:
                await s.execute(text("ANALYZE"))
            ids = dict(
                (await s.execute(select(Game.room_id, Game.id).where(~Game.room_id.like("old%")))).tuples().all()
            )

        # the first sweep: a clock that ran out, not the closed room's, none of the quiet games
        assert await swept.sweep() == [ids["clock"]]

        # a game that starts, and an old one that moves: both are read once their bot is overdue
        async with swept.db.sessions() as s:
            await s.execute(insert(Game), [_game("fresh", now)])
            await s.execute(
                insert(Move),
                [{"game_id": 1, "seq": 1, "seat": 0, "action": {"type": "add", "n": 1}, "created_at": now}],
            )
            await s.execute(update(Game).where(Game.id == 1).values(last_seq=1, last_move_at=now))
            await s.commit()
            fresh = await s.scalar(select(Game.id).where(Game.room_id == "fresh"))
        swept.clock.advance(SWEEP_GRACE + 1)
        assert await swept.sweep() == sorted([1, ids["clock"], fresh])

        # past SWEEP_WINDOW without a move they are no longer read
        swept.clock.advance(SWEEP_WINDOW.total_seconds() + 1)
        assert await swept.sweep() == [ids["clock"]]

        # the query's plans, with recent games (the second sweep) and without: no scan of games
        name = "SQLite" if swept.db.sqlite else "PostgreSQL"
        for statement, parameters in (swept.statements[1], swept.statements[-1]):
            plan = await swept.plan(statement, parameters)
            if swept.db.sqlite:
                assert "SCAN games" not in plan and "ix_games_deadline_at" in plan, plan
            else:
                assert "Seq Scan on games" not in plan and "ix_games_deadline_at" in plan, plan
            print(f"\n{name}, {OLD_GAMES} old running games, {len(parameters)} parameters:\n{plan}")
            print(f"the sweep's query: {await swept.timed(statement, parameters):.2f} ms (best of 20)")
        every_running = "SELECT games.id, games.last_seq, games.seats FROM games WHERE games.finished_at IS NULL"
        print(f"every running game (the query before): {await swept.timed(every_running, ()):.2f} ms (best of 20)")
    finally:
        await swept.db.dispose()


async def test_a_game_started_between_the_start_and_the_first_sweep_is_swept(db_url: str) -> None:
    """resume_all schedules the games running at the start; the sweep sees every move and game
    written after it, even before its own first run."""
    swept = Swept(db_url)
    try:
        await swept.driver.resume_all()
        now = swept.clock.now()
        async with swept.db.sessions() as s:
            await s.execute(insert(Room), [_room("late", now)])
            await s.execute(insert(Game), [_game("late", now)])
            await s.commit()
            late = await s.scalar(select(Game.id))
        swept.clock.advance(SWEEP_GRACE + 1)  # a game with a bot, quiet past a bot turn's due time:
        assert await swept.sweep() == [late]  # read, to see whether its bot must act
    finally:
        await swept.db.dispose()
