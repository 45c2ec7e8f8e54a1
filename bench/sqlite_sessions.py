"""What the SQLite layer costs per session, in one process with nothing else running.

Reads: a session that loads a game and its seats (through aiosqlite's threads), and the
same through the move log (inline). Writes: a session that adds a room and commits. Moves:
one move through ``Database.write`` (the move writer). Batches: a group commit of four moves
of four games, as the server writes it (``SQLiteMoveLog.append``: the rows go to the
driver's ``executemany``), beside the same moves through SQLAlchemy's ``Connection.execute``
(``PostgresMoveLog``'s statements). Figures are per operation, wall and CPU; commits pay an
fsync (``synchronous=FULL``), so their wall time follows the disk (docs/performance.md, D2,
D4 and D33).

    .venv/bin/python bench/sqlite_sessions.py
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from sqlalchemy import insert, select

from geniusnight.cli import db_upgrade
from geniusnight.storage import postgres
from geniusnight.storage.database import Database
from geniusnight.storage.models import Game, GameSeat, Move, Room
from geniusnight.storage.movelog import NewMove

BATCH = 4  # moves of as many games in one group commit (about what 1,000 moves/s gives)


async def run(reads: int, writes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'sessions.db'}"
        db_upgrade(url)
        db = Database(url)
        async with db.sessions() as s:
            for g in range(1, BATCH + 2):
                s.add(Room(id=f"r{g}", invite=f"i{g}", game="count21"))
                await s.flush()
                s.add(Game(id=g, room_id=f"r{g}", engine="count21", seed=1, players=2))
            await s.commit()

        async def read() -> None:
            for _ in range(reads):
                async with db.sessions() as s:
                    await s.get(Game, 1, populate_existing=True)
                    (await s.execute(select(GameSeat.member_id, GameSeat.seat).where(GameSeat.game_id == 1))).all()

        async def log_read() -> None:
            for _ in range(reads):
                await db.moves.load(1)

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

        seqs = dict.fromkeys(range(2, BATCH + 2), 0)

        def batch() -> list[NewMove]:
            out = []
            for g in seqs:
                seqs[g] += 1
                action = {"type": "place", "cells": [[0, 1], [1, 1]], "tile": ["red", "blue"]}
                out.append(NewMove(g, f"r{g}", seqs[g], 0, 1, action, f"m{seqs[g]}", now, now, seqs[g]))
            return out

        async def driver_batches() -> None:
            for _ in range(writes):
                await db.moves.append(batch())

        async def core_batches() -> None:
            for _ in range(writes):
                await db.write(partial(postgres.append_rows, moves=batch()))

        cases: list[tuple[str, int, Callable[[], Awaitable[None]]]] = [
            ("read session", reads, read),
            ("move log load", reads, log_read),
            ("write session", writes, write),
            ("move write", writes, move),
            (f"batch of {BATCH}, driver", writes, driver_batches),
            (f"batch of {BATCH}, Core", writes, core_batches),
            (f"batch of {BATCH}, driver", writes, driver_batches),
            (f"batch of {BATCH}, Core", writes, core_batches),
        ]
        for name, n, fn in cases:
            wall, cpu = time.perf_counter(), time.process_time()
            await fn()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{name:18} x{n:<5} wall {1000 * wall / n:.3f} ms  CPU {1000 * cpu / n:.3f} ms per operation")
        await db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reads", type=int, default=4000)
    parser.add_argument("--writes", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.reads, args.writes))


if __name__ == "__main__":
    main()
