"""The room and invite pages (docs/product.md): who sees the join screen and who goes back in."""

from __future__ import annotations

import httpx
from test_rooms_api import create


async def test_the_invite_shows_a_newcomer_the_join_screen(client: httpx.AsyncClient) -> None:
    room = await create(client)
    invite = room["invite_url"].rsplit("/join/", 1)[1]
    client.cookies.clear()
    page = await client.get(f"/join/{invite}")
    assert page.status_code == 200 and 'data-testid="join-screen"' in page.text


async def test_a_member_opening_the_invite_goes_back_to_the_room_not_to_a_watch_offer(
    client: httpx.AsyncClient,
) -> None:
    room = await create(client)
    invite = room["invite_url"].rsplit("/join/", 1)[1]
    # the creator's browser holds the room's seat cookie, as a player whose seat a bot keeps does
    page = await client.get(f"/join/{invite}")
    assert page.status_code == 303 and page.headers["location"] == f"/r/{room['room_id']}"
    assert 'data-testid="join-screen"' not in (await client.get(page.headers["location"])).text


async def test_a_member_who_left_opening_the_invite_gets_the_join_screen(client: httpx.AsyncClient) -> None:
    room = await create(client)
    invite = room["invite_url"].rsplit("/join/", 1)[1]
    client.cookies.clear()
    guest = (await client.post(f"/api/join/{invite}", json={"name": "Bo"})).json()
    assert (await client.get(f"/join/{invite}")).status_code == 303  # their cookie: back in
    left = await client.post(
        f"/api/rooms/{room['room_id']}/leave", headers={"Authorization": f"Bearer {guest['token']}"}
    )
    assert left.status_code == 200, left.text
    page = await client.get(f"/join/{invite}")  # the same browser, its cookie no longer a member's
    assert page.status_code == 200 and 'data-testid="join-screen"' in page.text


def body(page: str) -> str:
    """What the page shows: its body (the head carries the whole message catalog)."""
    return page.split("<body>", 1)[1]


async def test_a_rooms_address_lets_nobody_in_it_join_and_names_neither_invite_nor_code(
    client: httpx.AsyncClient,
) -> None:
    """The address bar is no invite (docs/product.md, "The host's tools"): a stranger, or a
    member the host removed, who opens it after a new invite link gets a page that asks for
    the link or the code, with the box to type a code in, and neither of them."""
    room = await create(client)
    host = {"Authorization": f"Bearer {room['token']}"}
    address = f"/r/{room['room_id']}"
    client.cookies.clear()
    invite = room["invite_url"].rsplit("/join/", 1)[1]
    watcher = (await client.post(f"/api/join/{invite}", json={"name": "Bo"})).json()
    assert (await client.get(address)).text.count('data-testid="ask-host"') == 0  # a member: the room
    removed = await client.delete(f"/api/rooms/{room['room_id']}/members/{watcher['member_id']}", headers=host)
    assert removed.status_code == 200, removed.text
    fresh = (await client.post(f"/api/rooms/{room['room_id']}/invite", headers=host)).json()
    new_invite = fresh["invite_path"].rsplit("/", 1)[1]
    for who in ("the removed member", "a stranger"):
        page = await client.get(address)
        assert page.status_code == 200, who
        assert 'data-testid="ask-host"' in page.text and 'data-testid="code-form"' in page.text, who
        assert 'data-testid="join-screen"' not in page.text and "/static/js/join.js" not in page.text, who
        shown = body(page.text)
        assert "Join Ada’s game of Count to 21" in shown and "invite link or the room code" in shown, who
        for secret in (invite, new_invite, fresh["code"]):
            assert secret not in page.text, (who, secret)
        client.cookies.clear()
    # the room's API tells a stranger neither (the code box's check names no room either)
    seen = (await client.get(f"/api/rooms/{room['room_id']}")).json()
    assert "invite_path" not in seen and "code" not in seen and new_invite not in str(seen)


async def test_a_rooms_address_asks_for_the_invite_in_german_too(client: httpx.AsyncClient) -> None:
    room = await create(client)
    client.cookies.clear()
    page = await client.get(f"/r/{room['room_id']}", headers={"Accept-Language": "de"})
    shown = body(page.text)
    assert "Einladungslink oder den Raumcode vom Gastgeber" in shown and "Mit Code beitreten" in shown
