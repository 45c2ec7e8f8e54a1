"""The admin's view of a room's members and its audit log (docs/admin.md, "A room" and
"Audit"): who left on their own and who the host removed, each member's seat as it is (the
current game's once one started), and the host's moderation steps, kept and purged with the
room."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from admin_helpers import ADMIN, bearer
from sqlalchemy import func, select, update

from geniusnight.server.admin.service import purge_old_rooms
from geniusnight.storage.models import Member, Room, RoomEvent, RoomStatus


async def room_of(app: Any, names: list[str]) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """A count21 room made by "Host", with ``names`` joined (each from a browser of its own)."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Host"})).json()
    invite = host["invite_url"].rsplit("/", 1)[1]
    joined = []
    for name in names:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            joined.append((await c.post(f"/api/join/{invite}", json={"name": name})).json())
    return host["room_id"], host, joined


async def call(app: Any, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.request(method, path, json=body, headers=bearer(token))
    assert r.status_code == 200, r.text
    return r


async def detail(client: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    r = await client.get(f"/api/admin/rooms/{room_id}", headers=bearer(ADMIN))
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_admin_tells_a_member_who_left_from_one_the_host_removed(app: Any, client: httpx.AsyncClient) -> None:
    rid, host, (ann, _, cy) = await room_of(app, ["Ann", "Bea", "Cy"])
    await call(app, "POST", f"/api/rooms/{rid}/leave", ann["token"])
    await call(app, "DELETE", f"/api/rooms/{rid}/seats/1", host["token"])  # Bea, after Ann's seat closed up
    # a member who went before the column was kept: neither is known
    async with app.state.db.sessions() as s:
        await s.execute(update(Member).where(Member.id == cy["member_id"]).values(kicked=True, gone=None))
        await s.commit()
    gone = {m["name"]: m["gone"] for m in (await detail(client, rid))["members"]}
    assert gone == {"Host": None, "Ann": "left", "Bea": "removed", "Cy": "gone"}
    events = [(e["kind"], e["actor"], e["target"]) for e in (await detail(client, rid))["events"]]
    assert events == [("left", None, "Ann"), ("removed", "Host", "Bea")]


async def test_admin_member_seats_agree_with_the_game_seats_after_someone_left(
    app: Any, client: httpx.AsyncClient
) -> None:
    rid, host, (ann, bea) = await room_of(app, ["Ann", "Bea"])
    await call(app, "POST", f"/api/rooms/{rid}/start", host["token"])
    await call(app, "POST", f"/api/rooms/{rid}/leave", ann["token"])  # a bot plays seat 1 to the end
    d = await detail(client, rid)
    holders = {s["member_id"]: s["seat"] for s in d["seats"] if s["bot"] is None}
    assert d["seats"][1]["bot"] and d["seats"][1]["name"] == "Ann (bot)"
    members = {m["id"]: m for m in d["members"]}
    assert holders == {host["member_id"]: 0, bea["member_id"]: 2}
    for member_id, seat in holders.items():
        assert (members[member_id]["seat"], members[member_id]["seat_in"]) == (seat, "game")
    assert members[ann["member_id"]]["seat"] is None and members[ann["member_id"]]["gone"] == "left"
    # in the lobby the lobby seat is the truth, and it says so
    rid2, _, _ = await room_of(app, ["Cat"])
    members2 = {m["name"]: (m["seat"], m["seat_in"]) for m in (await detail(client, rid2))["members"]}
    assert members2 == {"Host": (0, "lobby"), "Cat": (1, "lobby")}


async def test_admin_sees_the_hosts_moderation_in_the_audit_log(app: Any, client: httpx.AsyncClient) -> None:
    rid, host, (ann,) = await room_of(app, ["Ann"])
    token = host["token"]
    await call(app, "POST", f"/api/rooms/{rid}/lock", token, {"locked": True})
    await call(app, "POST", f"/api/rooms/{rid}/lock", token, {"locked": True})  # no change: no line
    await call(app, "POST", f"/api/rooms/{rid}/invite", token)
    await call(app, "POST", f"/api/rooms/{rid}/members/{ann['member_id']}/mute", token, {"muted": True})
    await call(app, "POST", f"/api/rooms/{rid}/members/{ann['member_id']}/mute", token, {"muted": False})
    await call(app, "DELETE", f"/api/rooms/{rid}/members/{ann['member_id']}", token)
    d = await detail(client, rid)
    assert d["locked"] is True
    lines = [(e["kind"], e["actor_id"], e["target_id"]) for e in d["events"]]
    h, a = host["member_id"], ann["member_id"]
    assert lines == [
        ("locked", h, None),
        ("new_invite", h, None),
        ("muted", h, a),
        ("unmuted", h, a),
        ("removed", h, a),
    ]
    assert all(e["at"] for e in d["events"])
    assert "token" not in str(d["events"])


async def test_a_rooms_audit_log_is_purged_with_the_room(app: Any) -> None:
    rid, host, _ = await room_of(app, [])
    await call(app, "POST", f"/api/rooms/{rid}/lock", host["token"], {"locked": True})
    services = app.state
    long_ago = datetime.now(UTC) - timedelta(days=400)
    async with services.db.sessions() as s:
        await s.execute(update(Room).where(Room.id == rid).values(status=RoomStatus.FINISHED, updated_at=long_ago))
        await s.commit()
    async with services.db.sessions() as s:
        assert await purge_old_rooms(s, 30) == 1
    async with services.db.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(RoomEvent).where(RoomEvent.room_id == rid)) == 0


async def test_admin_room_page_has_the_audit_and_gone_columns(app: Any, client: httpx.AsyncClient) -> None:
    rid, _, _ = await room_of(app, [])
    page = await client.get(f"/admin/rooms/{rid}", headers=bearer(ADMIN))
    assert page.status_code == 200
    assert 'data-testid="room-events"' in page.text and "<th>Gone</th>" in page.text
    assert "<th>Kicked</th>" not in page.text
