"""A German Genius Idea room over a real server (docs/rules/genius-idea.md, "Options"): the
room's content language picks the deck for every seat, whatever language each player's page
is in; names and pages keep their own language."""

from __future__ import annotations

import httpx

from geniusnight.engines.genius_idea.similarity import builtin_words
from support import ServerProcess
from wsclient import Player, host_post, join, make_room


async def test_a_german_room_deals_german_cards_to_an_english_and_a_german_page(server: ServerProcess) -> None:
    room_id, host_token, invite = await make_room(server.base, game="genius-idea", options={"language": "de"})
    guest_token = (await join(server.base, invite, "Gast"))["token"]
    assert (await host_post(server.base, room_id, host_token, "/bots", {"bot": "normal"})).status_code == 200
    started = await host_post(server.base, room_id, host_token, "/start")
    assert started.status_code == 200, started.text

    pages = {}
    for token, lang in ((host_token, "en"), (guest_token, "de")):
        async with httpx.AsyncClient(base_url=server.base, headers={"Cookie": f"lang={lang}"}) as c:
            page = await c.get(f"/r/{room_id}", headers={"Authorization": f"Bearer {token}"})
            assert page.status_code == 200
            pages[lang] = page.text
            room = (await c.get(f"/api/rooms/{room_id}", headers={"Authorization": f"Bearer {token}"})).json()
            assert room["options"]["language"] == "de"
    assert '<html lang="en">' in pages["en"] and '<html lang="de">' in pages["de"]

    german = set(builtin_words("de"))
    players = [await Player(server.ws_base, room_id, token).connect() for token in (host_token, guest_token)]
    try:
        for seat, player in enumerate(players):
            view = player.state["view"]
            assert player.state["seat"] == seat
            assert len(view["hand"]) == 10 and set(view["hand"]) <= german, view["hand"]
    finally:
        for player in players:
            await player.close()
