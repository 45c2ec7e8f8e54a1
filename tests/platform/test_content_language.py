"""The language of the cards is the room's (docs/i18n.md, "Game content in several languages"):
a German Brainiac room deals German questions to every player whatever their page's language,
each page keeps its own language, a language the host switches to in the lobby is the one dealt
at the start, and a game stored before rooms had a language still loads and replays, in
English."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from geniusnight.engines.brainiac import packs
from geniusnight.engines.genius_idea.similarity import builtin_words
from support import ServerProcess
from wsclient import Player, host_post, join, make_room


def questions(language: str) -> set[str]:
    return {q["q"] for card in packs.load_builtin_cards(language) for q in card}


async def test_a_german_room_deals_the_same_german_questions_to_english_and_german_pages(
    server: ServerProcess,
) -> None:
    room_id, token, invite = await make_room(server.base, "brainiac", {"language": "de", "shuffle": False})
    guest = await join(server.base, invite, "Gast")
    assert (await host_post(server.base, room_id, token, "/bots", {"bot": "trivia"})).status_code == 200
    assert (await host_post(server.base, room_id, token, "/start")).status_code == 200
    english = await Player(server.ws_base, room_id, token, headers={"Cookie": "lang=en"}).connect()
    german = await Player(server.ws_base, room_id, guest["token"], headers={"Cookie": "lang=de"}).connect()
    try:
        bank = questions("de")
        for player in (english, german):
            assert {q["q"] for q in player.state["view"]["card"]} <= bank
            assert (await player.act({"type": "keep"}))["type"] == "ack"
        await english.wait_state(lambda v: v["phase"] == "ask")
        assert (await english.act({"type": "ask", "index": 0}))["type"] == "ack"
        asked = [
            (await p.wait_state(lambda v: v["question"] is not None))["view"]["question"] for p in (english, german)
        ]
        assert asked[0]["q"] == asked[1]["q"] and asked[0]["q"] in bank
    finally:
        await english.close()
        await german.close()
    # each page stays in its own language; the room's option is the same for both
    async with httpx.AsyncClient(base_url=server.base) as c:
        for lang in ("en", "de"):
            page = await c.get(f"/r/{room_id}", cookies={"lang": lang})
            assert f'<html lang="{lang}"' in page.text
            snap = (await c.get(f"/api/rooms/{room_id}", cookies={"lang": lang})).json()
            assert snap["options"]["language"] == "de"


def german_cards(game: str, view: dict[str, Any]) -> bool:
    """Whether a seat's opening view deals it cards of the German bank only: a Brainiac quiz
    card's four questions, a Genius Idea hand of ten words (the two decks share no word)."""
    if game == "brainiac":
        dealt = {q["q"] for q in view["card"]}
        return len(dealt) == 4 and dealt <= questions("de") and not dealt & questions("en")
    hand = set(view["hand"])
    return len(hand) == 10 and hand <= set(builtin_words("de")) and not hand & set(builtin_words("en"))


@pytest.mark.parametrize("game", ["brainiac", "genius-idea"])
async def test_the_host_switching_the_card_language_in_the_lobby_deals_german_cards(
    client: httpx.AsyncClient, game: str
) -> None:
    r = await client.post("/api/rooms", json={"game": game, "options": {"language": "en"}, "name": "Ada"})
    rid, host = r.json()["room_id"], {"Authorization": f"Bearer {r.json()['token']}"}
    invite = (await client.get(f"/api/rooms/{rid}", headers=host)).json()["invite_path"].rsplit("/", 1)[-1]
    client.cookies.clear()  # the guest joins from another browser, not with the host's seat cookie
    joined = await client.post(f"/api/join/{invite}", json={"name": "Gast"})
    assert joined.json()["seat"] == 1
    guest = {"Authorization": f"Bearer {joined.json()['token']}"}
    assert (await client.post(f"/api/rooms/{rid}/bots", json={}, headers=host)).status_code == 200
    assert (await client.get(f"/api/rooms/{rid}")).json()["options"]["language"] == "en"
    # the lobby's "Apply options" PATCHes the room; the options sent are merged into its own
    patched = await client.patch(f"/api/rooms/{rid}", json={"options": {"language": "de"}}, headers=host)
    assert patched.status_code == 200, patched.text
    assert patched.json()["options"]["language"] == "de"
    started = await client.post(f"/api/rooms/{rid}/start", headers=host)
    assert started.status_code == 200, started.text
    for auth in (host, guest):
        mine = await client.get(f"/api/rooms/{rid}/view", headers=auth)
        assert mine.status_code == 200, mine.text
        assert german_cards(game, mine.json()["view"]), mine.json()["view"]


async def test_a_stored_game_whose_options_lack_the_language_loads_and_replays_in_english(
    client: httpx.AsyncClient, app: object, db_url: str
) -> None:
    r = await client.post("/api/rooms", json={"game": "brainiac", "options": {}, "name": "Ada"})
    rid, auth = r.json()["room_id"], {"Authorization": f"Bearer {r.json()['token']}"}
    for _ in range(2):
        assert (await client.post(f"/api/rooms/{rid}/bots", json={"bot": "trivia"}, headers=auth)).status_code == 200
    game_id = (await client.post(f"/api/rooms/{rid}/start", headers=auth)).json()["game_id"]
    games = app.state.games  # type: ignore[attr-defined]
    live = await games.get(game_id)
    for _ in range(200):  # the host keeps their card and asks; the bots answer at once
        live = await games.get(game_id)
        if live.state["phase"] == "judge":
            break
        if 0 in live.engine.to_act(live.state):
            action = {"type": "keep"} if live.state["phase"] == "trade" else {"type": "ask", "index": 1}
            await games.submit(game_id, 0, action)
        await asyncio.sleep(0.01)
    assert await games.settled(5)
    before = (await games.get(game_id)).state
    assert before["phase"] == "judge" and before["language"] == "en"

    # as a server from before rooms had a language stored it: no "language" among its options
    sync = create_engine(db_url.replace("+aiosqlite", ""))
    with sync.begin() as conn:
        stored = json.loads(
            conn.execute(text("select options from games where id = :id"), {"id": game_id}).scalar_one()
        )
        assert stored.pop("language") == "en"
        conn.execute(text("update games set options = :o where id = :id"), {"o": json.dumps(stored), "id": game_id})
    sync.dispose()
    games.forget(game_id)
    again = await games.get(game_id)
    assert again.state == before and again.view(1)["question"]["q"] in questions("en")


async def test_a_new_rooms_cards_start_in_the_hosts_page_language(client: httpx.AsyncClient) -> None:
    async def language_of(options: dict[str, object], **headers: str) -> object:
        cookies = {"lang": headers.pop("cookie")} if "cookie" in headers else None
        r = await client.post(
            "/api/rooms",
            json={"game": "brainiac", "options": options, "name": "Ada"},
            headers=headers,
            cookies=cookies,
        )
        assert r.status_code == 200, r.text
        return (await client.get(f"/api/rooms/{r.json()['room_id']}")).json()["options"]["language"]

    assert await language_of({}, cookie="de") == "de"  # the EN | DE switch's choice
    assert await language_of({}, **{"Accept-Language": "de-DE,de;q=0.9"}) == "de"  # else the browser's
    assert await language_of({}) == "en"
    assert await language_of({"language": "en"}, cookie="de") == "en"  # the host's own pick wins
    # a game without content languages gets no such option
    r = await client.post("/api/rooms", json={"game": "count21", "options": {}, "name": "Ada"}, cookies={"lang": "de"})
    assert (
        r.status_code == 200
        and "language" not in (await client.get(f"/api/rooms/{r.json()['room_id']}")).json()["options"]
    )
