"""The websocket protocol against a real ``geniusnight serve`` subprocess."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from support import ServerProcess
from wsclient import Player, host_post, join, make_room

ADMIN = {"Authorization": "Bearer " + "t" * 32}  # support.ServerProcess's admin token


async def two_player_game(server: ServerProcess) -> tuple[str, Player, Player]:
    room_id, token, invite = await make_room(server.base)
    guest = await join(server.base, invite, "Guest")
    assert (await host_post(server.base, room_id, token, "/start")).status_code == 200
    host = await Player(server.ws_base, room_id, token).connect()
    other = await Player(server.ws_base, room_id, guest["token"]).connect()
    return room_id, host, other


async def test_hello_gets_welcome_then_own_state(server: ServerProcess) -> None:
    _, host, guest = await two_player_game(server)
    assert host.welcome["seat"] == 0 and guest.welcome["seat"] == 1
    assert host.state["seq"] == 0 and host.state["view"]["phase"] == "play"
    await host.close()
    await guest.close()


async def test_move_is_acked_and_every_connection_gets_its_own_view(server: ServerProcess) -> None:
    _, host, guest = await two_player_game(server)
    ack = await host.act({"type": "add", "n": 2})
    assert ack["type"] == "ack" and ack["seq"] == 1
    frame = await guest.wait_state(lambda v: v["counter"] == 2)
    assert frame["seq"] == 1
    # each seat sees only its own secret
    assert host.state["view"]["secret"] != guest.state["view"].get("secrets")
    assert "secrets" not in guest.state["view"]
    await host.close()
    await guest.close()


async def test_no_frame_leaks_another_seats_secret(server: ServerProcess) -> None:
    _, host, guest = await two_player_game(server)
    await host.act({"type": "add", "n": 1})
    await guest.wait_state(lambda v: v["counter"] == 1)
    for player, _seat in ((host, 0), (guest, 1)):
        for frame in player.frames:
            text = json.dumps(frame)
            assert '"secrets"' not in text
            assert "seed" not in text and "rng" not in text
    await host.close()
    await guest.close()


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("{not json", "malformed_json"),
        ('["a list"]', "malformed"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "act", "ref": "x", "action": "add"}', "malformed"),
        ('{"type": "act", "ref": "x", "action": {"type": "add", "n": 7}}', "bad_amount"),
        ('{"type": "act", "ref": "x", "action": {"type": "fly"}}', "unknown_action"),
        ('{"type": "act", "ref": "x", "action": {"type": "timeout"}}', "system_only"),
        ('{"type": "act", "ref": 5, "action": {"type": "add", "n": 1}}', "bad_ref"),
        (json.dumps({"type": "chat", "text": "x" * 301}), "chat_too_long"),
        (
            json.dumps({"type": "act", "ref": "big", "action": {"type": "add", "pad": "x" * 17000}}),
            "frame_too_large",
        ),
    ],
)
async def test_bad_frames_get_a_clear_error_and_change_nothing(server: ServerProcess, payload: str, code: str) -> None:
    _, host, guest = await two_player_game(server)
    await host.send(payload)
    frame = await host.expect("error")
    assert frame["code"] == code and frame["message"]
    # still open, and the game did not move
    ack = await host.act({"type": "add", "n": 1})
    assert ack["type"] == "ack" and ack["seq"] == 1
    await host.close()
    await guest.close()


async def test_out_of_turn_and_spectator_moves_are_refused(server: ServerProcess) -> None:
    _room_id, host, guest = await two_player_game(server)
    err = await guest.act({"type": "add", "n": 1})
    assert err["type"] == "error" and err["code"] == "not_your_turn"
    assert host.state["seq"] == 0
    await host.close()
    await guest.close()


async def test_spectators_watch_the_public_view_and_cannot_act(server: ServerProcess) -> None:
    room_id, token, invite = await make_room(server.base)
    await join(server.base, invite, "Guest")
    await host_post(server.base, room_id, token, "/start")
    watcher = await join(server.base, invite, "Watcher")
    assert watcher["seat"] is None
    spectator = await Player(server.ws_base, room_id, watcher["token"]).connect()
    assert spectator.welcome["seat"] is None and "secret" not in spectator.state["view"]
    err = await spectator.act({"type": "add", "n": 1})
    assert err["code"] == "spectator"
    await spectator.close()


async def test_unknown_token_is_refused(server: ServerProcess) -> None:
    room_id, _, _ = await make_room(server.base)
    p = Player(server.ws_base, room_id, "not-a-token")
    p.ws = await websockets.connect(p.url)
    await p.send({"type": "hello", "token": "not-a-token", "seq": None})
    frame = await p.recv()
    assert frame["type"] == "error" and frame["code"] == "not_member"
    with pytest.raises(websockets.ConnectionClosed):
        await p.recv()


async def refused_at_hello(server: ServerProcess, room_id: str, token: str) -> tuple[str, int | None]:
    """The error code a socket of ``room_id`` gets for a hello with ``token``, and its close code."""
    async with websockets.connect(f"{server.ws_base}/ws/{room_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "seq": None}))
        frame = json.loads(await ws.recv())
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert frame["type"] == "error", frame
        return frame["code"], ws.close_code


async def test_a_socket_is_admitted_only_for_a_member_of_that_open_room(server: ServerProcess) -> None:
    room_id, token, invite = await make_room(server.base)
    other_room, other_token, _ = await make_room(server.base)
    guest = await join(server.base, invite, "Guest")
    leaver = await join(server.base, invite, "Leaver")
    assert await refused_at_hello(server, room_id, other_token) == ("not_member", 4401)  # another room's
    assert await refused_at_hello(server, "no-such-room", token) == ("no_room", 4404)
    host_auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.base) as c:
        kicked = await c.delete(f"/api/rooms/{room_id}/seats/{leaver['seat']}", headers=host_auth)
        assert kicked.status_code == 200, kicked.text
    assert await refused_at_hello(server, room_id, leaver["token"]) == ("not_member", 4401)
    # a member is welcomed as who they are: in a running game, with their seat in it
    assert (await host_post(server.base, room_id, token, "/start")).status_code == 200
    seated = await Player(server.ws_base, room_id, guest["token"]).connect()
    you = seated.welcome["you"]
    assert (you["name"], you["seat"], you["host"], you["away"], you["muted"]) == ("Guest", 1, False, False, False)
    assert seated.state["seat"] == 1
    await seated.close()
    async with httpx.AsyncClient(base_url=server.base) as c:  # and as the room read tells them
        read = await c.get(f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {guest['token']}"})
        assert read.status_code == 200 and read.json()["you"] == you
        stranger = await c.get(f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {leaver['token']}"})
        assert stranger.json()["you"] is None  # a kicked member's token reads as nobody's
    # a closed room admits nobody
    async with httpx.AsyncClient(base_url=server.base) as c:
        closed = await c.post(f"/api/admin/rooms/{other_room}/close", headers=ADMIN)
        assert closed.status_code == 200, closed.text
    assert await refused_at_hello(server, other_room, other_token) == ("no_room", 4404)


async def test_same_ref_is_never_applied_twice(server: ServerProcess) -> None:
    _, host, guest = await two_player_game(server)
    first = await host.act({"type": "add", "n": 1}, ref="once")
    await guest.act({"type": "add", "n": 1})
    again = await host.act({"type": "add", "n": 1}, ref="once")
    assert first["seq"] == 1 and again["type"] == "ack" and again["seq"] == 1 and again["duplicate"]
    await host.wait_state(lambda v: v["counter"] == 2)
    assert host.state["seq"] == 2
    await host.close()
    await guest.close()


async def test_reconnect_with_last_seq_gets_the_current_state(server: ServerProcess) -> None:
    room_id, host, guest = await two_player_game(server)
    await host.act({"type": "add", "n": 1})
    await guest.wait_state(lambda v: v["counter"] == 1)
    await guest.close()
    again = await Player(server.ws_base, room_id, guest.token).connect(seq=1)
    assert again.state["seq"] == 1 and again.state["view"]["to_act"] == [1]
    await again.act({"type": "add", "n": 2})
    await host.wait_state(lambda v: v["counter"] == 3)
    await host.close()
    await again.close()


async def test_flood_is_rate_limited_per_connection(server: ServerProcess) -> None:
    _, host, guest = await two_player_game(server)
    for _ in range(80):
        await host.send({"type": "ping"})
    codes = []
    for _ in range(80):
        frame = await host.recv()
        codes.append(frame.get("code") if frame["type"] == "error" else frame["type"])
    assert "rate_limited" in codes and "pong" in codes
    await host.close()
    await guest.close()


async def test_chat_reaches_everyone_as_text(server: ServerProcess) -> None:
    _, host, guest = await two_player_game(server)
    await host.send({"type": "chat", "text": "<script>alert(1)</script>"})
    frame = await guest.expect("chat")
    assert frame["text"] == "<script>alert(1)</script>" and frame["name"] == "Host"
    await host.close()
    await guest.close()


async def test_bots_take_their_turns_on_the_server(server: ServerProcess) -> None:
    room_id, token, _ = await make_room(server.base)
    for _ in range(2):
        assert (await host_post(server.base, room_id, token, "/bots", {"bot": "random"})).status_code == 200
    await host_post(server.base, room_id, token, "/start")
    host = await Player(server.ws_base, room_id, token).connect()
    while not host.state["view"]["over"]:
        await host.wait_state(lambda v: v["over"] or v["to_act"] == [0])
        if host.state["view"]["to_act"] == [0]:
            await host.act({"type": "add", "n": 3})
    assert host.state["view"]["result"]["winners"]
    await host.close()


async def test_lobby_changes_arrive_as_room_frames(server: ServerProcess) -> None:
    room_id, token, invite = await make_room(server.base)
    host = await Player(server.ws_base, room_id, token).connect()
    await join(server.base, invite, "Newcomer")
    frame = await host.expect("room")
    while len(frame["room"]["seats"]) < 2:
        frame = await host.expect("room")
    assert frame["room"]["seats"][1]["name"] == "Newcomer"
    await host.close()


async def test_acknowledged_moves_survive_kill_9(db_url: str) -> None:
    """Play, kill -9 the server mid-game, restart: every acked move is there, play goes on."""
    srv = ServerProcess(db_url).start()
    try:
        room_id, token, invite = await make_room(srv.base, options={"target": 99})
        guest = await join(srv.base, invite, "Guest")
        await host_post(srv.base, room_id, token, "/start")
        a = await Player(srv.ws_base, room_id, token).connect()
        b = await Player(srv.ws_base, room_id, guest["token"]).connect()
        acked = 0
        for i in range(20):
            player = a if i % 2 == 0 else b
            ack = await player.act({"type": "add", "n": 1 + i % 3})
            assert ack["type"] == "ack"
            acked = ack["seq"]
        # one more move sent without waiting: it may or may not be acked before the kill
        await a.send({"type": "act", "ref": "in-flight", "action": {"type": "add", "n": 1}})
        srv.kill()
        srv = ServerProcess(db_url, port=srv.port).start()
        a2 = await Player(srv.ws_base, room_id, token).connect()
        assert a2.state["seq"] >= acked
        expected = sum(1 + i % 3 for i in range(20))
        assert a2.state["view"]["counter"] in (expected, expected + 1)
        b2 = await Player(srv.ws_base, room_id, guest["token"]).connect()
        seq_after_restart = a2.state["seq"]
        mover = a2 if a2.state["view"]["to_act"] == [0] else b2
        ack = await mover.act({"type": "add", "n": 1})
        assert ack["type"] == "ack" and ack["seq"] == seq_after_restart + 1
        for p in (a, b, a2, b2):
            await p.close()
    finally:
        srv.stop()


async def test_many_clients_see_every_seq_in_order(server: ServerProcess) -> None:
    room_id, token, invite = await make_room(server.base, options={"target": 60})
    guest = await join(server.base, invite, "Guest")
    await host_post(server.base, room_id, token, "/start")
    a = await Player(server.ws_base, room_id, token).connect()
    b = await Player(server.ws_base, room_id, guest["token"]).connect()
    watchers = [
        await Player(server.ws_base, room_id, (await join(server.base, invite, f"W{i}"))["token"]).connect()
        for i in range(3)
    ]
    for i in range(10):
        await (a if i % 2 == 0 else b).act({"type": "add", "n": 1})
    for w in watchers:
        await w.wait_state(lambda v: v["counter"] == 10)
        seqs = [f["seq"] for f in w.frames if f["type"] == "state"]
        assert seqs == sorted(seqs) and seqs[-1] == 10
        await w.close()
    await asyncio.gather(a.close(), b.close())
