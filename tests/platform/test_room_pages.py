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
