"""``sqlite+aiosqlite:///:memory:``: a server on an in-memory database migrates it itself and
serves whole games from it (for tests and demos: docs/deploy.md, "An in-memory database")."""

from __future__ import annotations

import asyncio

import httpx

from support import TOY

MEMORY = "sqlite+aiosqlite:///:memory:"


async def test_a_server_on_an_in_memory_database_starts_and_plays_a_whole_game() -> None:
    from geniusnight.cli import db_upgrade
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    db_upgrade(MEMORY)  # what `geniusnight serve` runs first: harmless, its database is another
    app = create_app(
        Settings(env="test", database_url=MEMORY, extra_engines=[TOY], bot_delay_ms=0, admin_token="a" * 32)
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", headers={"Origin": "http://t"}) as c:
            host = (
                await c.post("/api/rooms", json={"game": "count21", "name": "Ada", "options": {"target": 5}})
            ).json()
            auth = {"Authorization": f"Bearer {host['token']}"}
            room_id = host["room_id"]
            assert (await c.post(f"/api/rooms/{room_id}/bots", json={"bot": "smart"}, headers=auth)).status_code == 200
            game_id = (await c.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"]
            games = app.state.games
            while not (live := await games.get(game_id)).over:
                if 0 in live.engine.to_act(live.state):
                    assert (await games.submit(game_id, 0, {"type": "add", "n": 1})).ok
                await asyncio.sleep(0.01)  # the bot's turn
            games.forget(game_id)  # the log, read back from the database, gives the same game
            again = await games.get(game_id)
            assert again.over and again.seq == live.seq
            assert (await c.get(f"/api/rooms/{room_id}", headers=auth)).json()["status"] == "finished"
            log = (
                await c.get(f"/api/admin/games/{game_id}/log", headers={"Authorization": "Bearer " + "a" * 32})
            ).json()
            assert len(log["moves"]) == live.seq
