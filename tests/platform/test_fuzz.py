"""Fuzzing a real server process (``make fuzz`` for long runs; docs/protocol.md, "Bad input").

Hypothesis writes websocket frames and HTTP requests, valid and hostile (lone surrogates,
control characters, ``NaN``, numbers past 64 bits, deep nesting, random bytes). The server
must never answer 5xx or die; a refused input changes neither the game's log nor the room;
and every log stays readable (admin log, export, state) afterwards.

``GENIUSNIGHT_FUZZ_EXAMPLES`` sets how many inputs each test tries (a small number in CI).
"""

from __future__ import annotations

import json
import os
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from support import TLS, ServerProcess

EXAMPLES = int(os.environ.get("GENIUSNIGHT_FUZZ_EXAMPLES", "40"))
ADMIN = {"Authorization": "Bearer " + "t" * 32}
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)

NASTY_TEXT = ["\ud800", "\udfff", "\x00", "\x07", "\u0085", "\u202e", "\U0010ffff", "\ufeff", "<b>", "'\"", "é" * 40]
texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(NASTY_TEXT),
    st.lists(st.sampled_from(NASTY_TEXT) | st.text(max_size=3), max_size=5).map("".join),
)
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 3, -1, 2**63 - 1, 2**63, -(2**63) - 1, 1e308]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3), max_leaves=12
)
deep = st.integers(min_value=20, max_value=3000).map(lambda n: "[" * n + "]" * n)


def dumps(value: Any) -> str:
    """JSON as a hostile client may write it: NaN and lone surrogates (as escapes) included."""
    return json.dumps(value, allow_nan=True)


frames = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "chat", "hello", "ping", "bogus"]) | texts},
        optional={
            "ref": st.one_of(texts, numbers, values),
            "action": st.one_of(
                values,
                st.fixed_dictionaries(
                    {"type": st.sampled_from(["add", "timeout"]) | texts, "n": st.one_of(numbers, values)},
                    optional={"extra": values},
                ),
            ),
            "text": values,
            "token": values,
            "seq": values,
        },
    ).map(dumps),
    values.map(dumps),
    deep,
    st.text(max_size=60),
)


class Table:
    """A started count21 game with two people (no bots: nothing moves by itself)."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        with httpx.Client(base_url=server.base, verify=TLS) as c:
            host = c.post("/api/rooms", json={"game": "count21", "name": "Host"}).json()
            c.cookies.clear()
            guest = c.post(f"/api/join/{host['invite_url'].rsplit('/', 1)[1]}", json={"name": "Guest"}).json()
            self.game_id = c.post(f"/api/rooms/{host['room_id']}/start", headers=bearer(host["token"])).json()[
                "game_id"
            ]
        self.room_id, self.token, self.guest_token = host["room_id"], host["token"], guest["token"]
        self.http = httpx.Client(base_url=server.base, timeout=10, verify=TLS)
        self.ws: ClientConnection | None = None
        self.pings = 0

    def socket(self) -> ClientConnection:
        if self.ws is None:
            self.ws = connect(f"{self.server.ws_base}/ws/{self.room_id}", max_size=1 << 22)
            self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        return self.ws

    def send(self, text: str) -> list[dict[str, Any]]:
        """Send a frame, then a ping; return what came back before the pong."""
        self.pings += 1
        ref = f"fuzz-{self.pings}"
        ws = self.socket()
        got: list[dict[str, Any]] = []
        try:
            ws.send(text)
            ws.send(json.dumps({"type": "ping", "ref": ref}))
            while True:
                frame = json.loads(ws.recv(timeout=10))
                if frame.get("ref") == ref:
                    if frame.get("type") == "pong":
                        return got
                    assert frame.get("code") == "rate_limited", frame
                    time.sleep(0.5)  # the flood limit (15 frames a second) refused the ping
                    ws.send(json.dumps({"type": "ping", "ref": ref}))
                    continue
                got.append(frame)
        except ConnectionClosed:
            self.ws = None  # a socket may close (a frame over the transport limit): reconnect
            return got

    def snapshot(self) -> tuple[Any, ...]:
        log = self.http.get(f"/api/admin/games/{self.game_id}/log", headers=ADMIN)
        room = self.http.get(f"/api/rooms/{self.room_id}", headers=bearer(self.token))
        chat = self.http.get(f"/api/rooms/{self.room_id}/chat", headers=bearer(self.token))
        for r in (log, room, chat):
            assert r.status_code == 200, r.text
        body = log.json()
        return body["moves"], body["refused"], room.json(), chat.json()

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        self.http.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(server: ServerProcess) -> Iterator[Table]:
    t = Table(server)
    yield t
    t.close()
    assert server.proc is not None and server.proc.poll() is None, "the server died"
    every_log_is_readable(server)


def every_log_is_readable(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=30, verify=TLS) as c:
        rooms = c.get("/api/admin/rooms", params={"limit": 500}, headers=ADMIN).json()["rooms"]
        for room in rooms:
            detail = c.get(f"/api/admin/rooms/{room['id']}", headers=ADMIN)
            assert detail.status_code == 200, detail.text
            for game in detail.json()["games"]:
                for path in ("log", "export", "state"):
                    r = c.get(f"/api/admin/games/{game['id']}/{path}", headers=ADMIN)
                    assert r.status_code == 200, (path, r.text)


def test_websocket_frames_never_break_the_server_and_refusals_change_nothing(table: Table) -> None:
    @FUZZ
    @given(frame=frames)
    def one(frame: str) -> None:
        before = table.snapshot()
        replies = table.send(frame)
        after = table.snapshot()
        accepted = any(r.get("type") in ("ack", "chat") for r in replies)
        if not accepted:
            moves, _refused, room, chat = before  # refusals are kept (admin's debugging view)
            assert after[0] == moves and after[3] == chat, frame
            assert _without_online(after[2]) == _without_online(room), frame
        for r in replies:
            assert r.get("type") != "error" or isinstance(r.get("code"), str)

    one()


def _without_online(room: dict[str, Any]) -> dict[str, Any]:
    """Presence comes and goes with reconnects; everything else must stay."""
    return {**room, "seats": [{**s, "online": None} for s in room["seats"]], "you": None}


PATHS = [
    "/api/rooms",
    "/api/join/{invite}",
    "/api/rooms/{room}",
    "/api/rooms/{room}/bots",
    "/api/rooms/{room}/host",
    "/api/rooms/{room}/seats/{x}",
    "/api/rooms/{room}/start",
    "/api/rooms/{room}/chat",
    "/api/rooms/{room}/view",
    "/api/rooms/{room}/games/{x}/log",
    "/api/rooms/{room}/games/{x}/state",
    "/api/rooms/{x}",
    "/api/admin/rooms",
    "/api/admin/rooms/{x}",
    "/api/admin/games/{x}/log",
    "/api/admin/games/{x}/state",
    "/api/admin/games/{x}/export",
    "/api/admin/login",
]
segments = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    texts.map(lambda t: urllib.parse.quote(t.encode("utf-8", "surrogatepass"), safe="")),
    st.sampled_from(["1", "0", "%00", "%ED%A0%80", "..", "%2F", "%C2%B2"]),
)
bodies = st.one_of(
    st.none(),
    values.map(lambda v: dumps(v).encode()),
    st.fixed_dictionaries(
        {}, optional={"game": texts, "name": texts, "text": texts, "options": values, "seat": values, "bot": texts}
    ).map(lambda v: dumps(v).encode()),
    st.binary(max_size=40),
    deep.map(str.encode),
)
requests = st.tuples(
    st.sampled_from(["GET", "POST", "PATCH", "DELETE"]),
    st.sampled_from(PATHS),
    segments,
    st.dictionaries(st.sampled_from(["offset", "limit", "seq", "seat", "type", "q", "status"]), segments, max_size=2),
    bodies,
    st.sampled_from(["application/json", "text/plain", None]),
    st.sampled_from(["host", "admin", "none"]),
)


def test_http_requests_never_get_a_5xx_and_refusals_change_nothing(table: Table) -> None:
    invite = table.http.get(f"/api/rooms/{table.room_id}", headers=bearer(table.token)).json()["invite_path"]

    @FUZZ
    @given(request=requests)
    def one(request: tuple[Any, ...]) -> None:
        method, template, segment, params, body, content_type, who = request
        path = template.format(room=table.room_id, x=segment, invite=invite.rsplit("/", 1)[1])
        if "/seats/" in template:
            who = "admin"  # a kick by the host would hand the seat to a bot, which then plays
        headers = {"host": bearer(table.token), "admin": ADMIN, "none": {}}[who]
        if content_type:
            headers = {**headers, "content-type": content_type}
        query = urllib.parse.urlencode(params, safe="%")
        before = table.snapshot()
        with httpx.Client(base_url=table.server.base, timeout=10, verify=TLS) as c:  # no cookies carried over
            r = c.request(method, f"{path}?{query}" if query else path, content=body, headers=headers)
        assert r.status_code < 500, (method, path, query, body, r.status_code, r.text)
        if r.status_code >= 400:
            assert r.json()["code"], r.text
            assert table.snapshot()[:2] == before[:2]  # the game's log and refusals

    one()
