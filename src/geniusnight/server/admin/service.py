"""What the admin console reads and does (docs/admin.md): rooms and their games, closing a
room, a game's log with its refused actions, exports and the state at any seq (through
:class:`..replay.logs.GameLogs`), and retention: abandoned rooms closed, old rooms purged."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ...engines import ENGINES
from ...storage.database import Database
from ...storage.models import (
    ChatMessage,
    Game,
    GameSeat,
    Member,
    RefusalCount,
    RefusedAction,
    Room,
    RoomEvent,
    RoomStatus,
)
from ..errors import ApiError
from ..ports import Sockets
from ..replay.logs import GameLogs, game_summary, iso, log_filter, player
from ..rooms.publisher import RoomPublisher
from ..rooms.seats import seat_entries
from ..rooms.statements import invite_path

log = logging.getLogger(__name__)


def _seat_names(room: Room, game: Game | None, seated: list[Member]) -> list[dict[str, Any]]:
    if game is not None and room.status != RoomStatus.LOBBY:
        return seat_entries(game.seats)
    return [{"seat": m.seat, "name": m.name, "bot": m.bot, "member_id": m.id} for m in seated]


def _gone(m: Member) -> str | None:
    """How a member went: "left", "removed" (by the host), "gone" (went before that was
    kept), None while they are in the room."""
    return (m.gone or "gone") if m.kicked else None


def _event_json(e: RoomEvent) -> dict[str, Any]:
    return {
        "id": e.id,
        "at": iso(e.created_at),
        "kind": e.kind,
        "actor_id": e.actor_id,
        "actor": e.actor,
        "target_id": e.target_id,
        "target": e.target,
    }


async def _room_or_404(session: AsyncSession, room_id: str) -> Room:
    room = await session.get(Room, room_id)
    if room is None:
        raise ApiError(404, "no_room", "There is no such room.")
    return room


ABANDONED_MESSAGE = "Nobody played in this room for a long time, so it was closed."
ABANDONED_BATCH = 500  # rooms closed per statement (a first run may find many)


def _untouched(status: RoomStatus, since: datetime) -> list[ColumnElement[bool]]:
    """A room of ``status`` nobody touched since ``since``: the room did not change (created,
    options, a game started: ``rooms.updated_at``), nobody joined, nobody chatted, and a
    running game had no move (nor its start) since."""
    quiet = [
        Room.status == status,
        Room.updated_at < since,
        ~exists().where(Member.room_id == Room.id, Member.created_at >= since),
        ~exists().where(ChatMessage.room_id == Room.id, ChatMessage.created_at >= since),
    ]
    if status == RoomStatus.PLAYING:
        last_touch = func.coalesce(Game.last_move_at, Game.started_at)
        quiet.append(~exists().where(Game.id == Room.current_game_id, last_touch >= since))
    return quiet


@dataclass(frozen=True, slots=True)
class Retention:
    """How long the admin service keeps what (docs/admin.md, "Retention"; docs/deploy.md,
    "Abandoned rooms"): the settings of the same names."""

    refused_keep_days: int  # refused actions, shown and kept
    finished_room_days: int  # finished and closed rooms (0: kept for ever)
    abandoned_lobby_hours: float  # a lobby nobody touched is closed (0: never)
    abandoned_game_hours: float  # a running game nobody touched is closed (0: never)


class AdminService:
    def __init__(
        self,
        db: Database,
        close_room: Callable[[str], None],
        sockets: Sockets,
        events: RoomPublisher,
        logs: GameLogs,
        retention: Retention,
    ) -> None:
        self.db = db
        # the game service's: a closed room's cached games refuse every later move
        self.close_room = close_room
        self.sockets = sockets  # this process's connections, shown with a room
        self.events = events
        self.logs = logs
        self.retention = retention

    async def rooms(
        self, status: str | None, game: str | None, q: str | None, limit: int, offset: int
    ) -> dict[str, Any]:
        """Rooms, newest first: ``status`` live (= playing), lobby, finished or closed;
        ``q`` a room id or player name (substring)."""
        stmt = select(Room)
        if status is not None:
            stmt = stmt.where(Room.status == (RoomStatus.PLAYING if status == "live" else RoomStatus(status)))
        if game:
            stmt = stmt.where(Room.game == game)
        if q and q.strip():
            needle = q.strip()
            by_name = select(Member.room_id).where(func.lower(Member.name).contains(needle.lower(), autoescape=True))
            stmt = stmt.where(or_(Room.id.contains(needle, autoescape=True), Room.id.in_(by_name)))
        async with self.db.sessions() as session:
            total = await session.scalar(select(func.count()).select_from(stmt.subquery()))
            rooms = list(
                (await session.execute(stmt.order_by(Room.created_at.desc()).limit(limit).offset(offset))).scalars()
            )
            ids = [r.id for r in rooms]
            game_ids = [r.current_game_id for r in rooms if r.current_game_id is not None]
            games = {g.id: g for g in (await session.execute(select(Game).where(Game.id.in_(game_ids)))).scalars()}
            members: dict[str, list[Member]] = {}
            rows = await session.execute(
                select(Member)
                .where(Member.room_id.in_(ids), Member.seat.is_not(None), Member.kicked.is_(False))
                .order_by(Member.seat)
            )
            for m in rows.scalars():
                members.setdefault(m.room_id, []).append(m)
            counts = dict(
                (
                    await session.execute(
                        select(Game.room_id, func.count()).where(Game.room_id.in_(ids)).group_by(Game.room_id)
                    )
                )
                .tuples()
                .all()
            )
        out = []
        for r in rooms:
            current = games.get(r.current_game_id) if r.current_game_id is not None else None
            out.append(
                {
                    "id": r.id,
                    "game": r.game,
                    "status": r.status,
                    "players": [s["name"] for s in _seat_names(r, current, members.get(r.id, []))],
                    "created_at": iso(r.created_at),
                    "updated_at": iso(r.updated_at),
                    "game_id": r.current_game_id,
                    "games": counts.get(r.id, 0),
                    "last_seq": current.last_seq if current else None,
                    "last_move_at": iso(current.last_move_at) if current else None,
                }
            )
        return {"total": total or 0, "rooms": out, "games": sorted(ENGINES)}

    async def room(self, room_id: str) -> dict[str, Any]:
        """A room: seats, members, this process's connections, games."""
        async with self.db.sessions() as session:
            room = await _room_or_404(session, room_id)
            all_members = list(
                (await session.execute(select(Member).where(Member.room_id == room_id).order_by(Member.id))).scalars()
            )
            games = list(
                (await session.execute(select(Game).where(Game.room_id == room_id).order_by(Game.id))).scalars()
            )
            events = list(
                (
                    await session.execute(select(RoomEvent).where(RoomEvent.room_id == room_id).order_by(RoomEvent.id))
                ).scalars()
            )
            # once a game started, its seats are the truth (the lobby's close up after a leave)
            in_game = room.status != RoomStatus.LOBBY and room.current_game_id is not None
            game_seats: dict[int, int] = {}
            if in_game:
                rows = await session.execute(
                    select(GameSeat.member_id, GameSeat.seat).where(GameSeat.game_id == room.current_game_id)
                )
                game_seats = {member_id: seat for member_id, seat in rows.tuples() if member_id is not None}
        seated = sorted((m for m in all_members if m.seat is not None and not m.kicked), key=lambda m: m.seat or 0)
        current = next((g for g in games if g.id == room.current_game_id), None)
        connections = [
            {"member_id": c.member_id, "seat": c.seat, "name": c.name, "closed": c.closed, "last_seq": c.last_seq}
            for c in sorted(self.sockets.room_connections(room_id), key=lambda c: (c.seat is None, c.seat or 0, c.name))
        ]
        return {
            "id": room.id,
            "game": room.game,
            "status": room.status,
            "options": room.options,
            "time_limits": room.time_limits,
            "invite_path": invite_path(room.invite),
            "host_member_id": room.host_member_id,
            "created_at": iso(room.created_at),
            "updated_at": iso(room.updated_at),
            "game_id": room.current_game_id,
            "seats": _seat_names(room, current, seated),
            "members": [
                {
                    "id": m.id,
                    "name": m.name,
                    # the seat they hold: in the current game once one started, else in the lobby
                    "seat": None if m.kicked else game_seats.get(m.id) if in_game else m.seat,
                    "seat_in": "game" if in_game else "lobby",
                    "bot": m.bot,
                    "gone": _gone(m),
                    "muted": m.muted,
                    "host": m.id == room.host_member_id,
                    "joined_at": iso(m.created_at),
                }
                for m in all_members
            ],
            "connections": connections,
            "games": [game_summary(g) for g in games],
            "locked": room.locked,
            "events": [_event_json(e) for e in events],
        }

    async def close(self, room_id: str, message: str) -> bool:
        """Close a room: its players are told, its games refuse every later move, the log
        stays. Returns whether it was closed already."""
        async with self.db.sessions() as session:
            room = await _room_or_404(session, room_id)
            already = room.status == RoomStatus.CLOSED
            room.status = RoomStatus.CLOSED
            room.updated_at = datetime.now(UTC)
            await session.commit()
        self.close_room(room_id)  # bots and clocks stop here at once
        await self.events.publish_closed(room_id, message)
        return already

    async def game_log(self, game_id: int, seat: str | None, action_type: str | None) -> dict[str, Any]:
        """A game's full log and its refused actions within their keep time."""
        logs = self.logs
        game = await logs.game(game_id)
        out = await logs.log(game, seat=seat, action_type=action_type)
        keep = self.retention.refused_keep_days
        cutoff = datetime.now(UTC) - timedelta(days=keep)
        # older ones are past their keep time: hidden here, deleted by the housekeeping task
        keep_row = log_filter(seat, action_type)
        refused = []
        async with self.db.sessions() as session:
            rows = await session.execute(
                select(RefusedAction)
                .where(RefusedAction.game_id == game_id, RefusedAction.created_at >= cutoff)
                .order_by(RefusedAction.id)
            )
            for r in rows.scalars():
                if not keep_row(r.seat, r.action):
                    continue
                refused.append(
                    {
                        "id": r.id,
                        "at_seq": r.at_seq,
                        "seat": r.seat,
                        "player": player(game, r.seat),
                        "at": iso(r.created_at),
                        "code": r.code,
                        "message": r.message,
                        "action": r.action,
                        "member_id": r.member_id,
                    }
                )
            counts = await session.execute(
                select(RefusalCount)
                .where(RefusalCount.game_id == game_id, RefusalCount.last_at >= cutoff)
                .order_by(RefusalCount.sender)
            )
            # every refusal counted, by sender (the sample above keeps only the first few)
            out["refused_counts"] = [
                {
                    "member_id": c.sender or None,
                    "count": c.count,
                    "first_at": iso(c.first_at),
                    "last_at": iso(c.last_at),
                }
                for c in counts.scalars()
            ]
        out["refused"] = refused
        out["refused_keep_days"] = keep
        return out

    async def export(self, game_id: int) -> dict[str, Any]:
        logs = self.logs
        return await logs.export(await logs.game(game_id))

    async def state(self, game_id: int, seq: int | None) -> dict[str, Any]:
        """The full state at ``seq``, with every seat's and the spectator's view."""
        logs = self.logs
        return await logs.state_at(await logs.game(game_id), seq)

    async def purge(self) -> None:
        """Retention (docs/admin.md; docs/deploy.md, "Abandoned rooms"): rooms nobody
        touched for long are closed, old refused actions and old finished rooms deleted."""
        closed = await self.close_abandoned_rooms()
        if closed:
            log.info("closed %d abandoned rooms", closed)
        async with self.db.sessions() as s:
            await purge_old_refused(s, self.retention.refused_keep_days)
            if self.retention.finished_room_days:
                await purge_old_rooms(s, self.retention.finished_room_days)

    async def close_abandoned_rooms(self, now: datetime | None = None) -> int:
        """Close lobbies nobody touched for ``ABANDONED_LOBBY_HOURS`` and running games nobody
        touched for ``ABANDONED_GAME_HOURS`` (0: never), as an admin's close does: anyone still
        connected is told, bots and clocks stop, the log stays. They are then purged with the
        finished rooms, ``FINISHED_ROOM_DAYS`` after (docs/deploy.md, "Abandoned rooms")."""
        retention = self.retention
        now = now or datetime.now(UTC)
        closed = 0
        for status, hours in (
            (RoomStatus.LOBBY, retention.abandoned_lobby_hours),
            (RoomStatus.PLAYING, retention.abandoned_game_hours),
        ):
            if not hours:
                continue
            since = now - timedelta(hours=hours)
            while True:
                async with self.db.sessions() as session:
                    batch = select(Room.id).where(*_untouched(status, since)).limit(ABANDONED_BATCH)
                    candidates = list((await session.execute(batch)).scalars())
                    if not candidates:
                        break
                    # the same test again as the rows change: a room someone touched meanwhile stays
                    result = await session.execute(
                        update(Room)
                        .where(Room.id.in_(candidates), *_untouched(status, since))
                        .values(status=RoomStatus.CLOSED, updated_at=now, version=Room.version + 1)
                        .returning(Room.id)
                    )
                    room_ids = list(result.scalars())
                    await session.commit()
                for room_id in room_ids:
                    self.close_room(room_id)
                    await self.events.publish_closed(room_id, ABANDONED_MESSAGE)
                closed += len(room_ids)
                if len(candidates) < ABANDONED_BATCH:
                    break
        return closed


async def purge_old_refused(session: AsyncSession, keep_days: int, now: datetime | None = None) -> int:
    """Delete refused actions, and counts of them, older than ``keep_days`` (they are
    debugging records only)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=keep_days)
    result = await session.execute(delete(RefusedAction).where(RefusedAction.created_at < cutoff))
    await session.execute(delete(RefusalCount).where(RefusalCount.last_at < cutoff))
    await session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


async def purge_old_rooms(session: AsyncSession, days: int, now: datetime | None = None) -> int:
    """Delete rooms finished or closed more than ``days`` ago, with their games, logs, members
    and chat (docs/admin.md, "Retention": export what you want to keep before then)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    result = await session.execute(
        delete(Room).where(Room.status.in_((RoomStatus.FINISHED, RoomStatus.CLOSED)), Room.updated_at < cutoff)
    )
    await session.commit()
    return int(getattr(result, "rowcount", 0) or 0)
