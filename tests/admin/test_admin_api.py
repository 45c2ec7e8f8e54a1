"""The admin API (docs/admin.md): auth, rooms, a room's detail, closing, logs, state at any seq,
export, and the players' replay after the end. In-process app on a temporary SQLite DB."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import httpx
import pytest
from admin_helpers import ADMIN, bearer, move, play_to_end, two_players
from sqlalchemy import update

from geniusnight.server.admin.auth import ADMIN_COOKIE, make_session_cookie, session_cookie_valid
from geniusnight.server.admin.service import purge_old_refused
from geniusnight.server.limits import WindowLimit
from geniusnight.settings import Settings
from geniusnight.storage.models import RefusedAction

ADMIN_GETS = [
    "/api/admin/session",
    "/api/admin/rooms",
    "/api/admin/rooms/{room}",
    "/api/admin/games/{game}/log",
    "/api/admin/games/{game}/state?seq=1",
    "/api/admin/games/{game}/export",
]


async def finished(app: Any) -> dict[str, Any]:
    g = await two_players(app)
    assert not (await move(app, g["game_id"], 1, {"type": "add", "n": 1})).ok  # refused: not seat 1's turn
    g["last_seq"] = await play_to_end(app, g["game_id"])
    return g


def paths(g: dict[str, Any]) -> list[str]:
    return [p.format(room=g["room_id"], game=g["game_id"]) for p in ADMIN_GETS]


# --- auth ----------------------------------------------------------------------------------


async def test_admin_api_without_a_token_is_401_and_says_nothing_about_games(
    app: Any, client: httpx.AsyncClient
) -> None:
    g = await finished(app)
    for path in paths(g):
        r = await client.get(path)
        assert r.status_code == 401, path
        assert r.json()["code"] == "admin_auth"
        assert g["room_id"] not in r.text and "Ada" not in r.text
    r = await client.post(f"/api/admin/rooms/{g['room_id']}/close")
    assert r.status_code == 401


async def test_admin_api_with_a_wrong_token_is_401(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    # more wrong tokens than one address may try a minute (tests/platform/test_limits.py)
    app.state.admin_rate = WindowLimit(1000, 60)
    for token in ("b" * 32, ADMIN[:-1], ADMIN + "x", g["tokens"][0]):  # a seat token is no admin token
        for path in paths(g):
            r = await client.get(path, headers=bearer(token))
            assert r.status_code == 401, (token, path)


async def test_admin_api_with_the_bearer_token_answers(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    for path in paths(g):
        assert (await client.get(path, headers=bearer(ADMIN))).status_code == 200, path


async def test_admin_login_sets_a_strict_httponly_cookie_without_the_token(client: httpx.AsyncClient) -> None:
    assert (await client.post("/api/admin/login", json={"token": "nope"})).status_code == 401
    assert ADMIN_COOKIE not in client.cookies
    r = await client.post("/api/admin/login", json={"token": ADMIN})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and ADMIN not in cookie
    assert (await client.get("/api/admin/rooms")).status_code == 200
    assert (await client.get("/admin")).status_code == 200


async def test_admin_logout_ends_the_session(client: httpx.AsyncClient) -> None:
    await client.post("/api/admin/login", json={"token": ADMIN})
    assert (await client.get("/api/admin/session")).status_code == 200
    r = await client.post("/api/admin/logout")
    assert r.status_code == 200 and ADMIN_COOKIE in r.headers["set-cookie"]
    assert (await client.get("/api/admin/session")).status_code == 401
    assert (await client.get("/admin")).status_code == 401  # the login form, nothing else


async def test_admin_forged_or_expired_cookies_are_refused(client: httpx.AsyncClient) -> None:
    for value in ("1", "99999999999.abc", "x.y", "", f"{10**11}.{'0' * 64}"):
        client.cookies.set(ADMIN_COOKIE, value)
        assert (await client.get("/api/admin/session")).status_code == 401, value
    settings = Settings(env="test", admin_token=ADMIN)
    old = make_session_cookie(settings, now=datetime.now(UTC).timestamp() - 13 * 3600)
    assert not session_cookie_valid(settings, old)
    client.cookies.set(ADMIN_COOKIE, old)
    assert (await client.get("/api/admin/session")).status_code == 401


def test_admin_cookie_dies_when_the_token_or_the_secret_changes() -> None:
    settings = Settings(env="test", admin_token=ADMIN)
    cookie = make_session_cookie(settings)
    assert session_cookie_valid(settings, cookie)
    assert not session_cookie_valid(Settings(env="test", admin_token="c" * 32), cookie)
    assert not session_cookie_valid(Settings(env="test", admin_token=ADMIN, secret_key="k" * 40), cookie)


async def test_admin_pages_without_auth_show_only_the_login_form(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    for path in ("/admin", f"/admin/rooms/{g['room_id']}", f"/admin/games/{g['game_id']}"):
        r = await client.get(path)
        assert r.status_code == 401 and 'id="login-form"' in r.text
        assert "Ada" not in r.text and "Grace" not in r.text
    r = await client.get(f"/admin/games/{g['game_id']}", headers=bearer(ADMIN))
    assert r.status_code == 200 and "/static/js/admin.js" in r.text


async def test_admin_is_disabled_without_a_configured_token(db_url: str) -> None:
    from geniusnight.server.app import create_app

    app = create_app(
        Settings(env="test", database_url=db_url, extra_engines=["geniusnight.fixtures.count21:ENGINE"], bot_delay_ms=0)
    )
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        for path in ("/api/admin/rooms", "/api/admin/session"):
            for headers in ({}, bearer(""), bearer("anything")):
                r = await c.get(path, headers=headers)
                assert r.status_code == 404 and r.json()["code"] == "admin_disabled"
        assert (await c.post("/api/admin/login", json={"token": ""})).status_code == 404
        r = await c.get("/admin")
        assert r.status_code == 404 and "GENIUSNIGHT_ADMIN_TOKEN" in r.text


# --- rooms ---------------------------------------------------------------------------------


async def test_admin_rooms_lists_status_game_players_and_last_move(app: Any, client: httpx.AsyncClient) -> None:
    done = await finished(app)
    live = await two_players(app, names=("Zed", "Yan"))
    await move(app, live["game_id"], 0, {"type": "add", "n": 2})
    lobby = (await client.post("/api/rooms", json={"game": "count21", "name": "Lobbyist"})).json()
    data = (await client.get("/api/admin/rooms", headers=bearer(ADMIN))).json()
    assert data["total"] == 3
    rows = {r["id"]: r for r in data["rooms"]}
    assert rows[done["room_id"]]["status"] == "finished" and rows[done["room_id"]]["players"] == ["Ada", "Grace"]
    assert rows[done["room_id"]]["last_seq"] == done["last_seq"] and rows[done["room_id"]]["last_move_at"]
    assert rows[live["room_id"]]["status"] == "playing" and rows[live["room_id"]]["last_seq"] == 1
    assert rows[lobby["room_id"]]["status"] == "lobby" and rows[lobby["room_id"]]["players"] == ["Lobbyist"]
    assert rows[lobby["room_id"]]["last_move_at"] is None and rows[lobby["room_id"]]["created_at"]


async def test_admin_rooms_filters_by_status_game_and_search(app: Any, client: httpx.AsyncClient) -> None:
    done = await finished(app)
    live = await two_players(app, names=("Zed", "Yan_%"))

    async def ids(**params: str) -> set[str]:
        r = await client.get("/api/admin/rooms", params=params, headers=bearer(ADMIN))
        assert r.status_code == 200, r.text
        return {row["id"] for row in r.json()["rooms"]}

    assert await ids(status="live") == {live["room_id"]}
    assert await ids(status="finished") == {done["room_id"]}
    assert await ids(status="closed") == set()
    assert await ids(game="count21") == {done["room_id"], live["room_id"]}
    assert await ids(game="ingenious") == set()
    assert await ids(q="grace") == {done["room_id"]}  # player names, any case
    assert await ids(q="n_%") == {live["room_id"]}  # LIKE wildcards are literal
    assert await ids(q="%") == {live["room_id"]}
    assert await ids(q=done["room_id"][2:8]) == {done["room_id"]}
    r = await client.get("/api/admin/rooms", params={"status": "bogus"}, headers=bearer(ADMIN))
    assert r.status_code == 422


async def test_admin_room_detail_has_seats_members_connections_and_games(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    r = await client.get(f"/api/admin/rooms/{g['room_id']}", headers=bearer(ADMIN))
    d = r.json()
    assert [s["name"] for s in d["seats"]] == ["Ada", "Grace"]
    assert [(m["name"], m["seat"], m["host"]) for m in d["members"]] == [("Ada", 0, True), ("Grace", 1, False)]
    assert d["connections"] == []  # nobody is connected in this process
    assert [x["id"] for x in d["games"]] == [g["game_id"]]
    assert d["games"][0]["result"] == {"winners": [0], "scores": [1, 0]}
    assert "token_hash" not in r.text
    assert (await client.get("/api/admin/rooms/nope", headers=bearer(ADMIN))).status_code == 404


async def test_admin_room_detail_lists_this_process_connections(app: Any, client: httpx.AsyncClient) -> None:
    from geniusnight.server.play.connection import Connection

    g = await two_players(app)
    hub = app.state.hub
    conn = Connection(send=cast(Any, None), room_id=g["room_id"], member_id=1, seat=0, name="Ada")
    hub.add(conn)
    try:
        d = (await client.get(f"/api/admin/rooms/{g['room_id']}", headers=bearer(ADMIN))).json()
    finally:
        hub.remove(conn)
    assert d["connections"] == [{"member_id": 1, "seat": 0, "name": "Ada", "closed": False, "last_seq": {}}]


async def test_admin_close_room_tells_players_and_keeps_the_log(app: Any, client: httpx.AsyncClient) -> None:
    from geniusnight.server.play.connection import Connection

    g = await two_players(app)
    await move(app, g["game_id"], 0, {"type": "add", "n": 2})
    hub = app.state.hub
    sent: list[str] = []

    async def send(message: dict[str, Any]) -> None:  # what the player's browser would have been sent
        sent.append(message["text"] if message["type"] == "websocket.send" else "<closed>")

    conn = Connection(send=send, room_id=g["room_id"], member_id=2, seat=1, name="Grace")
    hub.add(conn)
    r = await client.post(
        f"/api/admin/rooms/{g['room_id']}/close", json={"message": "Closed for maintenance."}, headers=bearer(ADMIN)
    )
    hub.remove(conn)
    assert r.status_code == 200 and r.json()["status"] == "closed"
    for _ in range(10):  # the connection's backlog drains in a task of its own
        await asyncio.sleep(0)
    assert len(sent) == 2 and '"type":"closed"' in sent[0] and "Closed for maintenance." in sent[0]
    assert sent[1] == "<closed>" and conn.closed
    # the players' API no longer knows the room; the admin still sees it and its log
    assert (await client.get(f"/api/rooms/{g['room_id']}", headers=bearer(g["tokens"][0]))).status_code == 404
    rows = (await client.get("/api/admin/rooms", params={"status": "closed"}, headers=bearer(ADMIN))).json()["rooms"]
    assert [x["id"] for x in rows] == [g["room_id"]]
    log = (await client.get(f"/api/admin/games/{g['game_id']}/log", headers=bearer(ADMIN))).json()
    assert [m["seq"] for m in log["moves"]] == [1]
    # nobody plays on in a closed room: not a player, not a bot, not a clock
    outcome = await app.state.games.submit(g["game_id"], 1, {"type": "add", "n": 1})
    assert not outcome.ok and outcome.code == "room_closed"
    app.state.games.forget(g["game_id"])  # a restarted process knows it too
    outcome = await app.state.games.submit(g["game_id"], None, {"type": "timeout"})
    assert not outcome.ok and outcome.code == "room_closed"


# --- games ---------------------------------------------------------------------------------


async def test_admin_game_log_has_every_move_in_order_with_seat_name_time(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    log = (await client.get(f"/api/admin/games/{g['game_id']}/log", headers=bearer(ADMIN))).json()
    moves = log["moves"]
    assert [m["seq"] for m in moves] == list(range(1, g["last_seq"] + 1))
    assert [m["seat"] for m in moves] == [i % 2 for i in range(len(moves))]
    assert moves[0]["player"] == "Ada" and moves[1]["player"] == "Grace"
    assert all(m["at"] and m["action"] == {"type": "add", "n": 3} for m in moves)
    assert log["game"]["options"] == {"target": 21, "secrets": [4, 7]}  # private parts included
    assert log["game"]["result"] == {"winners": [0], "scores": [1, 0]}


async def test_admin_game_log_lists_refused_actions_with_codes(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    assert not (await move(app, g["game_id"], 0, {"type": "add", "n": 9})).ok  # over: game_over
    refused = (await client.get(f"/api/admin/games/{g['game_id']}/log", headers=bearer(ADMIN))).json()["refused"]
    assert [(r["at_seq"], r["seat"], r["code"]) for r in refused] == [
        (0, 1, "not_your_turn"),
        (g["last_seq"], 0, "game_over"),
    ]
    assert refused[0]["player"] == "Grace" and refused[0]["message"] and refused[0]["action"]["n"] == 1


async def test_admin_game_log_filters_moves_and_refused_actions_alike_by_seat_and_type(
    app: Any, client: httpx.AsyncClient
) -> None:
    g = await finished(app)
    assert not (await move(app, g["game_id"], 0, {"type": "add", "n": 9})).ok  # over: game_over
    url = f"/api/admin/games/{g['game_id']}/log"
    log = (await client.get(url, params={"seat": "1"}, headers=bearer(ADMIN))).json()
    assert log["moves"] and all(m["seat"] == 1 for m in log["moves"])
    assert [(r["seat"], r["code"]) for r in log["refused"]] == [(1, "not_your_turn")]
    log = (await client.get(url, params={"seat": "system"}, headers=bearer(ADMIN))).json()
    assert log["moves"] == [] and log["refused"] == []
    log = (await client.get(url, params={"type": "pass"}, headers=bearer(ADMIN))).json()
    assert log["moves"] == [] and log["refused"] == []
    log = (await client.get(url, params={"type": "add"}, headers=bearer(ADMIN))).json()
    assert len(log["moves"]) == g["last_seq"] and len(log["refused"]) == 2
    assert (await client.get(url, params={"seat": "x"}, headers=bearer(ADMIN))).status_code == 422


async def test_admin_game_log_hides_refused_actions_older_than_the_keep_days_without_deleting(
    app: Any, client: httpx.AsyncClient
) -> None:
    g = await finished(app)
    db = app.state.db
    async with db.sessions() as s, s.begin():
        await s.execute(update(RefusedAction).values(created_at=datetime.now(UTC) - timedelta(days=8)))
    refused = (await client.get(f"/api/admin/games/{g['game_id']}/log", headers=bearer(ADMIN))).json()["refused"]
    assert refused == []
    async with db.sessions() as s:
        assert (await s.get(RefusedAction, 1)) is not None  # a GET deletes nothing


async def test_housekeeping_deletes_refused_actions_older_than_the_keep_days(app: Any) -> None:
    await finished(app)
    db = app.state.db
    async with db.sessions() as s, s.begin():
        await s.execute(update(RefusedAction).values(created_at=datetime.now(UTC) - timedelta(days=8)))
    async with db.sessions() as s:
        assert await purge_old_refused(s, keep_days=7) >= 1
    async with db.sessions() as s:
        assert (await s.get(RefusedAction, 1)) is None


async def test_admin_game_log_filters_by_seat_and_action_type(app: Any, client: httpx.AsyncClient) -> None:
    g = await two_players(app)
    for seat in (0, 1):
        await move(app, g["game_id"], seat, {"type": "add", "n": 1})
    await move(app, g["game_id"], None, {"type": "timeout"})  # the system adds 1 for seat 0
    url = f"/api/admin/games/{g['game_id']}/log"

    async def seqs(**params: str) -> list[int]:
        r = await client.get(url, params=params, headers=bearer(ADMIN))
        assert r.status_code == 200, r.text
        return [m["seq"] for m in r.json()["moves"]]

    assert await seqs() == [1, 2, 3]
    assert await seqs(seat="0") == [1]
    assert await seqs(seat="1") == [2]
    assert await seqs(seat="system") == [3]
    assert await seqs(type="timeout") == [3]
    assert await seqs(type="add", seat="1") == [2]
    assert (await client.get(url, params={"seat": "x"}, headers=bearer(ADMIN))).status_code == 422
    assert (await client.get("/api/admin/games/999/log", headers=bearer(ADMIN))).status_code == 404


async def test_admin_state_at_seq_has_the_full_state_and_every_view(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    url = f"/api/admin/games/{g['game_id']}/state"
    s0 = (await client.get(url, params={"seq": 0}, headers=bearer(ADMIN))).json()
    assert s0["seq"] == 0 and s0["move"] is None and s0["state"]["counter"] == 0
    assert s0["state"]["secrets"] == [4, 7] and "rng" in s0["state"]  # everything, hidden parts included
    assert [v["secret"] for v in s0["views"]] == [4, 7]
    assert "secret" not in s0["spectator"]
    for k in range(1, g["last_seq"] + 1):
        sk = (await client.get(url, params={"seq": k}, headers=bearer(ADMIN))).json()
        assert sk["state"]["counter"] == min(21, 3 * k) and sk["move"]["seq"] == k
        assert sk["spectator"]["counter"] == sk["views"][0]["counter"] == min(21, 3 * k)
    last = (await client.get(url, headers=bearer(ADMIN))).json()
    assert last["seq"] == g["last_seq"] and last["outcome"] == {"winners": [0], "scores": [1, 0]}
    back = (await client.get(url, params={"seq": 2}, headers=bearer(ADMIN))).json()  # from the cache
    assert back["state"]["counter"] == 6
    for bad in (-1, g["last_seq"] + 1):
        assert (await client.get(url, params={"seq": bad}, headers=bearer(ADMIN))).status_code == 422


async def test_admin_state_follows_a_running_game(app: Any, client: httpx.AsyncClient) -> None:
    g = await two_players(app)
    url = f"/api/admin/games/{g['game_id']}/state"
    assert (await client.get(url, headers=bearer(ADMIN))).json()["seq"] == 0
    await move(app, g["game_id"], 0, {"type": "add", "n": 2})
    now = (await client.get(url, headers=bearer(ADMIN))).json()
    assert now["seq"] == 1 and now["state"]["counter"] == 2 and now["to_act"] == [1]


async def test_admin_export_has_engine_options_seed_seats_log_and_result(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    r = await client.get(f"/api/admin/games/{g['game_id']}/export", headers=bearer(ADMIN))
    assert "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["format"] == "geniusnight-game" and data["version"] == 1
    game = data["game"]
    assert game["engine"] == "count21" and game["options"]["secrets"] == [4, 7] and isinstance(game["seed"], int)
    assert [s["name"] for s in game["seats"]] == ["Ada", "Grace"] and game["players"] == 2
    assert [e["seq"] for e in data["log"]] == list(range(1, g["last_seq"] + 1))
    assert set(data["log"][0]) == {"seq", "seat", "action", "at", "ref"}
    assert data["result"] == {"winners": [0], "scores": [1, 0]}


async def test_admin_endpoints_are_in_openapi_under_the_admin_tag(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    admin = {p: ops for p, ops in spec["paths"].items() if p.startswith("/api/admin")}
    assert {
        "/api/admin/rooms",
        "/api/admin/rooms/{room_id}",
        "/api/admin/rooms/{room_id}/close",
        "/api/admin/games/{game_id}/log",
        "/api/admin/games/{game_id}/state",
        "/api/admin/games/{game_id}/export",
        "/api/admin/login",
        "/api/admin/logout",
    } <= set(admin)
    for ops in admin.values():
        for op in ops.values():
            assert op["tags"] == ["admin"] and op["summary"]


# --- the players' replay -------------------------------------------------------------------


async def test_admin_player_replay_refuses_while_the_game_runs(app: Any, client: httpx.AsyncClient) -> None:
    g = await two_players(app)
    await move(app, g["game_id"], 0, {"type": "add", "n": 2})
    base = f"/api/rooms/{g['room_id']}/games/{g['game_id']}"
    for path in ("/log", "/state", "/state?seq=0", "/state?seq=1"):
        r = await client.get(base + path, headers=bearer(g["tokens"][0]))
        assert r.status_code == 409 and r.json()["code"] == "game_running", path
        assert "secret" not in r.text and "add" not in r.text


async def test_admin_player_replay_works_for_members_after_the_end(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    base = f"/api/rooms/{g['room_id']}/games/{g['game_id']}"
    for token in g["tokens"]:
        log = (await client.get(base + "/log", headers=bearer(token))).json()
        assert len(log["moves"]) == g["last_seq"] and "refused" not in log  # refused actions stay admin-only
        s0 = (await client.get(base + "/state?seq=0", headers=bearer(token))).json()
        assert [v["secret"] for v in s0["views"]] == [4, 7]  # every seat's hidden number
        # not the raw state (PRNG, undealt cards) nor free-form options a rematch reuses
        assert "state" not in s0 and "rng" not in json.dumps(s0)
        assert "secrets" not in log["game"]["options"] and log["game"]["options"]["target"] == 21
    # a spectator who joined is a member too
    joined = (await client.post(f"/api/join/{g['invite']}", json={"name": "Watcher"})).json()
    assert joined["seat"] is None
    assert (await client.get(base + "/log", headers=bearer(joined["token"]))).status_code == 200
    page = await client.get(f"/r/{g['room_id']}/replay/{g['game_id']}")
    assert page.status_code == 200 and "/static/js/replay.js" in page.text


async def test_admin_player_replay_refuses_strangers_and_other_rooms(app: Any, client: httpx.AsyncClient) -> None:
    g = await finished(app)
    other = await finished(app)
    base = f"/api/rooms/{g['room_id']}/games/{g['game_id']}"
    assert (await client.get(base + "/log")).status_code == 401
    assert (await client.get(base + "/log", headers=bearer("x" * 32))).status_code == 401
    assert (await client.get(base + "/log", headers=bearer(other["tokens"][0]))).status_code == 401
    wrong = f"/api/rooms/{g['room_id']}/games/{other['game_id']}/log"
    assert (await client.get(wrong, headers=bearer(g["tokens"][0]))).status_code == 404


@pytest.mark.parametrize("seq", [0, 3])
async def test_admin_and_player_replays_agree(app: Any, client: httpx.AsyncClient, seq: int) -> None:
    g = await finished(app)
    admin = (await client.get(f"/api/admin/games/{g['game_id']}/state?seq={seq}", headers=bearer(ADMIN))).json()
    player_url = f"/api/rooms/{g['room_id']}/games/{g['game_id']}/state?seq={seq}"
    player = (await client.get(player_url, headers=bearer(g["tokens"][1]))).json()
    del admin["state"]
    assert admin == player


async def test_admin_state_requests_at_once_rebuild_consistently(app: Any, client: httpx.AsyncClient) -> None:
    import asyncio

    g = await finished(app)
    url = f"/api/admin/games/{g['game_id']}/state"
    answers = await asyncio.gather(
        *(client.get(url, params={"seq": k}, headers=bearer(ADMIN)) for k in (7, 3, 5, 1, 7, 2))
    )
    assert [r.status_code for r in answers] == [200] * 6
    assert [r.json()["state"]["counter"] for r in answers] == [21, 9, 15, 3, 21, 6]


async def test_admin_cookie_is_secure_over_https(app: Any) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="https://testserver") as c:
        r = await c.post("/api/admin/login", json={"token": ADMIN})
        assert "Secure" in r.headers["set-cookie"]
        assert (await c.get("/api/admin/session")).status_code == 200
