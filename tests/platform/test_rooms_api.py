"""The HTTP API (docs/protocol.md): rooms, invites, seats, tokens and host powers."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text


async def create(client: httpx.AsyncClient, name: str = "Ada", **body: object) -> dict:
    r = await client.post("/api/rooms", json={"game": "count21", "options": {}, "name": name, **body})
    assert r.status_code == 200, r.text
    return r.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def random_bits(token: str) -> int:
    padded = token + "=" * (-len(token) % 4)
    return len(base64.urlsafe_b64decode(padded)) * 8


async def host_plays_to_the_end(services: Any, game_id: int, n: int) -> None:
    """Seat 0 adds ``n`` whenever it is to act (the bot answers at once) until the game is over."""
    for _ in range(100):
        live = await services.games.get(game_id)
        if live.over:
            return
        if 0 in live.engine.to_act(live.state):
            await services.games.submit(game_id, 0, {"type": "add", "n": n})
        await asyncio.sleep(0.01)
    raise AssertionError(f"game {game_id} did not end")


async def test_games_lists_every_registered_engine_with_options(client: httpx.AsyncClient) -> None:
    games = (await client.get("/api/games")).json()
    ids = {g["id"] for g in games}
    assert "count21" in ids
    toy = next(g for g in games if g["id"] == "count21")
    assert toy["min_players"] == 2 and toy["options"][0]["name"] == "target"


async def test_invite_token_has_at_least_96_random_bits(client: httpx.AsyncClient) -> None:
    room = await create(client)
    invite = room["invite_url"].rsplit("/join/", 1)[1]
    assert random_bits(invite) >= 96


async def test_seat_token_has_128_bits_and_is_stored_only_as_a_hash(client: httpx.AsyncClient, db_url: str) -> None:
    room = await create(client)
    assert random_bits(room["token"]) >= 128
    engine = create_engine(db_url.replace("+aiosqlite", ""))
    with engine.connect() as conn:
        stored = [r[0] for r in conn.execute(text("select token_hash from members"))]
    assert stored and room["token"] not in stored
    assert all(room["token"] not in (s or "") for s in stored)


async def test_create_sets_an_httponly_cookie_that_identifies_the_seat(
    client: httpx.AsyncClient,
) -> None:
    r = await client.post("/api/rooms", json={"game": "count21", "name": "Ada"})
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    room = (await client.get(f"/api/rooms/{r.json()['room_id']}")).json()
    assert room["you"]["seat"] == 0 and room["you"]["host"] is True


async def test_joining_seats_players_until_full_then_they_watch(app: object) -> None:
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as host:
        room = await create(host)
        invite = room["invite_url"].rsplit("/", 1)[1]
        seats = []
        for i in range(4):
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as friend:
                seats.append((await friend.post(f"/api/join/{invite}", json={"name": f"P{i}"})).json()["seat"])
        assert seats == [1, 2, 3, None]  # count21 takes at most 4


async def test_the_same_browser_comes_back_to_its_seat(client: httpx.AsyncClient) -> None:
    room = await create(client)
    invite = room["invite_url"].rsplit("/", 1)[1]
    again = (await client.post(f"/api/join/{invite}", json={"name": "Someone"})).json()
    assert again["seat"] == 0 and again["token"] is None and again["member_id"] == room["member_id"]


async def test_joining_a_running_game_makes_a_spectator(client: httpx.AsyncClient, app: object) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    await client.post(f"/api/rooms/{rid}/bots", json={"bot": "random"}, headers=bearer(token))
    assert (await client.post(f"/api/rooms/{rid}/start", headers=bearer(token))).status_code == 200
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as late:
        invite = room["invite_url"].rsplit("/", 1)[1]
        assert (await late.post(f"/api/join/{invite}", json={"name": "Late"})).json()["seat"] is None


async def test_names_over_32_characters_are_refused(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/rooms", json={"game": "count21", "name": "x" * 33})
    assert r.status_code == 422 and r.json()["code"] == "bad_name"
    r = await client.post("/api/rooms", json={"game": "count21", "name": "   "})
    assert r.status_code == 422


@pytest.mark.parametrize(
    "name",
    ["\u200b\u200b\u200b", "\u202eAda", "Ada\u200d", "\u3164", "Ada\ufe0f", "\u2066Ada\u2069", " \u00a0 "],
)
async def test_names_with_invisible_or_direction_changing_characters_are_refused(
    client: httpx.AsyncClient, name: str
) -> None:
    r = await client.post("/api/rooms", json={"game": "count21", "name": name})
    assert r.status_code == 422 and r.json()["code"] == "bad_name"


async def test_a_name_is_stored_in_its_plain_form(client: httpx.AsyncClient) -> None:
    room = await create(client, "\uff28\uff4f\uff53\uff54   of   Night")
    auth = {"Authorization": f"Bearer {room['token']}"}
    snap = (await client.get(f"/api/rooms/{room['room_id']}", headers=auth)).json()
    assert snap["you"]["name"] == "Host of Night"


@pytest.mark.parametrize(
    "name", ["Host", "host", "\uff28\uff4f\uff53\uff54", "H\u043est", "\u0397\u039f\u0405\u03a4", "H o s t"]
)
async def test_nobody_may_join_under_a_name_that_looks_like_a_present_members(
    client: httpx.AsyncClient, name: str
) -> None:
    room = await create(client, "Host")
    invite = room["invite_url"].rsplit("/", 1)[1]
    client.cookies.clear()
    r = await client.post(f"/api/join/{invite}", json={"name": name})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    auth = {"Authorization": f"Bearer {room['token']}"}
    r = await client.post(f"/api/rooms/{room['room_id']}/bots", json={"name": name}, headers=auth)
    assert r.status_code == 409 and r.json()["code"] == "name_taken"


async def test_bots_get_friendly_names_that_look_like_nobody_present(client: httpx.AsyncClient) -> None:
    """A bot is called by a friendly name, never by its kind ("Search bot 1"), and never by a
    name that looks like one already in the room (here a person called "pixel")."""
    room = await create(client, "pixel")
    rid, auth = room["room_id"], bearer(room["token"])
    names = [(await client.post(f"/api/rooms/{rid}/bots", json={}, headers=auth)).json()["name"] for _ in range(2)]
    assert names == ["Gizmo", "Sprocket"]


async def test_names_of_any_script_that_look_like_nobody_present_are_welcome(client: httpx.AsyncClient) -> None:
    room = await create(client, "Host")
    invite = room["invite_url"].rsplit("/", 1)[1]
    for name in ["José", "Zoë", "Анна", "李雷", "Hostess", "Ada"]:
        client.cookies.clear()
        r = await client.post(f"/api/join/{invite}", json={"name": name})
        assert r.status_code == 200, (name, r.text)
    client.cookies.clear()
    # accents do not tell names apart; and a name frees up once its member has left
    assert (await client.post(f"/api/join/{invite}", json={"name": "Zoe"})).status_code == 409
    assert (await client.post(f"/api/join/{invite}", json={"name": "Jose"})).status_code == 409
    auth = {"Authorization": f"Bearer {room['token']}"}
    assert (await client.delete(f"/api/rooms/{room['room_id']}/seats/1", headers=auth)).status_code == 200
    assert (await client.post(f"/api/join/{invite}", json={"name": "Jose"})).status_code == 200


async def test_unknown_game_and_bad_options_are_refused(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/rooms", json={"game": "chess", "name": "A"})
    assert r.status_code == 422 and r.json()["code"] == "unknown_game"
    r = await client.post("/api/rooms", json={"game": "count21", "name": "A", "options": {"target": 1000}})
    assert r.status_code == 422 and r.json()["code"] == "bad_option"


async def test_bad_invite_is_404(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/join/nope", json={"name": "A"})
    assert r.status_code == 404 and r.json()["code"] == "bad_invite"


async def test_only_the_host_may_use_host_powers(client: httpx.AsyncClient, app: object) -> None:
    room = await create(client)
    rid = room["room_id"]
    invite = room["invite_url"].rsplit("/", 1)[1]
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as guest:
        token = (await guest.post(f"/api/join/{invite}", json={"name": "Guest"})).json()["token"]
    for method, path, body in [
        ("PATCH", f"/api/rooms/{rid}", {"options": {"target": 10}}),
        ("POST", f"/api/rooms/{rid}/bots", {}),
        ("DELETE", f"/api/rooms/{rid}/seats/0", None),
        ("POST", f"/api/rooms/{rid}/start", None),
        ("POST", f"/api/rooms/{rid}/host", {"seat": 1}),
    ]:
        r = await client.request(method, path, json=body, headers=bearer(token), cookies={})
        assert r.status_code == 403, (method, path, r.text)
        r = await client.request(method, path, json=body, headers=bearer("forged"), cookies={})
        assert r.status_code in (401, 403)


async def test_host_changes_options_and_time_limits(client: httpx.AsyncClient) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    r = await client.patch(
        f"/api/rooms/{rid}",
        json={"options": {"target": 10}, "time_limits": {"play": 30}},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text
    assert r.json()["options"] == {"target": 10} and r.json()["time_limits"] == {"play": 30}
    r = await client.patch(f"/api/rooms/{rid}", json={"time_limits": {"dance": 30}}, headers=bearer(token))
    assert r.status_code == 422 and r.json()["code"] == "bad_time_limits"


async def test_a_new_room_starts_with_the_games_default_time_limits_unless_the_host_names_some(
    client: httpx.AsyncClient,
) -> None:
    games = {g["id"]: g for g in (await client.get("/api/games")).json()}
    assert games["genius-idea"]["default_time_limits"] == {"results": 12}
    assert games["brainiac"]["default_time_limits"] == {"results": 12}
    room = await create(client, game="brainiac")
    r = await client.get(f"/api/rooms/{room['room_id']}", headers=bearer(room["token"]))
    assert r.json()["time_limits"] == {"results": 12}
    room = await create(client, game="brainiac", time_limits={"results": 0, "answer": 60})
    r = await client.get(f"/api/rooms/{room['room_id']}", headers=bearer(room["token"]))
    assert r.json()["time_limits"] == {"answer": 60}


async def test_player_count_is_checked_against_the_engine(client: httpx.AsyncClient) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    r = await client.post(f"/api/rooms/{rid}/start", headers=bearer(token))
    assert r.status_code == 409 and r.json()["code"] == "player_count"
    for _ in range(3):
        assert (await client.post(f"/api/rooms/{rid}/bots", json={}, headers=bearer(token))).status_code == 200
    r = await client.post(f"/api/rooms/{rid}/bots", json={}, headers=bearer(token))
    assert r.status_code == 409 and r.json()["code"] == "room_full"


async def test_kick_in_the_lobby_frees_the_seat_and_renumbers(client: httpx.AsyncClient) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    for _ in range(3):
        await client.post(f"/api/rooms/{rid}/bots", json={"bot": "random"}, headers=bearer(token))
    assert (await client.delete(f"/api/rooms/{rid}/seats/1", headers=bearer(token))).status_code == 200
    seats = (await client.get(f"/api/rooms/{rid}")).json()["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    r = await client.delete(f"/api/rooms/{rid}/seats/0", headers=bearer(token))
    assert r.json()["code"] == "kick_host"


async def test_kicked_player_in_a_running_game_is_replaced_by_a_bot(client: httpx.AsyncClient, app: object) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    invite = room["invite_url"].rsplit("/", 1)[1]
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as guest:
        guest_token = (await guest.post(f"/api/join/{invite}", json={"name": "Guest"})).json()["token"]
    await client.post(f"/api/rooms/{rid}/start", headers=bearer(token))
    assert (await client.delete(f"/api/rooms/{rid}/seats/1", headers=bearer(token))).status_code == 200
    seats = (await client.get(f"/api/rooms/{rid}")).json()["seats"]
    assert seats[1]["bot"] and "Guest" in seats[1]["name"]
    # the kicked token no longer works
    r = await client.get(f"/api/rooms/{rid}/view", headers=bearer(guest_token), cookies={})
    assert r.status_code == 401


async def test_pass_host_role(client: httpx.AsyncClient, app: object) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    invite = room["invite_url"].rsplit("/", 1)[1]
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as guest:
        guest_token = (await guest.post(f"/api/join/{invite}", json={"name": "Guest"})).json()["token"]
    assert (await client.post(f"/api/rooms/{rid}/host", json={"seat": 1}, headers=bearer(token))).status_code == 200
    assert (await client.post(f"/api/rooms/{rid}/bots", json={}, headers=bearer(token), cookies={})).status_code == 403
    r = await client.post(f"/api/rooms/{rid}/bots", json={}, headers=bearer(guest_token), cookies={})
    assert r.status_code == 200


async def test_rematch_starts_a_new_game_with_the_same_players(client: httpx.AsyncClient, app: object) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    await client.post(f"/api/rooms/{rid}/bots", json={"bot": "smart"}, headers=bearer(token))
    first = (await client.post(f"/api/rooms/{rid}/start", headers=bearer(token))).json()["game_id"]
    r = await client.post(f"/api/rooms/{rid}/rematch", headers=bearer(token))
    assert r.status_code == 409  # not over yet
    services = app.state  # type: ignore[attr-defined]
    await host_plays_to_the_end(services, first, 1)  # the smart bot answers at once (bot delay 0)
    second = (await client.post(f"/api/rooms/{rid}/rematch", headers=bearer(token))).json()["game_id"]
    assert second != first
    snap = (await client.get(f"/api/rooms/{rid}")).json()
    assert snap["status"] == "playing" and [s["name"] for s in snap["seats"]] == [
        "Ada",
        "Pixel",
    ]


async def test_a_room_read_stays_the_same_size_however_many_games_it_played(
    client: httpx.AsyncClient, app: object
) -> None:
    """A room names its current game, not a list of every game: what each connect, start and
    game end reads and sends does not grow with a long evening of rematches."""
    room = await create(client, options={"target": 5})
    rid, token = room["room_id"], room["token"]
    await client.post(f"/api/rooms/{rid}/bots", json={"bot": "smart"}, headers=bearer(token))
    services = app.state  # type: ignore[attr-defined]
    reads = []
    for n in range(8):
        verb = "start" if n == 0 else "rematch"
        game_id = (await client.post(f"/api/rooms/{rid}/{verb}", headers=bearer(token))).json()["game_id"]
        await host_plays_to_the_end(services, game_id, 3)
        snap = (await client.get(f"/api/rooms/{rid}")).json()
        assert snap["status"] == "finished" and snap["game_id"] == game_id
        reads.append({k: v for k, v in snap.items() if k not in ("game_id", "result")})
    assert all(r == reads[0] for r in reads)


async def test_after_a_game_the_host_may_change_options_for_the_rematch(client: httpx.AsyncClient, app: object) -> None:
    room = await create(client)
    rid, token = room["room_id"], room["token"]
    await client.post(f"/api/rooms/{rid}/bots", json={"bot": "smart"}, headers=bearer(token))
    first = (await client.post(f"/api/rooms/{rid}/start", headers=bearer(token))).json()["game_id"]
    r = await client.patch(f"/api/rooms/{rid}", json={"options": {"target": 9}}, headers=bearer(token))
    assert r.status_code == 409  # not while the game runs
    services = app.state  # type: ignore[attr-defined]
    await host_plays_to_the_end(services, first, 1)
    r = await client.patch(f"/api/rooms/{rid}", json={"options": {"target": 9}}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["options"]["target"] == 9
    second = (await client.post(f"/api/rooms/{rid}/rematch", headers=bearer(token))).json()["game_id"]
    assert (await services.games.get(second)).options["target"] == 9


async def test_chat_over_300_characters_is_refused(client: httpx.AsyncClient) -> None:
    room = await create(client)
    rid = room["room_id"]
    r = await client.post(f"/api/rooms/{rid}/chat", json={"text": "x" * 301})
    assert r.status_code == 422 and r.json()["code"] == "chat_too_long"
    r = await client.post(f"/api/rooms/{rid}/chat", json={"text": "<b>hi</b>"})
    assert r.status_code == 200 and r.json()["text"] == "<b>hi</b>"  # stored as text; pages render text


async def test_openapi_documents_the_api(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path in [
        "/api/games",
        "/api/rooms",
        "/api/join/{invite}",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/bots",
        "/api/rooms/{room_id}/seats/{seat}",
        "/api/rooms/{room_id}/start",
        "/api/rooms/{room_id}/rematch",
    ]:
        assert path in paths


async def test_pages_render(client: httpx.AsyncClient) -> None:
    assert "Create room" in (await client.get("/")).text
    room = await create(client)
    assert (await client.get(f"/r/{room['room_id']}")).status_code == 200
    invite = room["invite_url"].rsplit("/", 1)[1]
    client.cookies.clear()  # a newcomer's browser: the creator's goes back to the room
    assert "Join" in (await client.get(f"/join/{invite}")).text


async def test_options_that_fix_the_deal_are_not_shown_to_the_table(client: httpx.AsyncClient) -> None:
    room = await create(client, options={"secrets": [7, 3]})
    snap = (await client.get(f"/api/rooms/{room['room_id']}")).json()
    assert "secrets" not in snap["options"] and snap["custom_options"] == ["secrets"]
    # the host's other option changes keep the custom deal
    r = await client.patch(
        f"/api/rooms/{room['room_id']}", json={"options": {"target": 30}}, headers=bearer(room["token"])
    )
    assert r.status_code == 200 and r.json()["custom_options"] == ["secrets"]


async def test_host_loads_a_free_form_option_from_a_file(client: httpx.AsyncClient) -> None:
    room = await create(client)
    rid, auth = room["room_id"], bearer(room["token"])
    r = await client.post(
        f"/api/rooms/{rid}/options/secrets/file", files={"file": ("deal.json", b"[4, 2]")}, headers=auth
    )
    assert r.status_code == 200, r.text
    assert (await client.get(f"/api/rooms/{rid}")).json()["custom_options"] == ["secrets"]
    r = await client.post(
        f"/api/rooms/{rid}/options/secrets/file", files={"file": ("deal.json", b"[oops")}, headers=auth
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_file"
    r = await client.post(f"/api/rooms/{rid}/options/target/file", files={"file": ("t.json", b"5")}, headers=auth)
    assert r.status_code == 422 and r.json()["code"] == "bad_option"


async def test_a_rooms_status_is_stored_as_its_plain_name_and_read_back_as_a_room_status(
    client: httpx.AsyncClient, db_url: str
) -> None:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from geniusnight.storage.models import Room, RoomStatus

    room = await create(client)
    bot = await client.post(f"/api/rooms/{room['room_id']}/bots", headers=bearer(room["token"]))
    assert bot.status_code == 200, bot.text
    assert (await client.get(f"/api/rooms/{room['room_id']}")).json()["status"] == "lobby"
    start = await client.post(f"/api/rooms/{room['room_id']}/start", headers=bearer(room["token"]))
    assert start.status_code == 200, start.text
    assert (await client.get(f"/api/rooms/{room['room_id']}")).json()["status"] == "playing"
    engine = create_engine(db_url.replace("+aiosqlite", ""))
    with engine.connect() as conn:  # the column holds the plain name, as every migration wrote it
        assert conn.execute(text("select status from rooms")).scalar_one() == "playing"
    with Session(engine) as s:
        status = s.scalars(select(Room.status)).one()
    assert status is RoomStatus.PLAYING
