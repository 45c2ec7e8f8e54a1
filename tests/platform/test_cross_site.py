"""The room's invite is for members; what a cookie authenticates must come from the site's
own pages; a logged-out admin cookie is dead (docs/protocol.md, "Identity")."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
import websockets

from geniusnight.server.admin.auth import ADMIN_COOKIE
from geniusnight.server.origin import origin_allowed
from inprocess import serve

EVIL = "http://evil.testserver"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(client: httpx.AsyncClient) -> dict[str, Any]:
    r = await client.post("/api/rooms", json={"game": "count21", "name": "Ada"})
    assert r.status_code == 200
    return r.json()  # type: ignore[no-any-return]


async def test_only_members_see_the_rooms_invite(client: httpx.AsyncClient, app: Any) -> None:
    room = await create(client)
    path = f"/api/rooms/{room['room_id']}"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as stranger:
        anonymous = (await stranger.get(path)).json()
        assert "invite_path" not in anonymous and anonymous["you"] is None
        member = (await stranger.get(path, headers={"Authorization": f"Bearer {room['token']}"})).json()
    assert member["invite_path"] == "/join/" + room["invite_url"].rsplit("/", 1)[1]


async def test_a_cookie_post_from_another_origin_is_refused_and_changes_nothing(client: httpx.AsyncClient) -> None:
    room = await create(client)  # the client keeps the host's seat cookie
    path = f"/api/rooms/{room['room_id']}/bots"
    r = await client.post(path, json={}, headers={"Origin": EVIL})
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    r = await client.post(path, json={}, headers={"Origin": "null"})
    assert r.status_code == 403
    r = await client.post(path, json={}, headers={"Origin": "", "Referer": f"{EVIL}/page"})
    assert r.status_code == 403
    assert len((await client.get(f"/api/rooms/{room['room_id']}")).json()["seats"]) == 1
    assert (await client.post(path, json={})).status_code == 200  # from the site's own page


async def test_a_script_with_a_bearer_token_needs_no_origin(app: Any) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as script:
        room = (await script.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        script.cookies.clear()
        r = await script.post(f"/api/rooms/{room['room_id']}/bots", json={}, headers=bearer(room["token"]))
        assert r.status_code == 200


def test_the_public_url_names_the_one_allowed_origin() -> None:
    public_url = "https://play.example.org"  # GENIUSNIGHT_PUBLIC_URL
    assert origin_allowed(public_url, "https://play.example.org", "internal:8000")
    for other in ("http://play.example.org", "https://play.example.org:8443", "https://x.play.example.org"):
        assert not origin_allowed(public_url, other, "play.example.org")
    unset = ""  # the request's own host is the site's
    assert origin_allowed(unset, "http://127.0.0.1:8000", "127.0.0.1:8000")
    assert not origin_allowed(unset, "http://127.0.0.1:8001", "127.0.0.1:8000")


async def test_the_websocket_refuses_pages_of_other_sites(db_url: str) -> None:
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        room = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        url = f"{srv.ws_base}/ws/{room['room_id']}"
        cookie = {"Cookie": f"gn_seat_{room['room_id']}={room['token']}"}
        hello = json.dumps({"type": "hello", "token": None})
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, origin=websockets.Origin(EVIL), additional_headers=cookie)
        assert refused.value.response.status_code == 403
        own = websockets.Origin(srv.base)
        async with websockets.connect(url, origin=own, additional_headers=cookie) as ws:
            await ws.send(hello)
            assert json.loads(await ws.recv())["type"] == "welcome"
        async with websockets.connect(url) as ws:  # a script with its token in the hello
            await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
            assert json.loads(await ws.recv())["type"] == "welcome"


async def test_the_admin_cookie_is_dead_after_logout(client: httpx.AsyncClient) -> None:
    await client.post("/api/admin/login", json={"token": "a" * 32})
    cookie = client.cookies[ADMIN_COOKIE]
    assert (await client.get("/api/admin/session")).status_code == 200
    assert (await client.post("/api/admin/logout")).status_code == 200
    client.cookies.set(ADMIN_COOKIE, cookie)  # a copy kept from before the logout
    assert (await client.get("/api/admin/session")).status_code == 401
    assert (await client.get("/admin")).status_code == 401


async def test_a_cookie_request_that_says_nothing_of_where_it_comes_from_is_refused(app: Any) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as browser:
        room = await create(browser)  # no cookie yet: creating needs none
        path = f"/api/rooms/{room['room_id']}/bots"
        # the seat cookie, and neither Origin nor Sec-Fetch-Site: refused, and nothing changed
        r = await browser.post(path, json={})
        assert r.status_code == 403 and r.json()["code"] == "bad_origin"
        r = await browser.post(path, json={}, headers={"Referer": "http://testserver/r/x"})
        assert r.status_code == 403  # a Referer alone is no proof
        # Sec-Fetch-Site decides where Origin is missing
        for site in ("cross-site", "same-site", "none"):
            r = await browser.post(path, json={}, headers={"Sec-Fetch-Site": site})
            assert r.status_code == 403 and r.json()["code"] == "bad_origin", site
        assert len((await browser.get(f"/api/rooms/{room['room_id']}")).json()["seats"]) == 1  # reads are fine
        assert (await browser.post(path, json={}, headers={"Sec-Fetch-Site": "same-origin"})).status_code == 200
        # a script's bearer token is allowed without either header, cookie or not
        assert (await browser.post(path, json={}, headers=bearer(room["token"]))).status_code == 200
        assert len((await browser.get(f"/api/rooms/{room['room_id']}")).json()["seats"]) == 3
        # the cookie counts only where it would authenticate: creating a room needs none
        assert (await browser.post("/api/rooms", json={"game": "count21", "name": "Bo"})).status_code == 200


async def test_the_admin_cookie_alone_changes_nothing_without_origin(client: httpx.AsyncClient) -> None:
    assert (await client.post("/api/admin/login", json={"token": "a" * 32})).status_code == 200
    del client.headers["Origin"]  # the same browser's cookie, sent by a page that says nothing
    r = await client.post("/api/admin/logout")
    assert r.status_code == 403 and r.json()["code"] == "bad_origin"
    assert (await client.get("/api/admin/session")).status_code == 200  # still logged in


async def test_a_websocket_with_the_cookie_and_no_origin_is_refused(db_url: str) -> None:
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        room = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        url = f"{srv.ws_base}/ws/{room['room_id']}"
        cookie = {"Cookie": f"gn_seat_{room['room_id']}={room['token']}"}
        async with websockets.connect(url, additional_headers=cookie) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(await ws.recv())["code"] == "bad_origin"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4403
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, additional_headers={**cookie, "Sec-Fetch-Site": "same-site"})
        assert refused.value.response.status_code == 403
        async with websockets.connect(url, additional_headers={**cookie, "Sec-Fetch-Site": "same-origin"}) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(await ws.recv())["type"] == "welcome"
        async with websockets.connect(url, additional_headers=cookie) as ws:  # the token in hello
            await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
            assert json.loads(await ws.recv())["type"] == "welcome"


SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def csp(response: httpx.Response) -> dict[str, list[str]]:
    """The response's Content-Security-Policy, directive -> sources."""
    policy = response.headers.get("content-security-policy", "")
    directives = [part.split() for part in policy.split(";") if part.strip()]
    return {d[0]: d[1:] for d in directives}


async def test_no_page_of_another_origin_may_frame_ours_and_every_response_says_so(client: httpx.AsyncClient) -> None:
    room = await create(client)
    admin = bearer("a" * 32)
    responses = [
        await client.get("/"),
        await client.get(f"/r/{room['room_id']}"),
        await client.get(f"/admin/rooms/{room['room_id']}", headers=admin),
        await client.get("/admin"),
        await client.get("/static/js/socket.js"),
        await client.get("/api/games"),
        await client.get("/no/such/page"),  # a 404
        await client.post("/api/rooms", content=b"{not json"),  # the edge's refusal
        await client.post("/api/admin/rooms/x/close"),  # the admin's 401
    ]
    for r in responses:
        for name, value in SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (r.url, name)
        policy = csp(r)
        assert policy["frame-ancestors"] == ["'none'"], r.url
        assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"], r.url
        assert "'unsafe-inline'" not in policy.get("style-src", []), r.url


async def test_pages_hold_no_inline_script_or_style_the_policy_would_block(client: httpx.AsyncClient) -> None:
    """The policy allows scripts and styles from this origin's files only: no page may
    carry an inline script (a JSON data block is no script), a <style> or a style attribute."""
    room = await create(client)
    for path in (
        "/",
        f"/r/{room['room_id']}",
        "/rules/ingenious",
        "/admin",
        f"/join/{room['invite_url'].rsplit('/', 1)[1]}",
    ):
        html = (await client.get(path)).text
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert "<style" not in html and not re.search(r"\sstyle=", html) and not re.search(r"\son\w+=", html), path
