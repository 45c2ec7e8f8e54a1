"""Graceful shutdown of a real ``geniusnight serve`` process (docs/deploy.md, "Restarts").

On SIGTERM the server stops accepting connections, sends every socket a ``reconnect`` frame,
still commits and acknowledges the moves that reach it before the client closes, and exits.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import httpx
import pytest

from support import ServerProcess
from wsclient import Player, host_post, join, make_room

# uvicorn re-raises the signal once it has shut down: the exit status says "ended by SIGTERM"
EXITED = (0, -signal.SIGTERM)


@pytest.fixture
def own_server(tmp_path: Path) -> ServerProcess:
    from geniusnight.cli import db_upgrade

    url = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    db_upgrade(url)
    return ServerProcess(url)


async def test_sigterm_asks_every_socket_to_reconnect_and_loses_no_move(own_server: ServerProcess) -> None:
    srv = own_server.start()
    try:
        room_id, token, invite = await make_room(srv.base, options={"target": 30})
        guest_token = (await join(srv.base, invite, "Guest"))["token"]
        assert (await host_post(srv.base, room_id, token, "/start")).status_code == 200
        host = await Player(srv.ws_base, room_id, token).connect()
        guest = await Player(srv.ws_base, room_id, guest_token).connect()
        first = await host.act({"type": "add", "n": 1})
        assert first["type"] == "ack" and first["seq"] == 1
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGTERM)
        for p in (host, guest):
            frame = await p.expect("reconnect")
            assert frame["message"]
        # the listener is closed: new connections go to another process
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{srv.base}/healthz", timeout=1)
        # a move sent after the reconnect frame, before the client closed, still commits
        late = await guest.act({"type": "add", "n": 2})
        assert late["type"] == "ack" and late["seq"] == 2, late
        await host.close()
        await guest.close()
        assert await asyncio.to_thread(srv.proc.wait, 20) in EXITED
        assert "drained" in srv.log_path.read_text()
    finally:
        srv.stop()
    again = ServerProcess(srv.db_url, port=srv.port).start()
    try:
        back = await Player(again.ws_base, room_id, token).connect(seq=2)
        assert back.state["seq"] == 2 and back.state["view"]["counter"] == 3
        await back.close()
    finally:
        again.stop()


async def test_sigterm_with_clients_that_never_close_still_exits(own_server: ServerProcess) -> None:
    srv = own_server.start()
    try:
        room_id, token, _ = await make_room(srv.base)
        stubborn = await Player(srv.ws_base, room_id, token).connect()
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGTERM)
        await stubborn.expect("reconnect")
        # the client ignores it; after the grace the server closes the socket and exits
        assert await asyncio.to_thread(srv.proc.wait, 20) in EXITED
        with pytest.raises(Exception):  # noqa: B017 - the socket is gone, however it ended
            await stubborn.recv(timeout=2)
    finally:
        srv.stop()
