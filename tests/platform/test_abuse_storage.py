"""What one person can make the server store or compute stays bounded (docs/deploy.md, "Abuse
limits", "Storage and rooms"): a room's options have a size limit and a rate limit, and a
finished game's replay is rebuilt off the event loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from geniusnight.bench.toy import ENGINE
from support import seated_room


async def host_room(client: httpx.AsyncClient, game: str = "count21") -> tuple[str, dict[str, str]]:
    r = await client.post("/api/rooms", json={"game": game, "name": "Ada"})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return r.json()["room_id"], {"Authorization": f"Bearer {r.json()['token']}"}


def deck(words: int) -> list[str]:
    return [f"word{i:06d}" for i in range(words)]


async def test_an_option_over_its_size_limit_is_refused_with_options_too_large(client: httpx.AsyncClient) -> None:
    """OPTION_MAX_BYTES (192 KiB): the tester's 150,000-word deck (1.5 MiB) is refused, on
    creating the room and on changing its options; a deck of 5,000 words is welcome."""
    big = deck(150_000)
    r = await client.post("/api/rooms", json={"game": "genius-idea", "name": "Ada", "options": {"words": big}})
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"
    room_id, auth = await host_room(client, "genius-idea")
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"words": big}}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"words": deck(5_000)}}, headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["custom_options"] == ["words"]


async def test_an_option_file_over_the_size_limit_is_refused_with_options_too_large(
    client: httpx.AsyncClient,
) -> None:
    room_id, auth = await host_room(client, "genius-idea")
    data = "\n".join(deck(40_000)).encode()  # 440 KiB of text: under the 1 MiB upload limit
    r = await client.post(f"/api/rooms/{room_id}/options/words/file", files={"file": ("deck.txt", data)}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"


async def test_all_options_together_have_a_size_limit(client: httpx.AsyncClient, app: Any) -> None:
    """OPTIONS_MAX_BYTES: each option may fit and all of them together still not."""
    settings = app.state.services.settings
    settings.option_max_bytes, settings.options_max_bytes = 1024, 1500
    room_id, auth = await host_room(client)
    fits = list(range(280))  # 1,011 bytes of JSON
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"secrets": fits}}, headers=auth)
    assert r.status_code == 200, r.text
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"secrets": list(range(400))}}, headers=auth)
    assert r.status_code == 413 and "secrets" in r.json()["message"]
    settings.options_max_bytes = 1000
    r = await client.patch(f"/api/rooms/{room_id}", json={"options": {"target": 30}}, headers=auth)
    assert r.status_code == 413 and r.json()["code"] == "options_too_large"


async def test_option_changes_are_rate_limited_per_member(client: httpx.AsyncClient, app: Any) -> None:
    """OPTION_CHANGES_PER_MINUTE (20): the 21st change within a minute gets 429 options_rate;
    another host is not held back by it."""
    per = app.state.services.settings.option_changes_per_minute
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
    games = app.state.services.games
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
