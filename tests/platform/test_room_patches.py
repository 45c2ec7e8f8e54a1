"""Room patches (docs/protocol.md, "Patch frames"): a client that takes patches gets one
whole ``room`` and then only what changed, as ``room_patch`` frames; applied in order they
give exactly the room a client without patches is sent whole, through a lobby, a game and a
rematch. A socket whose room the server does not know it holds (a fresh hello) gets the next
room whole."""

from __future__ import annotations

from typing import Any

import pytest

from support import ServerProcess
from wsclient import Player, host_post, join, make_room, room_frames


async def rooms_within(player: Player, seconds: float) -> list[dict[str, Any]]:
    """The rooms ``player`` is sent within ``seconds``."""
    return [frame["room"] for frame in await room_frames(player, seconds)]


def kinds(player: Player) -> list[str]:
    return [f["type"] for f in player.frames if f["type"] in ("room", "room_patch")]


@pytest.mark.parametrize("form", [True, "compact"])
async def test_applied_room_patches_give_the_room_a_plain_client_is_sent(server: ServerProcess, form: Any) -> None:
    room_id, token, invite = await make_room(server.base, options={"target": 9})
    patched = await Player(server.ws_base, room_id, token, patches=form).connect()
    guest = await join(server.base, invite, "Guest")
    plain = await Player(server.ws_base, room_id, guest["token"]).connect()

    async def settle() -> None:
        # both clients hear every change; compare the last room each holds
        await rooms_within(patched, 0.6)
        await rooms_within(plain, 0.1)
        assert patched.room == plain.room

    await settle()  # Guest came online
    assert (await host_post(server.base, room_id, token, "/bots", {})).status_code == 200
    await settle()
    assert (await host_post(server.base, room_id, token, "/start")).status_code == 200
    await settle()
    assert patched.room is not None and patched.room["status"] == "playing"
    for _ in range(2):  # a game to its end, then a rematch
        while not patched.state["view"]["over"]:
            seq, to_act = patched.state["seq"], patched.state["view"]["to_act"]
            if to_act in ([0], [1]):
                assert (await (patched if to_act == [0] else plain).act({"type": "add", "n": 1}))["type"] == "ack"
            await patched.wait_state(lambda v, seq=seq: patched.state["seq"] > seq)
        await settle()
        assert patched.room is not None and patched.room["status"] == "finished"
        assert (await host_post(server.base, room_id, token, "/rematch")).status_code == 200
        await patched.expect("state")
        await settle()
    # one whole room, then only patches; the plain client never gets a patch
    assert kinds(patched)[0] == "room" and set(kinds(patched)[1:]) == {"room_patch"}
    assert len(kinds(patched)) > 4
    assert set(kinds(plain)) == {"room"}
    # the form asked for: RFC 6902 objects, or arrays [sign, path, value]
    ops = [op for f in patched.frames if f["type"] == "room_patch" for op in f["ops"]]
    assert all(isinstance(op, dict if form is True else list) for op in ops)
    await patched.close()
    await plain.close()


async def test_a_room_patch_holds_only_what_changed(server: ServerProcess) -> None:
    room_id, token, invite = await make_room(server.base)
    patched = await Player(server.ws_base, room_id, token, patches=True).connect()
    await join(server.base, invite, "Ada")
    await rooms_within(patched, 0.6)  # the first room frame after the welcome is whole
    await join(server.base, invite, "Bo")
    await rooms_within(patched, 0.6)
    patch = patched.frames[-1]
    assert patch["type"] == "room_patch"
    paths = {op["path"] for op in patch["ops"]}
    assert paths and all(p.startswith("/seats") for p in paths), paths  # a seat added, nothing else
    await patched.close()


async def test_a_resync_hello_gets_the_next_room_whole(server: ServerProcess) -> None:
    room_id, token, invite = await make_room(server.base)
    patched = await Player(server.ws_base, room_id, token, patches=True).connect()
    await join(server.base, invite, "Ada")
    await rooms_within(patched, 0.6)
    await join(server.base, invite, "Bo")
    await rooms_within(patched, 0.6)
    assert patched.frames[-1]["type"] == "room_patch"
    await patched.send({"type": "hello"})  # the client lost track: the room comes whole
    await patched.expect("room")
    await join(server.base, invite, "Cy")
    rooms = await rooms_within(patched, 0.6)
    assert patched.frames[-1]["type"] == "room"  # this socket's room was the hello's, not the hub's
    assert [s["name"] for s in rooms[-1]["seats"]] == ["Host", "Ada", "Bo", "Cy"]
    await patched.close()
