"""What the SQLite layer costs per session, in one process with nothing else running.

Reads: a session that loads a game and its seats. Writes: a session that adds a room and
commits. Moves: one move through ``Database.write`` (the move writer). Figures are per
operation, wall and CPU; commits pay an fsync (``synchronous=FULL``), so their wall time
follows the disk (docs/benchmarks.md, "SQLite through public APIs only").

    .venv/bin/python bench/sqlite_sessions.py
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert, select

from geniusnight.cli import db_upgrade
from geniusnight.db import Database, Game, GameSeat, Move, Room


async def run(reads: int, writes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'sessions.db'}"
        db_upgrade(url)
        db = Database(url)
        async with db.sessions() as s:
            s.add(Room(id="r", invite="i", game="count21"))
            await s.flush()
            s.add(Game(id=1, room_id="r", engine="count21", seed=1, players=2))
            await s.commit()

        async def read() -> None:
            for _ in range(reads):
                async with db.sessions() as s:
                    await s.get(Game, 1, populate_existing=True)
                    (await s.execute(select(GameSeat.member_id, GameSeat.seat).where(GameSeat.game_id == 1))).all()

        async def write() -> None:
            for i in range(writes):
                async with db.sessions() as s:
                    s.add(Room(id=f"x{i}", invite=f"x{i}", game="count21"))
                    await s.commit()

        now = datetime.now(UTC)

        async def move() -> None:
            for i in range(writes):
                row = {"game_id": 1, "seq": i + 1, "seat": 0, "action": {"n": 1}, "ref": None, "created_at": now}
                await db.write(lambda c, row=row: c.execute(insert(Move), [row]))

        cases: list[tuple[str, int, Callable[[], Awaitable[None]]]] = [
            ("read session", reads, read),
            ("write session", writes, write),
            ("move write", writes, move),
        ]
        for name, n, fn in cases:
            wall, cpu = time.perf_counter(), time.process_time()
            await fn()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{name:14} x{n:<5} wall {1000 * wall / n:.3f} ms  CPU {1000 * cpu / n:.3f} ms per operation")
        await db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reads", type=int, default=4000)
    parser.add_argument("--writes", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.reads, args.writes))


if __name__ == "__main__":
    main()
