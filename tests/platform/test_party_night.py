"""The party night (docs/product.md, "Party night"; docs/protocol.md): room codes, the invite's
QR code, the shared screen and "my rooms"."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import httpx
import pytest
import websockets

from geniusnight.engines import get_engine
from geniusnight.server.rooms.codes import CODE_ALPHABET, CODE_LENGTH
from geniusnight.server.rooms.party import qr_svg
from hidden_info import check_view
from inprocess import serve
from wsclient import Player

ORIGIN = {"Origin": "http://t"}


def browser(app: object, address: str = "127.0.0.1") -> httpx.AsyncClient:
    """A browser of its own (its own cookie jar) at ``address``, on the site's pages."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url="http://t", headers=ORIGIN)


async def create(c: httpx.AsyncClient, name: str = "Ada", **options: Any) -> dict[str, Any]:
    r = await c.post("/api/rooms", json={"game": "count21", "options": options, "name": name})
    assert r.status_code == 200, r.text
    room = r.json()
    room["code"] = (await c.get(f"/api/rooms/{room['room_id']}")).json()["code"]
    return room


# --- room codes ---------------------------------------------------------------------------


async def test_a_room_code_is_six_characters_people_cannot_mix_up(app: object) -> None:
    async with browser(app) as host:
        codes = {(await create(host))["code"] for _ in range(8)}
    assert len(codes) == 8  # each room its own
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert not set("0O1IL5S2Z8B") & set(CODE_ALPHABET)


async def test_a_code_is_read_whatever_its_case_spaces_and_dashes(app: object) -> None:
    async with browser(app) as host, browser(app) as friend:
        room = await create(host)
        code = room["code"]
        typed = f" {code[:3].lower()}-{code[3:].lower()} "
        summary = await friend.get(f"/api/codes/{typed}")
        assert summary.status_code == 200 and summary.json()["host"] == "Ada"
        assert "room_id" not in summary.json() and "invite" not in summary.text
        joined = await friend.post(f"/api/codes/{code.lower()}/join", json={"name": "Grace"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["room_id"] == room["room_id"] and joined.json()["seat"] == 1
        # the seat cookie is set as by an invite: the room is theirs now
        me = (await friend.get(f"/api/rooms/{room['room_id']}")).json()
        assert me["you"]["name"] == "Grace" and me["code"] == code


async def test_only_members_see_the_code(app: object) -> None:
    async with browser(app) as host, browser(app) as stranger:
        room = await create(host)
        seen = (await stranger.get(f"/api/rooms/{room['room_id']}")).json()
        assert "code" not in seen and "invite_path" not in seen


async def test_a_code_admits_nobody_while_the_host_has_switched_it_off(app: object) -> None:
    async with browser(app) as host, browser(app) as friend, browser(app) as late:
        room = await create(host)
        await friend.post(f"/api/codes/{room['code']}/join", json={"name": "Grace"})
        off = await friend.post(f"/api/rooms/{room['room_id']}/code", json={"open": False})
        assert off.status_code == 403 and off.json()["code"] == "not_host"
        off = await host.post(f"/api/rooms/{room['room_id']}/code", json={"open": False})
        assert off.json() == {"code": room["code"], "code_open": False}
        refused = await late.post(f"/api/codes/{room['code']}/join", json={"name": "Late"})
        assert refused.status_code == 403 and refused.json()["code"] == "code_closed"
        assert (await late.get(f"/code/{room['code']}")).status_code == 403
        # the invite link still works as ever
        invite = room["invite_url"].rsplit("/", 1)[1]
        assert (await late.post(f"/api/join/{invite}", json={"name": "Late"})).status_code == 200
        await host.post(f"/api/rooms/{room['room_id']}/code", json={"open": True})
        async with browser(app) as later:
            again = await later.post(f"/api/codes/{room['code']}/join", json={"name": "Later"})
            assert again.status_code == 200


async def test_once_the_game_runs_the_code_still_lets_friends_in_to_watch(app: object) -> None:
    async with browser(app) as host, browser(app) as friend, browser(app) as late:
        room = await create(host)
        await friend.post(f"/api/codes/{room['code']}/join", json={"name": "Grace"})
        assert (await host.post(f"/api/rooms/{room['room_id']}/start")).status_code == 200
        joined = await late.post(f"/api/codes/{room['code']}/join", json={"name": "Late"})
        assert joined.status_code == 200 and joined.json()["seat"] is None


async def test_wrong_codes_are_limited_per_address(app: object) -> None:
    async with browser(app) as host:
        room = await create(host)
    async with browser(app, "10.0.0.7") as guesser, browser(app, "10.0.0.8") as neighbour:
        for guess in ["AAAAAA", "ACDEFG", "nonsense", "777777", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF", "GGGGGG"]:
            if guess != room["code"]:
                r = await guesser.get(f"/api/codes/{guess}")
                assert r.status_code == 404 and r.json()["code"] == "no_such_code"
        # the right code does not count; the tenth wrong one does, and then every code is refused
        assert (await guesser.get(f"/api/codes/{room['code']}")).status_code == 200
        assert (await guesser.get("/api/codes/HHHHHH")).status_code == 404
        for path in ("/api/codes/JJJJJJ", f"/api/codes/{room['code']}"):
            r = await guesser.get(path)
            assert r.status_code == 429 and r.json()["code"] == "too_many_code_tries"
        r = await guesser.post(f"/api/codes/{room['code']}/join", json={"name": "Eve"})
        assert r.status_code == 429
        assert (await guesser.get(f"/code/{room['code']}")).status_code == 429
        # another address is not held up
        assert (await neighbour.get(f"/api/codes/{room['code']}")).status_code == 200


async def test_the_code_page_is_the_join_screen_and_brings_members_back(app: object) -> None:
    async with browser(app) as host, browser(app) as friend:
        room = await create(host)
        page = await friend.get(f"/code/{room['code'].lower()}")
        assert page.status_code == 200 and 'data-testid="join-screen"' in page.text
        assert f'data-code="{room["code"]}"' in page.text and room["room_id"] not in page.text
        back = await host.get(f"/code/{room['code']}")
        assert back.status_code == 303 and back.headers["location"] == f"/r/{room['room_id']}"
        missing = await friend.get("/code/QQQQQQ")
        assert missing.status_code == 404 and 'data-testid="no-room"' in missing.text


# --- the invite's QR code -------------------------------------------------------------------


async def test_the_qr_code_encodes_the_invite_and_is_only_for_members(app: object) -> None:
    async with browser(app) as host, browser(app) as stranger:
        room = await create(host)
        r = await host.get(f"/api/rooms/{room['room_id']}/qr.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.headers["cache-control"] == "private, no-store"
        assert r.content == qr_svg(room["invite_url"]) and b"<svg" in r.content
        refused = await stranger.get(f"/api/rooms/{room['room_id']}/qr.svg")
        assert refused.status_code == 401 and refused.json()["code"] == "not_member"


async def test_only_the_host_gets_the_screen_link_and_its_key_opens_the_qr_code(app: object) -> None:
    async with browser(app) as host, browser(app) as friend, browser(app) as tv:
        room = await create(host)
        await friend.post(f"/api/codes/{room['code']}/join", json={"name": "Grace"})
        refused = await friend.get(f"/api/rooms/{room['room_id']}/screen")
        assert refused.status_code == 403 and refused.json()["code"] == "not_host"
        path = (await host.get(f"/api/rooms/{room['room_id']}/screen")).json()["screen_path"]
        page, key = path.split("#")
        assert page == f"/r/{room['room_id']}/screen" and len(key) == 32
        assert (await tv.get(page)).status_code == 200
        qr = await tv.get(f"/api/rooms/{room['room_id']}/qr.svg", headers={"Authorization": f"Bearer {key}"})
        assert qr.status_code == 200 and qr.content == qr_svg(room["invite_url"])
        # a key is for its own room only
        other = await create(host)
        wrong = await tv.get(f"/api/rooms/{other['room_id']}/qr.svg", headers={"Authorization": f"Bearer {key}"})
        assert wrong.status_code == 401


# --- the shared screen's socket ----------------------------------------------------------------


async def test_a_screen_socket_with_a_wrong_key_is_refused(db_url: str) -> None:
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        room = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        async with websockets.connect(f"{srv.ws_base}/ws/{room['room_id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "screen": "0" * 32}))
            frame = json.loads(await ws.recv())
            assert frame["type"] == "error" and frame["code"] == "bad_screen_key"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4401


async def test_a_new_invite_link_retires_the_screen_key_and_closes_its_screens(db_url: str) -> None:
    """The key follows the invite (docs/protocol.md, "The shared screen"): a new invite link
    closes the screens opened with the old key before they see the new code, the old key opens
    neither a socket nor the QR code, and the host's new link works."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        room_id = host["room_id"]
        old_path = (await c.get(f"/api/rooms/{room_id}/screen", headers=auth)).json()["screen_path"]
        old_key = old_path.split("#")[1]
        assert (await c.get(f"/api/rooms/{room_id}/screen", headers=auth)).json()["screen_path"] == old_path
        screen = await screen_player(srv.ws_base, room_id, old_key)
        fresh = (await c.post(f"/api/rooms/{room_id}/invite", headers=auth)).json()
        retired = await screen.expect("error")
        assert retired["code"] == "bad_screen_key" and retired["ref"] is None
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await screen.recv()
        assert screen.ws.close_code == 4401  # as a wrong key at the hello
        assert not [f for f in screen.frames if fresh["code"] in json.dumps(f)], "a retired screen saw the new code"
        # the old key opens nothing more
        async with websockets.connect(f"{srv.ws_base}/ws/{room_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "screen": old_key}))
            assert json.loads(await ws.recv())["code"] == "bad_screen_key"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4401
        qr = await c.get(f"/api/rooms/{room_id}/qr.svg", headers={"Authorization": f"Bearer {old_key}"})
        assert qr.status_code == 401
        # the host's page gets a new link, whose key shows the new code and the new QR code
        new_path = (await c.get(f"/api/rooms/{room_id}/screen", headers=auth)).json()["screen_path"]
        new_key = new_path.split("#")[1]
        assert new_path.split("#")[0] == old_path.split("#")[0] and new_key != old_key and len(new_key) == 32
        again = await screen_player(srv.ws_base, room_id, new_key)
        assert again.welcome["room"]["code"] == fresh["code"]
        qr = await c.get(f"/api/rooms/{room_id}/qr.svg", headers={"Authorization": f"Bearer {new_key}"})
        assert qr.status_code == 200 and qr.content == qr_svg(f"{srv.base}{fresh['invite_path']}")
        await again.close()


async def test_a_rooms_screens_hold_as_many_sockets_as_one_member(db_url: str) -> None:
    async with serve(db_url, ws_per_member=2) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        key = (await c.get(f"/api/rooms/{host['room_id']}/screen", headers=auth)).json()["screen_path"].split("#")[1]
        screens = [await screen_player(srv.ws_base, host["room_id"], key) for _ in range(2)]
        async with websockets.connect(f"{srv.ws_base}/ws/{host['room_id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "screen": key}))
            assert json.loads(await ws.recv())["code"] == "too_many_tabs"
        # the host's own sockets are counted apart from the screens
        ada = await Player(srv.ws_base, host["room_id"], host["token"]).connect()
        assert ada.welcome["you"]["host"]
        for player in [*screens, ada]:
            await player.close()


async def test_a_screen_whose_key_a_new_invite_retires_as_it_connects_never_sees_the_new_code(
    db_url: str,
) -> None:
    """The race the hub's room frames cannot close alone: the screen's key is checked against
    the room's invite, a new invite link is made before the screen's socket is one of the
    room's, and the welcome would then carry the new code. The screen is closed as retired
    instead, with nothing of the new invite sent to it."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        room_id = host["room_id"]
        key = (await c.get(f"/api/rooms/{room_id}/screen", headers=auth)).json()["screen_path"].split("#")[1]
        party = srv.state.party
        admit = party.admit_screen
        fresh: dict[str, Any] = {}

        async def admit_then_new_invite(room: str, screen_key: str | None) -> str:
            held = await admit(room, screen_key)  # the key holds for the invite of now...
            fresh.update((await c.post(f"/api/rooms/{room_id}/invite", headers=auth)).json())  # ...no more
            return held

        party.admit_screen = admit_then_new_invite
        async with websockets.connect(f"{srv.ws_base}/ws/{room_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "screen": key, "patches": True}))
            got = []
            with pytest.raises(websockets.ConnectionClosed):
                async with asyncio.timeout(5):
                    while True:
                        got.append(json.loads(await ws.recv()))
            assert ws.close_code == 4401
        assert fresh["code"] and [f["type"] for f in got] == ["error"] and got[0]["code"] == "bad_screen_key"
        assert not [f for f in got if fresh["code"] in json.dumps(f) or fresh["invite_path"] in json.dumps(f)]


async def screen_player(ws_base: str, room_id: str, key: str) -> Player:
    """The shared screen's socket, as static/js/screen.js opens it."""
    screen = Player(ws_base, room_id, None, patches=True)
    screen.ws = await websockets.connect(screen.url, max_size=1 << 22)
    await screen.send({"type": "hello", "token": None, "screen": key, "patches": True})
    screen.welcome = await screen.expect("welcome")
    return screen


@pytest.mark.parametrize("game", ["brainiac", "genius-idea"])
async def test_the_screen_gets_exactly_the_spectator_view_through_a_whole_game(db_url: str, game: str) -> None:
    """Every view the screen's socket gets (each patch as the view it makes) is the public
    view of the log at its seq, and the game's oracle finds nothing secret in it."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": game, "name": "Ada"})).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        room_id = host["room_id"]
        for _ in range(2):
            assert (await c.post(f"/api/rooms/{room_id}/bots", json={"bot": "random"}, headers=auth)).status_code == 200
        key = (await c.get(f"/api/rooms/{room_id}/screen", headers=auth)).json()["screen_path"].split("#")[1]
        screen = await screen_player(srv.ws_base, room_id, key)
        assert screen.welcome["seat"] is None and screen.welcome["you"]["member_id"] is None
        assert screen.welcome["room"]["code"]
        game_id = (await c.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
        assert (await c.post(f"/api/rooms/{room_id}/away", headers=auth)).status_code == 200  # bots play it all
        views: list[tuple[int, dict[str, Any]]] = []
        while not views or not views[-1][1].get("over"):
            frame = await screen.recv(30)
            assert frame["type"] not in ("you", "kicked", "error"), frame
            if frame["type"] in ("state", "patch"):
                assert screen.state["seat"] is None  # a patch keeps the seat of the state it applies to
                views.append((screen.state["seq"], screen.state["view"]))
        await screen.close()
        export = (
            await c.get(f"/api/admin/games/{game_id}/export", headers={"Authorization": "Bearer " + "a" * 32})
        ).json()
    engine = get_engine(game)
    g = export["game"]
    states = [engine.setup(g["players"], g["options"], g["seed"])]
    for entry in export["log"]:
        states.append(engine.apply(states[-1], entry["seat"], entry["action"]))
    rng = random.Random(7)
    assert len(views) > 5
    for seq, view in views:
        assert view == json.loads(json.dumps(engine.view(states[seq], None)))
        check_view(game, states[seq], None, view, rng)


async def test_a_screen_is_nobody_in_the_room(db_url: str) -> None:
    """No seat, no name, no one online, no chat of its own, no moves."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        auth = {"Authorization": f"Bearer {host['token']}"}
        room_id = host["room_id"]
        await c.post(f"/api/rooms/{room_id}/bots", json={}, headers=auth)
        key = (await c.get(f"/api/rooms/{room_id}/screen", headers=auth)).json()["screen_path"].split("#")[1]
        screen = await screen_player(srv.ws_base, room_id, key)
        await c.post(f"/api/rooms/{room_id}/start", headers=auth)
        await screen.expect("state")
        assert (await screen.act({"type": "add", "n": 1}))["code"] == "spectator"
        await screen.send({"type": "chat", "ref": "c1", "text": "hi"})
        assert (await screen.expect("error"))["code"] == "not_member"
        room = (await c.get(f"/api/rooms/{room_id}", headers=auth)).json()
        assert room["spectators"] == 0 and not room["seats"][0]["online"]
        await screen.close()


# --- my rooms ---------------------------------------------------------------------------------


async def test_my_rooms_lists_the_rooms_of_this_browser_with_whose_turn_it_is(app: object) -> None:
    async with browser(app) as ada, browser(app) as grace:
        lobby = await create(ada, "Ada")
        game = await create(ada, "Ada")
        await grace.post(f"/api/codes/{game['code']}/join", json={"name": "Grace"})
        await ada.post(f"/api/rooms/{game['room_id']}/start")
        mine = (await ada.get("/api/my-rooms")).json()["rooms"]
        assert [r["room_id"] for r in mine] == [game["room_id"], lobby["room_id"]]  # your turn first
        playing = mine[0]
        assert playing["status"] == "playing" and playing["players"] == ["Ada", "Grace"]
        assert playing["turn"] == ["Ada"] and playing["your_turn"] and playing["seat"] == 0 and playing["host"]
        assert mine[1]["status"] == "lobby" and mine[1]["turn"] == [] and not mine[1]["your_turn"]
        theirs = (await grace.get("/api/my-rooms")).json()["rooms"]
        assert [(r["room_id"], r["seat"], r["your_turn"], r["host"]) for r in theirs] == [
            (game["room_id"], 1, False, False)
        ]
        async with browser(app) as stranger:
            assert (await stranger.get("/api/my-rooms")).json() == {"rooms": []}


async def test_leaving_from_my_rooms_forgets_the_room_and_its_cookie(app: object) -> None:
    async with browser(app) as ada, browser(app) as grace:
        room = await create(ada, "Ada")
        await grace.post(f"/api/codes/{room['code']}/join", json={"name": "Grace"})
        cookie = f"gn_seat_{room['room_id']}"
        token = grace.cookies[cookie]
        left = await grace.post(f"/api/rooms/{room['room_id']}/leave")
        assert left.status_code == 200 and cookie not in grace.cookies
        assert (await grace.get("/api/my-rooms")).json() == {"rooms": []}
        # a cookie that admits no one any more (kept by a browser that missed the answer) is dropped
        grace.cookies.set(cookie, token)
        r = await grace.get("/api/my-rooms")
        assert r.json() == {"rooms": []} and re.search(rf"{cookie}=\"?\"?;.*Max-Age=0", r.headers["set-cookie"])


async def test_my_rooms_never_shows_a_room_for_a_cookie_of_another_room(app: object) -> None:
    """A token is looked up with its room: a seat cookie renamed to another room's id is no way in."""
    async with browser(app) as ada, browser(app) as eve:
        room = await create(ada, "Ada")
        theirs = await create(eve, "Eve")
        eve.cookies.set(f"gn_seat_{room['room_id']}", eve.cookies[f"gn_seat_{theirs['room_id']}"])
        rooms = (await eve.get("/api/my-rooms")).json()["rooms"]
        assert [r["room_id"] for r in rooms] == [theirs["room_id"]]


async def test_the_screen_page_is_a_shell_that_holds_nothing(db_url: str) -> None:
    """The screen's page shell opens for anyone (the key is in the fragment): it holds nothing."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        c.cookies.clear()
        page = await c.get(f"/r/{host['room_id']}/screen")
        assert page.status_code == 200 and host["invite_url"].rsplit("/", 1)[1] not in page.text
        assert (await c.get("/r/nosuchroom/screen")).status_code == 404
