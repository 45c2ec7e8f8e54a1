"""Delivery and durability under load: a connection's writer, slow sockets, and the SQLite
move writer waiting for a lock another connection holds (docs/benchmarks.md, "Load")."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any, cast

import pytest
from sqlalchemy import text

from geniusnight.db import Database
from geniusnight.server.play import realtime
from geniusnight.server.play.realtime import Connection


class Socket:
    """Records frames; ``gate`` (when set) holds every send until it opens, like a client
    whose TCP window is full; ``pause`` makes every send wait one turn of the loop first."""

    def __init__(self, gate: asyncio.Event | None = None, pause: bool = False) -> None:
        self.sent: list[str] = []
        self.closed = False
        self.gate = gate
        self.pause = pause

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        if self.pause:
            await asyncio.sleep(0)
        self.sent.append(text)

    async def close(self) -> None:
        self.closed = True


def connection(sock: Socket) -> Connection:
    return Connection(ws=cast(Any, sock), room_id="r", member_id=1, seat=0, name="Ada")


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_frame_a_socket_takes_goes_out_at_once_without_a_task() -> None:
    # no loop runs here: a send that had to wait, or a task, could not finish
    sock = Socket()
    conn = connection(sock)
    for i in range(3):
        conn.send_text(f"f{i}")
    assert sock.sent == ["f0", "f1", "f2"] and conn._writer is None and not conn.backlog


async def test_frames_go_out_in_order_and_a_quiet_connection_lets_its_writer_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(realtime, "WRITER_LINGER", 0.05)
    sock = Socket(pause=True)
    conn = connection(sock)
    for i in range(5):
        conn.send_text(f"f{i}")
    assert conn._writer is not None and len(conn.backlog) == 4  # the first send waits: the rest queue
    await settle()
    assert sock.sent == ["f0", "f1", "f2", "f3", "f4"]
    assert conn._writer is not None  # a busy connection keeps its writer for the next frames
    conn.send_text("f5")
    await settle()
    assert sock.sent[-1] == "f5"
    await asyncio.sleep(0.15)
    assert conn._writer is None and not sock.closed  # quiet: no task, the socket stays open
    conn.send_text("f6")
    await settle()
    assert sock.sent[-1] == "f6"
    conn.finish()
    await settle()
    assert sock.closed and conn.closed


async def test_frames_keep_their_order_when_a_send_waits_and_the_socket_then_takes_them_at_once() -> None:
    gate = asyncio.Event()
    sock = Socket(gate)
    conn = connection(sock)
    conn.send_text("a")  # waits on the gate
    conn.send_text("b")
    gate.set()
    conn.send_text("c")  # queued behind the waiting send, though the socket would take it now
    await settle()
    conn.send_text("d")  # all out: at once
    assert sock.sent == ["a", "b", "c", "d"]


async def test_a_busy_connection_sets_one_quiet_timer_not_one_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    # a timer a frame lived on in the loop's heap, cancelled, for WRITER_LINGER seconds: on a
    # busy server, tens of thousands of them
    monkeypatch.setattr(realtime, "WRITER_LINGER", 0.2)
    loop = asyncio.get_running_loop()
    timers: list[float] = []
    call_later = loop.call_later

    def counting(delay: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        timers.append(delay)
        return call_later(delay, callback, *args)

    monkeypatch.setattr(loop, "call_later", counting)
    sock = Socket(pause=True)  # every send waits: the writer does them
    conn = connection(sock)
    for i in range(50):  # a frame, then the writer waits for the next one
        conn.send_text(f"f{i}")
        await settle()
    assert len(sock.sent) == 50 and len(timers) == 1
    monkeypatch.setattr(loop, "call_later", call_later)
    await asyncio.sleep(0.35)  # quiet for longer than WRITER_LINGER: the writer has gone
    assert conn._writer is None and not sock.closed


async def test_a_socket_gone_before_a_frame_is_closed_and_takes_no_more() -> None:
    class Gone(Socket):
        async def send_text(self, text: str) -> None:
            raise RuntimeError("gone")

    sock = Gone()
    conn = connection(sock)
    conn.send_text("x")
    conn.send_text("y")
    await settle()
    assert conn.closed and sock.closed and not conn.backlog


async def test_a_slow_socket_holds_up_nobody_and_is_dropped_when_far_behind() -> None:
    gate = asyncio.Event()
    slow, fast = Socket(gate), Socket()
    a, b = connection(slow), connection(fast)
    for i in range(realtime.MAX_BACKLOG + 10):
        a.send_text(f"s{i}")
        b.send_text(f"s{i}")
        if i % 100 == 0:
            await settle()
    await settle()
    assert len(fast.sent) == realtime.MAX_BACKLOG + 10
    assert a.closed  # too far behind: it resyncs when it reconnects
    gate.set()
    await settle()
    assert slow.closed


async def test_stop_ends_a_writer_stuck_on_a_dead_socket() -> None:
    conn = connection(Socket(asyncio.Event()))  # the gate never opens
    conn.send_text("x")
    conn.send_text("y")
    await settle()
    await asyncio.wait_for(conn.stop(), 1)
    assert conn._writer is None and conn.closed and conn._sending is None


async def test_stop_before_the_writer_began_drops_the_waiting_send() -> None:
    conn = connection(Socket(asyncio.Event()))
    conn.send_text("x")  # waits on the gate; the writer task has not run yet
    await asyncio.wait_for(conn.stop(), 1)
    assert conn._writer is None and conn.closed and conn._sending is None


async def test_move_write_waits_for_another_connections_lock_without_blocking_the_loop(db_url: str) -> None:
    db = Database(db_url)
    path = db_url.split(":///", 1)[1]
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # holds SQLite's one write lock
        write = asyncio.create_task(db.write(lambda c: c.execute(text("CREATE TABLE t (x INTEGER)"))))
        ticks = 0
        for _ in range(10):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 10 and not write.done()  # the loop ran on while the write waited
        other.execute("COMMIT")
        await asyncio.wait_for(write, 5)
        assert other.execute("SELECT count(*) FROM t").fetchone() == (0,)
    finally:
        other.close()
        await db.dispose()


async def test_sqlite_runs_on_the_loop_thread_and_a_session_never_yields_to_the_loop(db_url: str) -> None:
    import threading

    from geniusnight.db import Game, Room

    db = Database(db_url)
    yielded = 0

    async def count() -> None:
        nonlocal yielded
        while True:
            yielded += 1
            await asyncio.sleep(0)

    async with db.sessions() as s:  # aiosqlite opens the pool's connection in its thread
        await s.execute(text("SELECT 1"))
    counter = asyncio.create_task(count())
    await asyncio.sleep(0)
    try:
        threads = threading.active_count()
        before = yielded
        async with db.sessions() as s:
            assert await s.get(Game, 1) is None
            await s.execute(text("SELECT 1"))
            s.add(Room(id="r", invite="i", game="count21"))
            await s.commit()
        # not one trip through the loop (or a worker thread): a busy loop cannot delay it
        assert yielded == before and threading.active_count() == threads
    finally:
        counter.cancel()
        await db.dispose()


async def test_a_batch_with_a_taken_seq_commits_the_other_moves_and_fails_only_that_one(db_url: str) -> None:
    from datetime import UTC, datetime

    from sqlalchemy import insert, select
    from sqlalchemy.exc import IntegrityError

    from geniusnight.db import Game, Move, Room
    from geniusnight.server.play.games import GroupCommit, PendingWrite

    db = Database(db_url)
    now = datetime.now(UTC)

    def setup(conn: Any) -> None:
        conn.execute(insert(Room), [{"id": f"r{i}", "invite": f"i{i}", "game": "count21"} for i in (1, 2)])
        conn.execute(
            insert(Game), [{"id": i, "room_id": f"r{i}", "engine": "count21", "seed": 1, "players": 2} for i in (1, 2)]
        )
        # another process already wrote game 1's seq 1
        conn.execute(insert(Move), [{"game_id": 1, "seq": 1, "seat": 0, "action": {"type": "add", "n": 1}}])

    def pending(game_id: int, n: int) -> PendingWrite:
        move = {
            "game_id": game_id,
            "seq": 1,
            "seat": 0,
            "action": {"type": "add", "n": n},
            "ref": None,
            "created_at": now,
        }
        return PendingWrite(move=move, game_id=game_id, game_values={"last_seq": 1}, room_id=None, now=now)

    writer = GroupCommit(db)
    try:
        await db.write(setup)
        results = await asyncio.gather(writer.write(pending(1, 3)), writer.write(pending(2, 2)), return_exceptions=True)
        assert isinstance(results[0], IntegrityError) and results[1] is None
        async with db.sessions() as s:
            rows = (await s.execute(select(Move.game_id, Move.action).order_by(Move.game_id))).all()
        assert [(g, a["n"]) for g, a in rows] == [(1, 1), (2, 2)]  # the loser changed nothing
    finally:
        await writer.stop()
        await db.dispose()
