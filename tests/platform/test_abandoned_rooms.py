"""Abandoned rooms end (docs/deploy.md, "Abandoned rooms"): a lobby nobody touched for
``ABANDONED_LOBBY_HOURS`` and a running game nobody touched for ``ABANDONED_GAME_HOURS`` are
closed as an admin's close would (moves refused with ``room_closed``), and deleted with the
finished rooms ``FINISHED_ROOM_DAYS`` later. A join, a chat line or a move is a touch."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from geniusnight.server.admin.service import purge_old_rooms
from geniusnight.storage.models import ChatMessage, Game, Member, Room
from support import TOY, seated_room


@pytest.fixture
async def app(any_db_url: str) -> AsyncIterator[Any]:
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    application = create_app(
        Settings(env="test", database_url=any_db_url, extra_engines=[TOY], bot_delay_ms=0, admin_token="a" * 32)
    )
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"Origin": "http://testserver"}
    ) as c:
        yield c


async def _age(app: Any, room_id: str, at: datetime) -> None:
    """Everything of the room happened at ``at``."""
    async with app.state.db.sessions() as s:
        await s.execute(update(Room).where(Room.id == room_id).values(created_at=at, updated_at=at))
        await s.execute(update(Member).where(Member.room_id == room_id).values(created_at=at))
        await s.execute(update(ChatMessage).where(ChatMessage.room_id == room_id).values(created_at=at))
        await s.execute(update(Game).where(Game.room_id == room_id).values(started_at=at))
        await s.commit()


async def _status(app: Any, room_id: str) -> str | None:
    """The room's status as the database has it (None: deleted)."""
    async with app.state.db.sessions() as s:
        return await s.scalar(select(Room.status).where(Room.id == room_id))


async def test_rooms_nobody_touched_are_closed_then_purged_with_the_finished(
    app: Any, client: httpx.AsyncClient
) -> None:
    services = app.state
    now = datetime.now(UTC)
    retention = services.admin.retention  # the settings the admin service was given
    lobby_hours, game_hours = retention.abandoned_lobby_hours, retention.abandoned_game_hours
    assert (lobby_hours, game_hours) == (24, 72)  # the documented defaults

    quiet_lobby, _ = await seated_room(client)
    joined_lobby, _ = await seated_room(client)  # old, but someone joined within the hours
    chatty_lobby, chatty_auth = await seated_room(client)
    quiet_game, quiet_auth = await seated_room(client)
    moving_game, moving_auth = await seated_room(client)
    young_game, young_auth = await seated_room(client)  # quiet longer than a lobby may be, not a game
    for room_id, auth in ((quiet_game, quiet_auth), (moving_game, moving_auth), (young_game, young_auth)):
        assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).status_code == 200
    r = await client.post(f"/api/rooms/{chatty_lobby}/chat", json={"text": "anyone?"}, headers=chatty_auth)
    assert r.status_code == 200, r.text

    long_ago = now - timedelta(hours=game_hours + 1)
    for room_id in (quiet_lobby, joined_lobby, chatty_lobby, quiet_game, moving_game):
        await _age(app, room_id, long_ago)
    await _age(app, young_game, now - timedelta(hours=lobby_hours + 1))
    async with services.db.sessions() as s:
        await s.execute(
            update(Member).where(Member.room_id == joined_lobby, Member.name == "Grace").values(created_at=now)
        )
        await s.execute(update(ChatMessage).where(ChatMessage.room_id == chatty_lobby).values(created_at=now))
        await s.execute(update(Game).where(Game.room_id == moving_game).values(last_move_at=now))
        game_id = await s.scalar(select(Game.id).where(Game.room_id == quiet_game))
        await s.commit()

    assert await services.admin.close_abandoned_rooms(now) == 2
    assert await _status(app, quiet_lobby) == "closed"
    assert await _status(app, quiet_game) == "closed"
    for room_id in (joined_lobby, chatty_lobby):
        assert await _status(app, room_id) == "lobby"
    for room_id in (moving_game, young_game):
        assert await _status(app, room_id) == "playing"
    # closed as an admin's close: the game refuses every later move, its log stays
    outcome = await services.games.submit(game_id, 0, {"type": "add", "n": 1}, ref="late")
    assert not outcome.ok and outcome.code == "room_closed"
    assert await services.admin.close_abandoned_rooms(now) == 0  # closed once

    # purged FINISHED_ROOM_DAYS after their closing, like finished rooms; the others stay
    days = retention.finished_room_days
    async with services.db.sessions() as s:
        assert await purge_old_rooms(s, days, now + timedelta(days=days - 1)) == 0
    async with services.db.sessions() as s:
        assert await purge_old_rooms(s, days, now + timedelta(days=days, hours=1)) == 2
    assert await _status(app, quiet_game) is None
    assert await _status(app, joined_lobby) == "lobby"


async def test_zero_hours_keeps_abandoned_rooms(app: Any, client: httpx.AsyncClient) -> None:
    services = app.state
    room_id, _ = await seated_room(client)
    await _age(app, room_id, datetime.now(UTC) - timedelta(days=400))
    services.admin.retention = replace(services.admin.retention, abandoned_lobby_hours=0)
    assert await services.admin.close_abandoned_rooms() == 0
    assert await _status(app, room_id) == "lobby"
