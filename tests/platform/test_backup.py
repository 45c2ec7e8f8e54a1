"""``geniusnight db backup FILE`` and ``db restore FILE`` for the SQLite deployment
(docs/deploy.md, "Backups"): a consistent copy taken while the server keeps committing moves,
and a restore that a server then serves from."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from geniusnight.cli import main
from support import ServerProcess
from wsclient import Player, host_post, make_room


def _snapshot(path: Path) -> dict[int, tuple[int, list[int]]]:
    """game id -> (games.last_seq, the seqs of its moves) in a database file."""
    conn = sqlite3.connect(path)
    try:
        games = dict(conn.execute("SELECT id, last_seq FROM games").fetchall())
        return {
            gid: (last, [s for (s,) in conn.execute("SELECT seq FROM moves WHERE game_id = ? ORDER BY seq", (gid,))])
            for gid, last in games.items()
        }
    finally:
        conn.close()


async def test_a_backup_taken_while_moves_commit_is_one_consistent_moment(tmp_path: Path, db_url: str) -> None:
    srv = ServerProcess(db_url).start()
    try:
        room_id, token, _ = await make_room(srv.base, options={"target": 99})
        assert (await host_post(srv.base, room_id, token, "/bots", {"bot": "random"})).status_code == 200
        assert (await host_post(srv.base, room_id, token, "/start")).status_code == 200
        host = await Player(srv.ws_base, room_id, token).connect()
        playing = True

        async def play() -> None:
            while playing and not host.state["view"]["over"]:
                if host.state["view"]["to_act"] == [0]:
                    await host.act({"type": "add", "n": 1})
                else:
                    await host.wait_state(lambda v, seq=host.state["seq"]: host.state["seq"] > seq)

        game = asyncio.create_task(play())
        copies = []
        for i in range(3):  # while the game is committing moves
            await asyncio.sleep(0.2)
            copy = tmp_path / f"copy{i}.db"
            assert await asyncio.to_thread(main, ["db", "backup", str(copy), "--database-url", db_url]) == 0
            copies.append(copy)
        playing = False
        await game
        await host.close()
        live_seq = host.state["seq"]
    finally:
        srv.stop()
    seen = []
    for copy in copies:
        assert not copy.with_name(copy.name + ".partial").exists()
        assert sqlite3.connect(copy).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for last_seq, seqs in _snapshot(copy).values():
            assert seqs == list(range(1, last_seq + 1))  # the game row and its moves agree
            seen.append(last_seq)
    assert seen == sorted(seen) and seen[-1] <= live_seq
    assert seen[-1] > 0


async def test_restore_brings_back_the_games_a_server_then_serves(tmp_path: Path, db_url: str) -> None:
    srv = ServerProcess(db_url).start()
    try:
        room_id, token, _ = await make_room(srv.base)
        assert (await host_post(srv.base, room_id, token, "/bots", {"bot": "random"})).status_code == 200
        assert (await host_post(srv.base, room_id, token, "/start")).status_code == 200
        host = await Player(srv.ws_base, room_id, token).connect()
        assert (await host.act({"type": "add", "n": 3}))["type"] == "ack"
        await host.wait_state(lambda v: host.state["seq"] >= 2)
        saved = host.state
        await host.close()
        backup = tmp_path / "night.backup"
        assert await asyncio.to_thread(main, ["db", "backup", str(backup), "--database-url", db_url]) == 0
    finally:
        srv.stop()
    fresh = tmp_path / "restored" / "geniusnight.db"
    fresh_url = f"sqlite+aiosqlite:///{fresh}"
    assert main(["db", "restore", str(backup), "--database-url", fresh_url]) == 0
    again = ServerProcess(fresh_url).start()
    try:
        back = await Player(again.ws_base, room_id, token).connect()
        assert back.state["seq"] >= saved["seq"] and back.state["game_id"] == saved["game_id"]
        assert _snapshot(fresh)[saved["game_id"]][0] == back.state["seq"]
        await back.close()
    finally:
        again.stop()


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.db"
    sqlite3.connect(junk).execute("CREATE TABLE t (x)").connection.commit()
    target = tmp_path / "target.db"
    assert main(["db", "restore", str(junk), "--database-url", f"sqlite+aiosqlite:///{target}"]) == 1
    assert "missing tables" in capsys.readouterr().err
    assert not target.exists()


def test_backup_points_postgresql_to_pg_dump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+asyncpg://u@127.0.0.1:1/db"
    assert main(["db", "backup", str(tmp_path / "x"), "--database-url", url]) == 2
    assert "pg_dump" in capsys.readouterr().err
