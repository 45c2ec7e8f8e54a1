"""What one person can make the server store or compute stays bounded (docs/deploy.md, "Abuse
limits", "Storage and rooms"): a room's options have a size limit and a rate limit, and a
finished game's replay is rebuilt off the event loop."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import replace
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from geniusnight.fixtures.count21 import ENGINE
from geniusnight.server.rooms.service import OptionSizes
from geniusnight.storage.models import RefusalCount, RefusedAction
from inprocess import serve
from support import seated_room


async def host_room(client: httpx.AsyncClient, game: str = "count21") -> tuple[str, dict[str, str]]:
    r = await client.post("/api/rooms", json={"game": game, "name": "Ada"})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return r.json()["room_id"], {"Authorization": f"Bearer {r.json()['token']}"}


def deck(words: int) -> list[str]:
    return [f"word{i:06d}" for i in range(words)]


async def test_an_option_over_its_size_limit_is_refused_with_options_too_large(client: httpx.AsyncClient) -> None:
    """OPTION_MAX_BYTES (192 KiB): a deck of 25,000 words (300 KiB) is refused, on creating
    the room and on changing its options; a deck of 5,000 words is welcome. The tester's
    150,000 words (1.7 MiB) are refused before the body is read (MAX_BODY_BYTES, 512 KiB)."""
    big = deck(25_000)
    r = await client.post("/api/rooms", json={"game": "genius-idea", "name": "Ada", "options": {"words": big}})
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"
    room_id, auth = await host_room(client, "genius-idea")
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"words": big}}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"words": deck(150_000)}}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"words": deck(5_000)}}, headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["custom_options"] == ["words"]


async def test_an_option_file_over_the_size_limit_is_refused_with_options_too_large(
    client: httpx.AsyncClient,
) -> None:
    room_id, auth = await host_room(client, "genius-idea")
    data = "\n".join(deck(30_000)).encode()  # 330 KiB of text (uploads: at most 384 KiB), 390 KiB of JSON
    r = await client.post(f"/api/rooms/{room_id}/options/words/file", files={"file": ("deck.txt", data)}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"


async def test_all_options_together_have_a_size_limit(client: httpx.AsyncClient, app: Any) -> None:
    """OPTIONS_MAX_BYTES: each option may fit and all of them together still not."""
    rooms = app.state.rooms
    rooms.room_services = replace(rooms.room_services, option_sizes=OptionSizes(each=1024, total=1500))
    room_id, auth = await host_room(client)
    fits = list(range(280))  # 1,011 bytes of JSON
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"secrets": fits}}, headers=auth)
    assert r.status_code == 200, r.text
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"secrets": list(range(400))}}, headers=auth)
    assert r.status_code == 413 and "secrets" in r.json()["message"]
    rooms.room_services = replace(rooms.room_services, option_sizes=OptionSizes(each=1024, total=1000))
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"target": 30}}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"


async def test_option_changes_are_rate_limited_per_member(client: httpx.AsyncClient, app: Any) -> None:
    """OPTION_CHANGES_PER_MINUTE (20): the 21st change within a minute gets 429 options_rate;
    another host is not held back by it."""
    per = app.state.settings.option_changes_per_minute
    room_id, auth = await host_room(client)
    for i in range(per):
        r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"target": 10 + i}}, headers=auth)
        assert r.status_code == 200, (i, r.text)
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"target": 50}}, headers=auth)
    assert r.status_code == 429 and r.json()["code"] == "options_rate"
    other, other_auth = await host_room(client)
    assert (await client.patch(f"/api/rooms/{other}", json={"options": {"target": 9}}, headers=other_auth)).is_success


async def test_a_finished_games_replay_is_built_off_the_event_loop(
    client: httpx.AsyncClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The players' replay sets the game up again and builds every seat's view: work that
    grows with the options (a custom deck) and the log, done in a worker thread so that the
    loop serves every other room meanwhile."""
    room_id, auth = await seated_room(client, target=5)
    game_id = (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
    games = app.state.games
    seat = 0
    while not (await games.get(game_id)).over:
        assert (await games.submit(game_id, seat, {"type": "add", "n": 1})).ok
        seat = 1 - seat
    threads: set[int] = set()
    setup, view = type(ENGINE).setup, type(ENGINE).view

    def watched_setup(self: Any, *args: Any, **kwargs: Any) -> Any:
        threads.add(threading.get_ident())
        return setup(self, *args, **kwargs)

    def watched_view(self: Any, *args: Any, **kwargs: Any) -> Any:
        threads.add(threading.get_ident())
        return view(self, *args, **kwargs)

    monkeypatch.setattr(type(ENGINE), "setup", watched_setup)
    monkeypatch.setattr(type(ENGINE), "view", watched_view)
    r = await client.get(f"/api/rooms/{room_id}/games/{game_id}/state?seq=3", headers=auth)
    assert r.status_code == 200 and r.json()["seq"] == 3
    assert threads and threading.get_ident() not in threads
    assert asyncio.get_running_loop().is_running()


def test_a_token_bucket_allows_a_burst_then_refills_at_its_pace() -> None:
    from geniusnight.server.rooms.usecases import TokenBucket

    bucket = TokenBucket(per_minute=2)
    assert bucket.take("host", now=0.0) and bucket.take("host", now=0.0)
    assert not bucket.take("host", now=29.0) and bucket.take("other", now=29.0)
    assert bucket.take("host", now=30.0) and not bucket.take("host", now=30.0)


async def test_refused_moves_are_all_counted_and_only_a_sample_is_kept(any_db_url: str) -> None:
    """The tester's flood: one player sends refused moves of 16 KiB as fast as they can. Each
    sender's first 20 refusals are kept, with their action cut to 1 KiB, at most the game's
    cap (100; 30 here) in all; every refusal is counted, per sender, and the admin's log
    shows the sample and the counts."""
    async with serve(any_db_url) as srv, httpx.AsyncClient(base_url=srv.base) as c:
        host = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        invite = host["invite_url"].rsplit("/", 1)[1]
        members = []
        for name in ("Bo", "Cy"):
            c.cookies.clear()
            members.append((await c.post(f"/api/join/{invite}", json={"name": name})).json())
        auth = {"Authorization": f"Bearer {host['token']}"}
        game_id = (await c.post(f"/api/rooms/{host['room_id']}/start", headers=auth)).json()["game_id"]
        games = srv.state.games
        games.refusals.kept_per_game = 30
        games.refusals.flush_seconds = 3600  # written at the end (close), not on a timer
        big = {"type": "add", "n": 1, "pad": "x" * 16_000}
        flooder, other = members[0]["member_id"], members[1]["member_id"]
        for _ in range(300):
            assert (await games.submit_for(game_id, flooder, big)).code == "not_your_turn"
        for _ in range(15):
            assert (await games.submit_for(game_id, other, {"type": "add", "n": 1})).code == "not_your_turn"
        db = srv.state.db
        async with db.sessions() as s:
            kept = list((await s.execute(select(RefusedAction).order_by(RefusedAction.id))).scalars())
            counted = {r.sender: r.count for r in (await s.execute(select(RefusalCount))).scalars()}
        assert [r.member_id for r in kept] == [flooder] * 20 + [other] * 10
        sent = json.dumps(big, separators=(",", ":"))
        assert all(r.action == {"truncated": sent[:1024], "bytes": len(sent)} for r in kept[:20])
        assert len(kept[0].action["truncated"]) == 1024
        assert kept[20].action == {"type": "add", "n": 1}
        # once their sample (or the game's) is full, a sender's refusals are counted in memory
        # and written every few seconds: here the flooder's 21st on, the other's 12th on
        assert counted == {flooder: 20, other: 11}
        await games.refusals.flush_all()
        log = (await c.get(f"/api/admin/games/{game_id}/log", headers={"Authorization": "Bearer " + "a" * 32})).json()
        assert len(log["refused"]) == 30 and log["refused"][0]["member_id"] == flooder
        counts = {r["member_id"]: r["count"] for r in log["refused_counts"]}
        assert counts == {flooder: 300, other: 15}
        async with db.sessions() as s:
            assert await s.scalar(select(func.count()).select_from(RefusedAction)) == 30


async def test_a_flooding_senders_count_is_written_a_few_seconds_later(client: httpx.AsyncClient, app: Any) -> None:
    room_id, auth = await seated_room(client)
    game_id = (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
    games = app.state.games
    games.refusals.kept_per_sender, games.refusals.flush_seconds = 1, 0.05
    for _ in range(5):
        assert not (await games.submit(game_id, 1, {"type": "add", "n": 1})).ok
    db = app.state.db

    async def count() -> int | None:
        async with db.sessions() as s:
            return await s.scalar(select(RefusalCount.count))

    assert await count() == 1
    await asyncio.sleep(0.3)
    assert await count() == 5
