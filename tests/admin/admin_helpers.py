"""Helpers for the admin tests: a two-player toy game (count21) played in-process."""

from __future__ import annotations

from typing import Any

import httpx

ADMIN = "a" * 32  # the conftest app's admin token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def two_players(app: Any, target: int = 21, names: tuple[str, str] = ("Ada", "Grace")) -> dict[str, Any]:
    """A room with two seated people; the game started. Returns ids and both seat tokens."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        r = await c.post(
            "/api/rooms", json={"game": "count21", "options": {"target": target, "secrets": [4, 7]}, "name": names[0]}
        )
        host = r.json()
        invite = host["invite_url"].rsplit("/", 1)[1]
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        guest = (await c.post(f"/api/join/{invite}", json={"name": names[1]})).json()
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        started = (await c.post(f"/api/rooms/{host['room_id']}/start", headers=bearer(host["token"]))).json()
    return {
        "room_id": host["room_id"],
        "game_id": started["game_id"],
        "tokens": [host["token"], guest["token"]],
        "invite": invite,
    }


async def move(app: Any, game_id: int, seat: int | None, action: Any) -> Any:
    return await app.state.games.submit(game_id, seat, action)


async def play_to_end(app: Any, game_id: int, steps: list[int] | None = None) -> int:
    """Seats alternate adding ``steps`` (default 3s) until the toy game ends; returns last seq."""
    live = await app.state.games.get(game_id)
    i = 0
    while not live.over:
        n = (steps or [])[i] if steps and i < len(steps) else 3
        out = await move(app, game_id, live.state.turn, {"type": "add", "n": n})
        assert out.ok, out
        i += 1
    return int(live.seq)
