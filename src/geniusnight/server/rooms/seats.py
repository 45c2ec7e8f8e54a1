"""A game's seat list (``Game.seats``): who plays each seat, a member or a bot."""

from __future__ import annotations

from typing import Any

from ...engines import get_engine


def stand_in(engine: str) -> str:
    """The bot that plays a seat nobody plays: the game's default bot."""
    return get_engine(engine).info.default_bot


def seat_entries(seats: list[dict[str, Any]], *, member_ids: bool = True) -> list[dict[str, Any]]:
    """A game's seats (``Game.seats``) as JSON (seat, name, bot and, for the admin,
    member_id): shaped here only."""
    entries = []
    for i, s in enumerate(seats):
        entry = {"seat": i, "name": s.get("name"), "bot": s.get("bot")}
        if member_ids:
            entry["member_id"] = s.get("member_id")
        entries.append(entry)
    return entries


def new_seat(member_id: int, name: str, bot: str | None, away_by: str | None, engine: str) -> dict[str, Any]:
    """A new game's seat for a member: a bot stands in for a member who is away."""
    if bot is None and away_by is not None:
        return {"name": name, "member_id": member_id, "bot": stand_in(engine), "away": True}
    return {"name": name, "member_id": member_id, "bot": bot}
