"""Delivery and durability under load: a connection's writer, slow sockets, and the SQLite
move writer waiting for a lock another connection holds (docs/performance.md, D2)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
import websockets

from geniusnight.server.play import connection
from geniusnight.server.play.connection import Connection
from geniusnight.server.play.outbound import expand
from geniusnight.server.play.patches import apply_patch
from inprocess import serve


class Socket:
    """A server's ASGI send that records text frames; ``gate`` (when set) holds every frame
    until it opens, like a client whose TCP window is full; ``pause`` makes every frame wait
    one turn of the loop first."""

    def __init__(self, gate: asyncio.Event | None = None, pause: bool = False) -> None:
        self.sent: list[str] = []
        self.closed = False
        self.gate = gate
        self.pause = pause

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.close":
            self.closed = True
            return
        if self.gate is not None:
            await self.gate.wait()
        if self.pause:
            await asyncio.sleep(0)
        self.sent.append(message["text"])


def connection_to(sock: Socket) -> Connection:
    return Connection(send=sock.send, room_id="r", member_id=1, seat=0, name="Ada")


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_frame_a_socket_takes_goes_out_at_once_without_a_task() -> None:
    # no loop runs here: a send that had to wait, or a task, could not finish
    sock = Socket()
    conn = connection_to(sock)
    for i in range(3):
        conn.send_text(f"f{i}")
    assert sock.sent == ["f0", "f1", "f2"] and conn._writer is None and not conn.backlog


async def test_frames_go_out_in_order_and_a_quiet_connection_lets_its_writer_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connection, "WRITER_LINGER", 0.05)
    sock = Socket(pause=True)
    conn = connection_to(sock)
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
    conn = connection_to(sock)
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
    monkeypatch.setattr(connection, "WRITER_LINGER", 0.2)
    loop = asyncio.get_running_loop()
    timers: list[float] = []
    call_later = loop.call_later

    def counting(delay: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        timers.append(delay)
        return call_later(delay, callback, *args)

    monkeypatch.setattr(loop, "call_later", counting)
    sock = Socket(pause=True)  # every send waits: the writer does them
    conn = connection_to(sock)
    for i in range(50):  # a frame, then the writer waits for the next one
        conn.send_text(f"f{i}")
        await settle()
    assert len(sock.sent) == 50 and len(timers) == 1
    monkeypatch.setattr(loop, "call_later", call_later)
    await asyncio.sleep(0.35)  # quiet for longer than WRITER_LINGER: the writer has gone
    assert conn._writer is None and not sock.closed


async def test_a_socket_gone_before_a_frame_is_closed_and_takes_no_more() -> None:
    class Gone(Socket):
        async def send(self, message: dict[str, Any]) -> None:
            if message["type"] == "websocket.close":
                self.closed = True
                return
            raise RuntimeError("gone")

    sock = Gone()
    conn = connection_to(sock)
    conn.send_text("x")
    conn.send_text("y")
    await settle()
    assert conn.closed and sock.closed and not conn.backlog


async def test_a_slow_socket_holds_up_nobody_and_is_dropped_when_far_behind() -> None:
    gate = asyncio.Event()
    slow, fast = Socket(gate), Socket()
    a, b = connection_to(slow), connection_to(fast)
    for i in range(connection.MAX_BACKLOG + 10):
        a.send_text(f"s{i}")
        b.send_text(f"s{i}")
        if i % 100 == 0:
            await settle()
    await settle()
    assert len(fast.sent) == connection.MAX_BACKLOG + 10
    assert a.closed  # too far behind: it resyncs when it reconnects
    gate.set()
    await settle()
    assert slow.closed


async def test_stop_ends_a_writer_stuck_on_a_dead_socket() -> None:
    conn = connection_to(Socket(asyncio.Event()))  # the gate never opens
    conn.send_text("x")
    conn.send_text("y")
    await settle()
    await asyncio.wait_for(conn.stop(), 1)
    assert conn._writer is None and conn.closed and conn._sending is None


async def test_stop_before_the_writer_began_drops_the_waiting_send() -> None:
    conn = connection_to(Socket(asyncio.Event()))
    conn.send_text("x")  # waits on the gate; the writer task has not run yet
    await asyncio.wait_for(conn.stop(), 1)
    assert conn._writer is None and conn.closed and conn._sending is None


async def game_frame(ws: Any) -> dict[str, Any]:
    """The next frame but the ``room`` frames (who is online changes as sockets come)."""
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if frame["type"] != "room":
            return frame


@pytest.mark.parametrize("compression", [None, "deflate"])
async def test_frames_reach_the_client_whole_and_in_order(db_url: str, compression: str | None) -> None:
    """The mover gets its patch, then its ack; the others the same patch; a client that
    agreed on compression gets them compressed."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        c.cookies.clear()
        guest = (await c.post(f"/api/join/{host['invite_url'].rsplit('/', 1)[1]}", json={"name": "Bo"})).json()
        c.cookies.clear()
        auth = {"Authorization": f"Bearer {host['token']}"}
        game_id = (await c.post(f"/api/rooms/{host['room_id']}/start", headers=auth)).json()["game_id"]
        url = f"{srv.ws_base}/ws/{host['room_id']}"
        async with websockets.connect(url, compression=compression) as ada, websockets.connect(url) as bo:
            for ws, token in ((ada, host["token"]), (bo, guest["token"])):
                await ws.send(json.dumps({"type": "hello", "token": token, "patches": True}))
                assert [json.loads(await ws.recv())["type"] for _ in range(2)] == ["welcome", "state"]
            assert (ada.protocol.extensions != []) == (compression == "deflate")
            await ada.send(json.dumps({"type": "act", "ref": "m1", "action": {"type": "add", "n": 2}}))
            patch, ack = await game_frame(ada), await game_frame(ada)
            assert (patch["type"], patch["game_id"], patch["seq"], patch["base"]) == ("patch", game_id, 1, 0)
            assert ack == {"type": "ack", "ref": "m1", "seq": 1, "duplicate": False}
            assert (await game_frame(bo))["ops"] == patch["ops"]
            # an illegal move: its error, and nothing else, in order after it
            await ada.send(json.dumps({"type": "act", "ref": "m2", "action": {"type": "add", "n": 1}}))
            assert (await game_frame(ada))["code"] == "not_your_turn"
            await ada.send(json.dumps({"type": "ping", "ref": "p"}))
            assert await game_frame(ada) == {"type": "pong", "ref": "p"}


@pytest.mark.parametrize("patches", [True, "compact"])
async def test_the_welcome_comes_first_when_a_game_starts_while_it_is_read(db_url: str, patches: object) -> None:
    """A socket is one of the room's from its hello on, and its welcome is read after that:
    a game the host starts meanwhile reaches it after the welcome (the protocol's first frame,
    and a page draws a game only once it knows the room), and the client ends on the started
    game's view and a playing room."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        c.cookies.clear()
        guest = (await c.post(f"/api/join/{host['invite_url'].rsplit('/', 1)[1]}", json={"name": "Bo"})).json()
        c.cookies.clear()
        room_id = host["room_id"]
        auth = {"Authorization": f"Bearer {host['token']}"}
        hub, rooms = srv.state.hub, srv.state.rooms
        recent_chat = rooms.recent_chat
        started: dict[str, Any] = {}

        async def start_then_read(room: str) -> list[dict[str, Any]]:
            started.update((await c.post(f"/api/rooms/{room_id}/start", headers=auth)).json())
            async with asyncio.timeout(5):  # until the hub has sent the guest's socket the start
                while not any(conn.last_seq for conn in hub.room_connections(room_id)):
                    await asyncio.sleep(0.01)
            rooms.recent_chat = recent_chat
            return await recent_chat(room)

        rooms.recent_chat = start_then_read
        async with websockets.connect(f"{srv.ws_base}/ws/{room_id}") as bo:
            await bo.send(json.dumps({"type": "hello", "token": guest["token"], "patches": patches}))
            got = [expand(json.loads(await asyncio.wait_for(bo.recv(), 5)))]
            with contextlib.suppress(TimeoutError):  # every frame until the socket is quiet
                while True:
                    got.append(expand(json.loads(await asyncio.wait_for(bo.recv(), 1))))
        assert got[0]["type"] == "welcome", [f["type"] for f in got]
        states = [f for f in got if f["type"] == "state"]
        assert [(f["game_id"], f["seq"], f["seat"]) for f in states] == [(started["game_id"], 0, 1)]
        room: dict[str, Any] = {}
        for f in got:  # the room the client holds, as the page follows it
            room = f["room"] if f["type"] in ("welcome", "room") else room
            room = apply_patch(room, f["ops"]) if f["type"] == "room_patch" else room
        assert room["status"] == "playing" and room["game_id"] == started["game_id"]
