"""Refused moves, counted and sampled: what the admin sees of them (docs/admin.md, "Refused
actions") without letting a sender fill the disk.

Every refused move is counted, per game and sender (``refusal_counts``). Only a sample is
stored (``refused_actions``): each sender's first ``KEPT_PER_SENDER`` refusals of a game, and
no more than ``KEPT_PER_GAME`` of a game in all, each with its action as sent if that is
small, else cut to its first ``SAMPLE_BYTES`` characters. Once a sender's sample is full,
their refusals are counted in memory and written as one addition at most every
``FLUSH_SECONDS``: a flood costs a counter, not a transaction per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from ...storage.database import Database
from ...storage.models import RefusalCount, RefusedAction, dumps_json

log = logging.getLogger(__name__)

REFUSED: Table = RefusedAction.__table__  # type: ignore[assignment]
COUNTS: Table = RefusalCount.__table__  # type: ignore[assignment]

KEPT_PER_SENDER = 20  # refusals of one sender kept whole, per game
KEPT_PER_GAME = 100  # refusals kept, per game, whoever sent them
SAMPLE_BYTES = 1024  # an action longer than this as JSON is kept cut short
FLUSH_SECONDS = 10.0  # a flooding sender's count is written this often
TALLIES_MAX = 10_000  # senders remembered in memory; those with nothing to write leave first

SERVER = 0  # the sender of the server's own moves (bots, timeouts): no member has id 0


def sample(action: Any) -> dict[str, Any]:
    """What is kept of a refused action: the action itself if its JSON is at most
    ``SAMPLE_BYTES`` long, else its first ``SAMPLE_BYTES`` characters and its length.

    >>> sample({"type": "add", "n": 1})
    {'type': 'add', 'n': 1}
    >>> cut = sample({"type": "say", "text": "x" * 5000}); cut["bytes"], len(cut["truncated"])
    (5024, 1024)
    """
    text = dumps_json(action) if isinstance(action, dict) else repr(action)
    if isinstance(action, dict) and len(text) <= SAMPLE_BYTES:
        return action
    if not isinstance(action, dict) and len(text) <= SAMPLE_BYTES:
        return {"raw": text}
    return {"truncated": text[:SAMPLE_BYTES], "bytes": len(text.encode())}


@dataclass
class _Tally:
    """What this process knows of one sender's refusals in one game."""

    full: bool = False  # the sample holds all it may of them: count only
    unwritten: int = 0  # counted here since the last write
    last_at: datetime | None = None
    flush: asyncio.Task[None] | None = None


@dataclass(frozen=True, slots=True)
class Refusal:
    game_id: int
    at_seq: int
    seat: int | None
    member_id: int | None
    action: Any
    code: str
    message: str
    at: datetime


class RefusalLog:
    """Counts refused moves and keeps a sample of them. One per process (GameService)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.kept_per_sender = KEPT_PER_SENDER
        self.kept_per_game = KEPT_PER_GAME
        self.flush_seconds = FLUSH_SECONDS
        self.tallies: OrderedDict[tuple[int, int], _Tally] = OrderedDict()

    async def note(self, refusal: Refusal) -> bool:
        """Count ``refusal``, and keep it if the sample has room; returns whether it was kept."""
        key = (refusal.game_id, refusal.member_id or SERVER)
        tally = self.tallies.get(key)
        if tally is None:
            tally = self.tallies[key] = _Tally()
            self._forget_some()
        self.tallies.move_to_end(key)
        if tally.full:
            tally.unwritten += 1
            tally.last_at = refusal.at
            if tally.flush is None:
                tally.flush = asyncio.get_running_loop().create_task(self._flush_later(key, tally))
            return False
        count, kept = await self.db.write(lambda conn: self._record(conn, refusal, key[1]))
        if count >= self.kept_per_sender or not kept:
            tally.full = True
        return kept

    def _record(self, conn: Connection, refusal: Refusal, sender: int) -> tuple[int, bool]:
        """Count one refusal and keep it if its sender's and its game's samples have room;
        returns the sender's count and whether it was kept."""
        count = _add(conn, refusal.game_id, sender, 1, refusal.at)
        if count > self.kept_per_sender:
            return count, False
        kept = conn.execute(select(func.count()).select_from(REFUSED).where(REFUSED.c.game_id == refusal.game_id))
        if kept.scalar_one() >= self.kept_per_game:
            return count, False
        conn.execute(
            insert(REFUSED),
            {
                "game_id": refusal.game_id,
                "at_seq": refusal.at_seq,
                "seat": refusal.seat,
                "member_id": refusal.member_id,
                "action": sample(refusal.action),
                "code": refusal.code,
                "message": refusal.message,
                "created_at": refusal.at,
            },
        )
        return count, True

    async def _flush_later(self, key: tuple[int, int], tally: _Tally) -> None:
        await asyncio.sleep(self.flush_seconds)
        tally.flush = None
        await self.flush(key, tally)

    async def flush(self, key: tuple[int, int], tally: _Tally) -> None:
        """Write what was counted of ``key`` in memory."""
        count, at = tally.unwritten, tally.last_at
        if not count or at is None:
            return
        tally.unwritten = 0
        try:
            await self.db.write(lambda conn: _add(conn, key[0], key[1], count, at))
        except Exception:  # a count is a debugging aid: lost, not fatal
            log.exception("could not write a count of refused moves")

    async def flush_all(self) -> None:
        """Write every count kept in memory (at shutdown)."""
        for key, tally in list(self.tallies.items()):
            if tally.flush is not None:
                tally.flush.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await tally.flush
                tally.flush = None
            await self.flush(key, tally)

    def _forget_some(self) -> None:
        """Keep at most ``TALLIES_MAX`` tallies: the least recently used with nothing to write
        leave (a sender forgotten is counted anew from the database's count)."""
        if len(self.tallies) <= TALLIES_MAX:
            return
        for key in [k for k, t in self.tallies.items() if not t.unwritten][: len(self.tallies) - TALLIES_MAX]:
            del self.tallies[key]


def _add(conn: Connection, game_id: int, sender: int, count: int, at: datetime) -> int:
    """Add ``count`` refusals of ``sender`` in ``game_id`` (the last at ``at``); returns the
    sender's count now."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(COUNTS).values(game_id=game_id, sender=sender, count=count, first_at=at, last_at=at)
    stmt = stmt.on_conflict_do_update(
        index_elements=[COUNTS.c.game_id, COUNTS.c.sender],
        set_={"count": COUNTS.c.count + stmt.excluded.count, "last_at": stmt.excluded.last_at},
    ).returning(COUNTS.c.count)
    return int(conn.execute(stmt).scalar_one())
