"""Hostile input at the edge (docs/protocol.md, "Bad input"): every request and frame that
could not be stored and read back gets a 4xx or an ``error`` frame with a stable code and
changes nothing; the nastiest input that is accepted reads back through every endpoint."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import websockets

from support import TLS, ServerProcess
from wsclient import Player

BIG = "99999999999999999999"  # past 64 bits
ADMIN = {"Authorization": "Bearer " + "t" * 32}  # ServerProcess's admin token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def room_count(c: httpx.AsyncClient) -> int:
    r = await c.get("/api/admin/rooms", headers=ADMIN)
    assert r.status_code == 200
    return int(r.json()["total"])


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"1e999", "bad_number"),
        (b"NaN", "bad_number"),
        (b'{"game": "count21", "name": "Ada", "options": {"target": -Infinity}}', "bad_number"),
        (b'{"game": "count21", "name": "Ada", "options": {"target": 99999999999999999999}}', "bad_number"),
        (b'{"game": "count21", "name": "\\ud800"}', "bad_text"),
        (b'{"game": "count21", "name": "Ada", "options": {"\\udfff": 1}}', "bad_text"),
        (b'{"game": "count21", "name": "A\\u0000da"}', "bad_text"),
        (b'{"game": "count21", "name": "A\\u0085da"}', "bad_text"),
        (b"[" * 40 + b"]" * 40, "too_deep"),
        (b"[" * 100000, "too_deep"),
        (b'{"game": "count21", "name": "\xff\xfe"}', "malformed_json"),
        (b'{"game": "count21",', "malformed_json"),
    ],
)
async def test_unreadable_bodies_get_400_with_a_code_and_store_nothing(
    server: ServerProcess, body: bytes, code: str
) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        before = await room_count(c)
        for content_type in ("application/json", "text/plain", None):
            headers = {"content-type": content_type} if content_type else {}
            r = await c.post("/api/rooms", content=body, headers=headers)
            assert r.status_code == 400, r.text
            assert r.json()["code"] == code
        assert await room_count(c) == before


async def test_a_body_over_the_limit_gets_413(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        before = await room_count(c)
        huge = json.dumps({"game": "count21", "name": "Ada", "options": {"pad": "x" * (3 << 20)}})
        r = await c.post("/api/rooms", content=huge, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "body_too_large"

        async def chunks() -> Any:  # no Content-Length: counted as it arrives
            for _ in range(40):
                yield b" " * (100 << 10)

        r = await c.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "body_too_large"
        assert await room_count(c) == before


async def test_validation_errors_have_a_code_and_never_echo_the_input(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        r = await c.post("/api/rooms", json={"game": "count21", "name": ["x" * 5000]})
        assert r.status_code == 422
        assert r.json()["code"] == "invalid_request" and "x" * 100 not in r.text


async def game_room(c: httpx.AsyncClient) -> dict[str, Any]:
    host = (await c.post("/api/rooms", json={"game": "count21", "name": "Host"})).json()
    await c.post(f"/api/rooms/{host['room_id']}/bots", headers=bearer(host["token"]))
    started = (await c.post(f"/api/rooms/{host['room_id']}/start", headers=bearer(host["token"]))).json()
    return {**host, "game_id": started["game_id"]}


@pytest.mark.parametrize(
    ("method", "path", "admin"),
    [
        ("GET", "/api/admin/games/{big}/log", True),
        ("GET", "/api/admin/games/{big}/export", True),
        ("GET", "/api/admin/games/{big}/state", True),
        ("GET", "/api/admin/games/-{big}/state", True),
        ("GET", "/api/admin/games/{game}/state?seq={big}", True),
        ("GET", "/api/admin/rooms?offset={big}", True),
        ("GET", "/api/rooms/{room}/games/{big}/log", False),
        ("GET", "/api/rooms/{room}/games/{big}/state", False),
        ("GET", "/api/rooms/{room}/games/{game}/state?seq={big}", False),
        ("DELETE", "/api/rooms/{room}/seats/{big}", False),
    ],
)
async def test_ids_past_64_bits_get_422(server: ServerProcess, method: str, path: str, admin: bool) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        room = await game_room(c)
        url = path.format(big=BIG, room=room["room_id"], game=room["game_id"])
        r = await c.request(method, url, headers=ADMIN if admin else bearer(room["token"]))
        assert r.status_code == 422 and r.json()["code"] == "invalid_request", r.text


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/api/admin/rooms?q=%00", "bad_text"),
        ("/api/admin/rooms?q=%ED%A0%80", "bad_text"),
        ("/api/admin/rooms?q=a%07b", "bad_text"),
        ("/api/rooms/a%00b", "bad_text"),
        ("/api/admin/games/{game}/log?seat=%C2%B2", "bad_seat"),
    ],
)
async def test_control_characters_or_odd_digits_in_a_path_or_query_get_4xx(
    server: ServerProcess, path: str, code: str
) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        room = await game_room(c)
        r = await c.get(path.format(game=room["game_id"]), headers=ADMIN)
        assert 400 <= r.status_code < 500 and r.json()["code"] == code, r.text


HOSTILE_FRAMES = [
    ('{"type": "act", "ref": "a", "action": {"type": "add", "n": 1e999}}', "bad_number"),
    ('{"type": "act", "ref": "a", "action": {"type": "add", "n": NaN}}', "bad_number"),
    ('{"type": "act", "ref": "a", "action": {"type": "add", "n": 99999999999999999999}}', "bad_number"),
    ('{"type": "act", "ref": "a", "action": {"type": "\\ud800"}}', "bad_text"),
    ('{"type": "act", "ref": "\\udc00", "action": {"type": "add", "n": 1}}', "bad_text"),
    ('{"type": "act", "ref": "a", "action": {"type": "add", "n": 1, "\\ud83d": 0}}', "bad_text"),
    ('{"type": "act", "ref": "a", "action": {"type": "a\\u0000dd", "n": 1}}', "bad_text"),
    ('{"type": "chat", "text": "hi \\ud800"}', "bad_text"),
    ('{"type": "chat", "text": "bell \\u0007"}', "bad_text"),
    ('{"type": "act", "ref": "a", "action": ' + "[" * 40 + "]" * 40 + "}", "too_deep"),
    ("[" * 8000, "too_deep"),
    ('{"type": "act", "ref": "a", "action": {"type": "add", "n": 1}', "malformed_json"),
]


async def test_hostile_frames_get_error_frames_and_leave_the_log_and_room_unchanged(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        room = await game_room(c)
        log_url = f"/api/admin/games/{room['game_id']}/log"
        before = (await c.get(log_url, headers=ADMIN)).json()
        room_before = (await c.get(f"/api/rooms/{room['room_id']}", headers=bearer(room["token"]))).json()
        player = await Player(server.ws_base, room["room_id"], room["token"]).connect()
        for text, code in HOSTILE_FRAMES:
            await player.send(text)
            frame = await player.expect("error")
            assert frame["code"] == code, text
        await player.send({"type": "ping", "ref": "still-open"})
        assert (await player.expect("pong"))["ref"] == "still-open"
        await player.close()
        after = (await c.get(log_url, headers=ADMIN)).json()
        assert after["moves"] == before["moves"] and after["refused"] == before["refused"] == []
        room_after = (await c.get(f"/api/rooms/{room['room_id']}", headers=bearer(room["token"]))).json()
        assert room_after == room_before
        chat = (await c.get(f"/api/rooms/{room['room_id']}/chat", headers=bearer(room["token"]))).json()
        assert chat == []


async def test_a_frame_over_the_transport_limit_closes_only_that_socket(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        room = await game_room(c)
    player = await Player(server.ws_base, room["room_id"], room["token"]).connect()
    await player.send(json.dumps({"type": "chat", "text": "x" * (20 << 10)}))
    assert (await player.expect("error"))["code"] == "frame_too_large"
    await player.send("x" * (2 << 20))
    with pytest.raises(websockets.ConnectionClosed):
        await player.expect("never")
    again = await Player(server.ws_base, room["room_id"], room["token"]).connect()
    assert again.welcome["type"] == "welcome"
    await again.close()


# names of 32 characters, each a surrogate pair in UTF-16; bidi overrides; zero-width joiners;
# combining marks; the last code point; HTML that must stay text
NASTY_NAMES = [
    "\U00020bb7" * 32,  # astral-plane letters (names are stored NFKC-normalised: these stay)
    # direction overrides and invisible characters are refused in names (test_rooms_api.py);
    # right-to-left text, joiners where they join, emoji sequences and stacked marks are not
    "\u0645\u06cc\u200c\u062e evil \U0001f469\u200d\U0001f469\u200d\U0001f467",
    "Z\u0351\u0352\u0353a\u0300\u0301l\u0302go\U0001f44d\U0001f3fd",
    "<script>alert(1)</script>&amp;",
]
NASTY_CHAT = ["\U0001f600" * 300, "line one\nline two\ttabbed\r\n", "'; DROP TABLE moves; --", "é"]
NASTY_VALUE = {
    "big": (1 << 63) - 1,
    "small": -(1 << 63),
    "float": 1.7976931348623157e308,
    "tiny": 5e-324,
    "text": "\U0010ffff\u202e\u200d\ufeff<b>",
    "deep": json.loads("[" * 26 + "]" * 26),  # with the frame around it: 30 levels of the 32
}


async def test_the_nastiest_accepted_input_reads_back_through_every_endpoint(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base, verify=TLS) as c:
        r = await c.post("/api/rooms", json={"game": "count21", "name": NASTY_NAMES[0], "options": {"target": 5}})
        assert r.status_code == 200, r.text
        host = r.json()
        room_id, invite = host["room_id"], host["invite_url"].rsplit("/", 1)[1]
        guests = []
        for name in NASTY_NAMES[1:3]:
            c.cookies.clear()  # each joins as a newcomer; every call below sends its bearer token
            r = await c.post(f"/api/join/{invite}", json={"name": name})
            assert r.status_code == 200, r.text
            guests.append(r.json())
        r = await c.post(f"/api/rooms/{room_id}/bots", json={"name": NASTY_NAMES[3]}, headers=bearer(host["token"]))
        assert r.status_code == 200, r.text
        deal = json.dumps([1, 2, 3, 4]).encode()
        r = await c.post(
            f"/api/rooms/{room_id}/options/secrets/file",
            files={"file": ("\U0001f600\u202e.json", deal)},
            headers=bearer(host["token"]),
        )
        assert r.status_code == 200, r.text
        game_id = (await c.post(f"/api/rooms/{room_id}/start", headers=bearer(host["token"]))).json()["game_id"]
        tokens = [host["token"]] + [g["token"] for g in guests]
        for text in NASTY_CHAT:
            r = await c.post(f"/api/rooms/{room_id}/chat", json={"text": text}, headers=bearer(tokens[1]))
            assert r.status_code == 200, r.text

        # moves over the websocket carry nasty refs and extra fields; refused ones are kept too
        players = [await Player(server.ws_base, room_id, t).connect() for t in tokens]
        await players[1].send({"type": "chat", "text": NASTY_NAMES[1]})
        refused = await players[1].act({"type": "add", "n": 1, "extra": NASTY_VALUE}, ref="\U0001f600" * 64)
        assert refused["code"] == "not_your_turn"
        ack = await players[0].act({"type": "add", "n": 1, "extra": NASTY_VALUE}, ref="\u202e\U0010ffff" * 32)
        assert ack["type"] == "ack"
        # the bot (seat 3) plays when it comes round; the people play until the target
        while True:
            view = (await c.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))).json()["view"]
            if view["over"]:
                break
            (turn,) = view["to_act"]
            if turn < 3:
                await players[turn].act({"type": "add", "n": 1, "note": NASTY_NAMES[turn]})
            else:
                await players[0].wait_state(lambda v, t=view["counter"]: v["counter"] > t or v["over"])
        for p in players:
            await p.close()

        # everything reads back, as JSON that holds the same text
        seat_reads = [
            f"/api/rooms/{room_id}",
            f"/api/rooms/{room_id}/view",
            f"/api/rooms/{room_id}/chat",
            f"/api/rooms/{room_id}/games/{game_id}/log",
            f"/api/rooms/{room_id}/games/{game_id}/state",
            f"/api/rooms/{room_id}/games/{game_id}/state?seq=1",
        ]
        admin_reads = [
            "/api/admin/rooms",
            "/api/admin/rooms?q=" + NASTY_NAMES[1][:8],
            f"/api/admin/rooms/{room_id}",
            f"/api/admin/games/{game_id}/log",
            f"/api/admin/games/{game_id}/export",
            f"/api/admin/games/{game_id}/state",
            f"/api/admin/games/{game_id}/state?seq=1",
        ]
        bodies = {}
        for url in seat_reads:
            r = await c.get(url, headers=bearer(tokens[1]))
            assert r.status_code == 200, (url, r.text)
            bodies[url] = r.json()
        for url in admin_reads:
            r = await c.get(url, headers=ADMIN)
            assert r.status_code == 200, (url, r.text)
            bodies[url] = r.json()
        for page in (f"/r/{room_id}", f"/r/{room_id}/replay/{game_id}", f"/admin/rooms/{room_id}"):
            assert (await c.get(page, headers=ADMIN)).status_code == 200, page

    everything = json.dumps(bodies, ensure_ascii=False)
    for text in [*NASTY_NAMES, NASTY_CHAT[0], NASTY_CHAT[1].strip(), NASTY_VALUE["text"]]:
        assert json.dumps(text, ensure_ascii=False)[1:-1] in everything, text
    log = bodies[f"/api/admin/games/{game_id}/log"]
    assert log["moves"][0]["action"]["extra"] == NASTY_VALUE
    assert log["moves"][0]["ref"] == "\u202e\U0010ffff" * 32
    assert log["refused"][0]["action"]["extra"] == NASTY_VALUE
    assert bodies[f"/api/admin/games/{game_id}/export"]["log"][0]["action"]["extra"] == NASTY_VALUE
    # a reconnecting socket reads the room and the chat back too
    again = await Player(server.ws_base, room_id, tokens[2]).connect()
    await again.close()
    assert [m["text"] for m in again.welcome["chat"]] == [*(t.strip() for t in NASTY_CHAT), NASTY_NAMES[1]]
