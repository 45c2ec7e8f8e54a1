"""The same migrations and move pipeline on PostgreSQL (runs when GENIUSNIGHT_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from support import TOY, postgres_database

PG = os.environ.get("GENIUSNIGHT_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.services, pytest.mark.skipif(not PG, reason="GENIUSNIGHT_TEST_POSTGRES_URL not set")]


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """An empty database: ``served`` migrates it."""
    assert PG is not None
    async with postgres_database(PG, "gn_storage") as url:
        yield url


@asynccontextmanager
async def served(pg_url: str) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The app on a freshly migrated ``pg_url``, running, and a client of it."""
    from geniusnight.cli import db_upgrade
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    db_upgrade(pg_url)
    app = create_app(Settings(env="test", database_url=pg_url, extra_engines=[TOY], bot_delay_ms=0))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            yield app, c


async def test_migrations_and_a_whole_game_on_postgres(pg_url: str) -> None:
    async with served(pg_url) as (app, c):
        room = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        auth = {"Authorization": f"Bearer {room['token']}"}
        await c.post(f"/api/rooms/{room['room_id']}/bots", json={"bot": "smart"}, headers=auth)
        game_id = (await c.post(f"/api/rooms/{room['room_id']}/start", headers=auth)).json()["game_id"]
        games = app.state.games
        for _ in range(200):
            live = await games.get(game_id)
            if live.over:
                break
            if 0 in live.engine.to_act(live.state):
                assert (await games.submit(game_id, 0, {"type": "add", "n": 1})).ok
            await asyncio.sleep(0.01)
        live = await games.get(game_id)
        assert live.over
        # a fresh process rebuilds the same state from the log
        games.forget(game_id)
        again = await games.get(game_id)
        assert again.seq == live.seq and again.engine.dump(again.state) == live.engine.dump(live.state)


async def test_a_pooled_connection_the_database_dropped_is_replaced_unseen(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection the pool kept is pinged when it was unused for a while: one the server
    dropped (a restart, a proxy's idle timeout) is replaced, and the request never sees it."""
    import asyncpg

    from geniusnight.storage import postgres

    async with served(pg_url) as (_, c):
        room = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        assert (await c.get(f"/api/rooms/{room['room_id']}")).status_code == 200
        admin = await asyncpg.connect(pg_url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            dropped = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert dropped >= 1
        monkeypatch.setattr(postgres, "PING_AFTER_IDLE", 0.0)  # as if they sat unused a while
        for _ in range(3):
            assert (await c.get(f"/api/rooms/{room['room_id']}")).status_code == 200
