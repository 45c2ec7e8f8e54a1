"""The host's moderation tools (docs/product.md, "The host's tools"; docs/protocol.md): removing
a spectator, locking the room, a new invite link, muting a member's chat. Only the host may
use them; ids of nobody here, or of another room's members, get a 4xx with a stable code;
each leaves a line in the room's audit log."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from inprocess import serve
from wsclient import Player, host_post, join, make_room

TOY = {"game": "count21", "options": {}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Room:
    """A room made through the API: the host's token, the invite, and a way to join it."""

    def __init__(self, app: Any, made: dict[str, Any]) -> None:
        self.transport = httpx.ASGITransport(app=app)
        self.id = made["room_id"]
        self.host = made["token"]
        self.host_id = made["member_id"]
        self.invite = made["invite_url"].rsplit("/", 1)[1]

    def client(self) -> httpx.AsyncClient:
        """A fresh browser: no cookies."""
        return httpx.AsyncClient(transport=self.transport, base_url="http://t")

    async def join(self, name: str, invite: str | None = None) -> httpx.Response:
        async with self.client() as c:
            return await c.post(f"/api/join/{invite or self.invite}", json={"name": name})

    async def call(self, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
        async with self.client() as c:
            r = await c.request(method, f"/api/rooms/{self.id}{path}", json=body, headers=bearer(token))
        assert r.status_code < 500, r.text
        return r


async def new_room(app: Any, name: str = "Host") -> Room:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.post("/api/rooms", json={**TOY, "name": name})
    assert r.status_code == 200, r.text
    return Room(app, r.json())


async def with_spectator(app: Any) -> tuple[Room, dict[str, Any], dict[str, Any]]:
    """A room with a seated guest and a spectator (the toy game seats at most 4)."""
    room = await new_room(app)
    guest = (await room.join("Guest")).json()
    for name in ("P2", "P3"):
        await room.join(name)
    spectator = (await room.join("Watcher")).json()
    assert spectator["seat"] is None
    return room, guest, spectator


async def audit(app: Any, room_id: str) -> list[tuple[str, str | None, str | None]]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.get(f"/api/admin/rooms/{room_id}", headers=bearer("a" * 32))
    return [(e["kind"], e["actor"], e["target"]) for e in r.json()["events"]]


# --- the host's member list -------------------------------------------------------------------


async def test_the_host_sees_every_member_by_name_spectators_included(app: Any) -> None:
    room, _, spectator = await with_spectator(app)
    r = await room.call("GET", "/members", room.host)
    people = {p["name"]: p for p in r.json()}
    assert people["Watcher"]["seat"] is None and people["Watcher"]["member_id"] == spectator["member_id"]
    assert people["Guest"]["seat"] == 1 and people["Host"]["host"] is True
    assert not any(p["muted"] for p in people.values())


async def test_only_the_host_reads_the_member_list(app: Any) -> None:
    room, guest, _ = await with_spectator(app)
    assert (await room.call("GET", "/members", guest["token"])).json()["code"] == "not_host"
    async with room.client() as c:
        assert (await c.get(f"/api/rooms/{room.id}/members")).json()["code"] == "not_member"


# --- removing a spectator ---------------------------------------------------------------------


async def test_the_host_removes_a_spectator_whose_token_then_admits_nobody(app: Any) -> None:
    room, _, spectator = await with_spectator(app)
    r = await room.call("DELETE", f"/members/{spectator['member_id']}", room.host)
    assert r.status_code == 200 and r.json() == {"removed": spectator["member_id"]}
    assert (await room.call("GET", "/chat", spectator["token"])).status_code == 401
    state = (await room.call("GET", "", room.host)).json()
    assert state["spectators"] == 0
    # joining again with the old token is a newcomer's join, not a way back in
    async with room.client() as c:
        again = await c.post(f"/api/join/{room.invite}", json={"name": "Watcher"}, headers=bearer(spectator["token"]))
    assert again.json()["member_id"] != spectator["member_id"]
    assert ("removed", "Host", "Watcher") in await audit(app, room.id)


async def test_removing_a_member_is_the_hosts_alone(app: Any) -> None:
    room, guest, spectator = await with_spectator(app)
    r = await room.call("DELETE", f"/members/{spectator['member_id']}", guest["token"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = await room.call("DELETE", f"/members/{spectator['member_id']}", spectator["token"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    assert (await room.call("GET", "/members", room.host)).status_code == 200
    assert any(p["name"] == "Watcher" for p in (await room.call("GET", "/members", room.host)).json())


async def test_removing_nobody_here_is_404_and_the_host_is_409(app: Any) -> None:
    room, _, spectator = await with_spectator(app)
    other = await new_room(app, "Other host")
    stranger = (await other.join("Stranger")).json()
    for member_id in (stranger["member_id"], other.host_id, 999_999):
        r = await room.call("DELETE", f"/members/{member_id}", room.host)
        assert r.status_code == 404 and r.json()["code"] == "no_member", member_id
    assert (await other.call("GET", "/chat", stranger["token"])).status_code == 200  # untouched
    r = await room.call("DELETE", f"/members/{room.host_id}", room.host)
    assert r.status_code == 409 and r.json()["code"] == "is_host"
    await room.call("DELETE", f"/members/{spectator['member_id']}", room.host)
    r = await room.call("DELETE", f"/members/{spectator['member_id']}", room.host)
    assert r.status_code == 404 and r.json()["code"] == "no_member"  # gone already


@pytest.mark.parametrize("member_id", ["0", "-1", "x", str(1 << 31), str(1 << 70), "1.5"])
async def test_a_member_id_that_cannot_be_one_is_422(app: Any, member_id: str) -> None:
    room = await new_room(app)
    for method, path in (("DELETE", f"/members/{member_id}"), ("POST", f"/members/{member_id}/mute")):
        r = await room.call(method, path, room.host, {"muted": True})
        assert r.status_code == 422, (method, r.text)


# --- locking the room ---------------------------------------------------------------------------


async def test_a_locked_room_refuses_newcomers_by_invite_and_by_code(app: Any) -> None:
    room = await new_room(app)
    guest = (await room.join("Guest")).json()
    r = await room.call("POST", "/lock", room.host, {"locked": True})
    assert r.status_code == 200 and r.json() == {"locked": True}
    r = await room.join("Newcomer")
    assert r.status_code == 403 and r.json()["code"] == "room_locked"
    code = (await room.call("GET", "", room.host)).json()["code"]
    async with room.client() as c:
        assert (await c.get(f"/api/codes/{code}")).json()["locked"] is True  # the join screen says so
        r = await c.post(f"/api/codes/{code}/join", json={"name": "Newcomer"})
        assert r.status_code == 403 and r.json()["code"] == "room_locked"
    # a member comes back with their token
    async with room.client() as c:
        back = await c.post(f"/api/join/{room.invite}", json={"name": "Guest"}, headers=bearer(guest["token"]))
    assert back.status_code == 200 and back.json()["member_id"] == guest["member_id"]
    assert (await room.call("GET", "", guest["token"])).json()["locked"] is True
    assert (await room.call("POST", "/lock", room.host, {"locked": False})).json() == {"locked": False}
    assert (await room.join("Newcomer")).status_code == 200
    assert [k for k, *_ in await audit(app, room.id)] == ["locked", "unlocked"]


async def test_the_join_page_of_a_locked_room_says_it_is_locked_and_nothing_else(app: Any) -> None:
    """A locked lobby with free seats: its join screens (the invite's and the code's) say it
    is locked and to ask the host, not that the table is full, and offer nothing to fill in."""
    room = await new_room(app)
    await room.call("POST", "/lock", room.host, {"locked": True})
    code = (await room.call("GET", "", room.host)).json()["code"]
    async with room.client() as c:
        for path in (f"/join/{room.invite}", f"/code/{code}"):
            page = await c.get(path)
            shown = page.text.split("<body>", 1)[1]  # the head carries the whole message catalog
            assert page.status_code == 200 and 'data-testid="join-locked"' in shown, path
            assert "nobody new can join right now. Ask the host to unlock it." in shown, path
            for gone in ("join-info", "join-name", "join-room", "table is full", "join and watch", "join.js"):
                assert gone not in shown, (path, gone)


async def test_only_the_host_locks_the_room(app: Any) -> None:
    room = await new_room(app)
    guest = (await room.join("Guest")).json()
    r = await room.call("POST", "/lock", guest["token"], {"locked": True})
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    assert (await room.join("Newcomer")).status_code == 200
    r = await room.call("POST", "/lock", room.host, {"locked": "yes please"})
    assert r.status_code == 422


# --- a new invite link -------------------------------------------------------------------------


async def test_a_new_invite_link_retires_the_old_one_and_the_code(app: Any) -> None:
    room = await new_room(app)
    before = (await room.call("GET", "", room.host)).json()
    r = await room.call("POST", "/invite", room.host)
    assert r.status_code == 200
    fresh = r.json()
    assert fresh["invite_path"] != before["invite_path"] and fresh["code"] != before["code"]
    old = await room.join("Newcomer")
    assert old.status_code == 404 and old.json()["code"] == "bad_invite"
    async with room.client() as c:
        assert (await c.get(f"/join/{room.invite}")).status_code == 404
        assert (await c.get(f"/api/codes/{before['code']}")).json()["code"] == "no_such_code"
    new_invite = fresh["invite_path"].rsplit("/", 1)[1]
    assert fresh["invite_url"].endswith(fresh["invite_path"])
    assert (await room.join("Newcomer", new_invite)).status_code == 200
    now = (await room.call("GET", "", room.host)).json()
    assert now["invite_path"] == fresh["invite_path"] and now["code"] == fresh["code"]
    assert ("new_invite", "Host", None) in await audit(app, room.id)


async def test_the_qr_code_follows_the_new_invite(app: Any) -> None:
    room = await new_room(app)
    old_qr = (await room.call("GET", "/qr.svg", room.host)).content
    await room.call("POST", "/invite", room.host)
    new_qr = (await room.call("GET", "/qr.svg", room.host)).content
    assert new_qr != old_qr
    from geniusnight.server.rooms.party import qr_svg

    path = (await room.call("GET", "", room.host)).json()["invite_path"]
    assert new_qr == qr_svg(f"http://t{path}")


async def test_only_the_host_makes_a_new_invite(app: Any) -> None:
    room = await new_room(app)
    guest = (await room.join("Guest")).json()
    r = await room.call("POST", "/invite", guest["token"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    assert (await room.join("Another")).status_code == 200  # the invite still works


# --- muting a member's chat ---------------------------------------------------------------------


async def test_a_muted_members_chat_is_refused_and_unmuting_lets_them_speak(app: Any) -> None:
    room, guest, spectator = await with_spectator(app)
    for who in (guest, spectator):
        r = await room.call("POST", f"/members/{who['member_id']}/mute", room.host, {"muted": True})
        assert r.status_code == 200 and r.json() == {"member_id": who["member_id"], "muted": True}
        r = await room.call("POST", "/chat", who["token"], {"text": "hello?"})
        assert r.status_code == 403 and r.json()["code"] == "chat_muted"
    assert (await room.call("GET", "", guest["token"])).json()["you"]["muted"] is True
    assert (await room.call("GET", "/chat", room.host)).json() == []  # nobody saw the attempts
    await room.call("POST", f"/members/{guest['member_id']}/mute", room.host, {"muted": False})
    assert (await room.call("POST", "/chat", guest["token"], {"text": "back"})).status_code == 200
    kinds = [(k, t) for k, _, t in await audit(app, room.id)]
    assert kinds == [("muted", "Guest"), ("muted", "Watcher"), ("unmuted", "Guest")]


async def test_muting_is_the_hosts_alone_and_only_of_this_rooms_people(app: Any) -> None:
    room, guest, spectator = await with_spectator(app)
    r = await room.call("POST", f"/members/{spectator['member_id']}/mute", guest["token"], {"muted": True})
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    other = await new_room(app, "Other host")
    stranger = (await other.join("Stranger")).json()
    r = await room.call("POST", f"/members/{stranger['member_id']}/mute", room.host, {"muted": True})
    assert r.status_code == 404 and r.json()["code"] == "no_member"
    assert (await other.call("POST", "/chat", stranger["token"], {"text": "free"})).status_code == 200
    r = await room.call("POST", f"/members/{room.host_id}/mute", room.host, {"muted": True})
    assert r.status_code == 409 and r.json()["code"] == "is_host"
    r = await room.call("POST", f"/members/{guest['member_id']}/mute", room.host, {})
    assert r.status_code == 422
    assert (await room.call("POST", "/chat", spectator["token"], {"text": "still free"})).status_code == 200


async def test_bots_cannot_be_muted(app: Any) -> None:
    room = await new_room(app)
    await room.call("POST", "/bots", room.host, {})
    bot = next(p for p in (await room.call("GET", "/members", room.host)).json() if p["bot"])
    r = await room.call("POST", f"/members/{bot['member_id']}/mute", room.host, {"muted": True})
    assert r.status_code == 409 and r.json()["code"] == "is_bot"


# --- over the websocket -------------------------------------------------------------------------


async def test_a_removed_spectators_sockets_get_the_kicked_frame(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        room_id, host, invite = await make_room(srv.base)
        joined = [await join(srv.base, invite, name) for name in ("A", "B", "C", "Watcher")]
        watcher = joined[-1]
        assert watcher["seat"] is None
        sock = await Player(srv.ws_base, room_id, watcher["token"]).connect()
        async with httpx.AsyncClient(base_url=srv.base) as c:
            r = await c.delete(f"/api/rooms/{room_id}/members/{watcher['member_id']}", headers=bearer(host))
        assert r.status_code == 200
        assert (await sock.expect("kicked"))["message"] == "The host removed you from the room."
        await sock.close()
        again = Player(srv.ws_base, room_id, watcher["token"])
        with pytest.raises(ConnectionClosed):  # the token admits nobody: an error, then the socket closes
            await again.connect()
        assert any(f.get("code") == "not_member" for f in again.frames)
        await again.close()


async def test_a_muted_members_socket_learns_it_and_its_chat_gets_an_error_frame(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        room_id, host, invite = await make_room(srv.base)
        guest = await join(srv.base, invite, "Guest")
        g = await Player(srv.ws_base, room_id, guest["token"]).connect()
        h = await Player(srv.ws_base, room_id, host).connect()
        assert g.welcome["you"]["muted"] is False
        muted = await host_post(srv.base, room_id, host, f"/members/{guest['member_id']}/mute", {"muted": True})
        assert muted.status_code == 200
        assert (await g.expect("you"))["you"]["muted"] is True
        await g.send({"type": "chat", "ref": "c1", "text": "can you hear me"})
        refused = await g.expect("error", ref="c1")
        assert refused["code"] == "chat_muted"
        await h.send({"type": "chat", "ref": "h1", "text": "host here"})
        said = await h.expect("chat")
        assert said["text"] == "host here"  # the first chat the host sees is its own
        await asyncio.sleep(0.1)
        assert not any(f["type"] == "chat" and f["text"] == "can you hear me" for f in h.frames)
        for p in (g, h):
            await p.close()
