"""The tables, as SQLAlchemy ORM models, and the text a JSON column stores.

A game is its options, seed and the ordered list of accepted moves; the unique
``(game_id, seq)`` index is what keeps moves strictly ordered, even between processes.
A seat belongs to one member: unique ``(room_id, seat)`` for the lobby and unique
``(game_id, seat)`` and ``(game_id, member_id)`` for a game, so that of two joins racing
for a seat exactly one wins, on every database.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    event,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


def dumps_json(value: Any) -> str:
    """The text stored in a JSON column: orjson's, as every move writes its action and game
    (the standard library's encoder took a fiftieth of a busy server's CPU), and the
    standard library's for what orjson refuses (an integer past 64 bits, a key that is not
    text). Read back with the standard library, which reads every integer exactly.

    >>> dumps_json({"cells": [[1, 2]], "word": "Käse"}), dumps_json({1: 2**70})
    ('{"cells":[[1,2]],"word":"Käse"}', '{"1": 1180591620717411303424}')
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: DateTime(timezone=True)}


class RoomStatus(StrEnum):
    """Where a room stands. Read from the database as these values (never a bare string), so a
    status no one knows cannot get past the storage layer."""

    LOBBY = "lobby"  # seats fill, the host sets the options
    PLAYING = "playing"  # its current game runs
    FINISHED = "finished"  # its current game is over; the host may start a rematch
    CLOSED = "closed"  # an admin closed it: nobody joins or plays any more


class Room(Base):
    __tablename__ = "rooms"
    # retention reads rooms by status and age (migration 0007)
    __table_args__ = (
        Index("ix_rooms_status_updated_at", "status", "updated_at"),
        Index("ix_rooms_code", "code", unique=True),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite: Mapped[str] = mapped_column(String(64), unique=True)  # the invite link token
    # the short code people type to join (server/rooms/codes.py; migration 0009), and
    # whether the host lets it admit people
    code: Mapped[str | None] = mapped_column(String(8), nullable=True)
    code_open: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # the host locked the room: no newcomers by invite or code; members come back (migration 0010)
    locked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # phase name -> seconds; the system's timeout action runs when one passes
    time_limits: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[RoomStatus] = mapped_column(
        Enum(RoomStatus, native_enum=False, length=16, values_callable=lambda e: [s.value for s in e]),
        default=RoomStatus.LOBBY,
    )
    host_member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    current_game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # one more with every change a room frame shows (see bump_room_versions): processes
    # that pass room snapshots to each other keep the newest, whatever order they arrive in
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Member(Base):
    """Anyone in a room: a seated player, a bot seat, or a spectator (``seat`` is None).

    ``seat`` is the lobby seat, the one the member gets in the room's next game; the seats
    of a game that has started are its :class:`GameSeat` rows."""

    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("room_id", "seat", name="uq_members_room_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bot policy id
    kicked: Mapped[bool] = mapped_column(Boolean, default=False)  # no longer in the room (see ``gone``)
    # how they went (migration 0010): "left" on their own, "removed" by the host; None while
    # they are here, and for those who went before the column was kept (shown as "gone")
    gone: Mapped[str | None] = mapped_column(String(8), nullable=True)
    muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the host muted their chat
    # a bot stands in for the member at their game seats while they are away: "host" (the
    # host handed the seat over; it ends when they come back) or "self" (they asked; it ends
    # when they take the seat back). None: they play their seats themselves.
    away_by: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    engine: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    # by seat: {"name", "member_id", "bot"}
    seats: Mapped[list[Any]] = mapped_column(default=list)
    time_limits: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    last_move_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # the running phase's deadline (survives restarts); None when no limit applies; indexed
    # for the driver's sweep (migration 0007)
    deadline_at: Mapped[datetime | None] = mapped_column(nullable=True, index=True)
    deadline_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class GameSeat(Base):
    """Who holds a seat of a game: set when the game starts, from the lobby seats.

    ``member_id`` is None once nobody holds the seat any more (its member was kicked and a
    bot plays it). Who plays a seat right now (the member or a bot) is in ``Game.seats``: a
    seat whose member is away is still theirs, a bot only stands in (``"away": true``)."""

    __tablename__ = "game_seats"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_game_seats_game_seat"),
        UniqueConstraint("game_id", "member_id", name="uq_game_seats_game_member"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id", ondelete="SET NULL"), nullable=True)


class Move(Base):
    __tablename__ = "moves"
    # one index: by game and seq (a game's log is read in order). Refs are looked up in
    # the game's cache, which replays them from the log, never in the database.
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_moves_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the system
    # the member who sent it; None for the server's own moves (bots, timeouts). A ref is
    # unique per sender, so no client can take a ref the server will use.
    member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column()
    ref: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RefusedAction(Base):
    """A refused move, kept for a while for debugging reports (admin only): a sample, the
    first few of each sender and of each game, its action cut short when it is large
    (play/refusals.py); every refusal is counted in :class:`RefusalCount`."""

    __tablename__ = "refused_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at_seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the member who sent it; None for the server's own moves (bots, timeouts)
    member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    code: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RefusalCount(Base):
    """How many moves of one sender a game refused, and when the first and the last came."""

    __tablename__ = "refusal_counts"
    __table_args__ = (UniqueConstraint("game_id", "sender", name="uq_refusal_counts_game_sender"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    sender: Mapped[int] = mapped_column(Integer)  # the member's id; 0 for the server's own moves
    count: Mapped[int] = mapped_column(Integer)
    first_at: Mapped[datetime] = mapped_column()
    last_at: Mapped[datetime] = mapped_column()


@event.listens_for(Session, "before_flush")
def bump_room_versions(session: Session, flush_context: Any, instances: Any) -> None:
    """A transaction that changes a room, one of its members or one of its games counts one
    more version of that room, once, in its first flush that does.

    The version is read first of all when a room's snapshot is built, so a snapshot carries
    at most the version of what it shows (docs/deploy.md, "How the processes cooperate"). Rows a
    flush inserts with their room start at version 0; a room the flush deletes needs none."""
    dirty = session.dirty  # built anew from the identity map at each access: once here
    touched = {o.room_id for o in (*session.new, *dirty, *session.deleted) if isinstance(o, Member | Game)}
    touched |= {o.id for o in dirty if isinstance(o, Room)}
    bumped: set[str] = session.info.setdefault("rooms_bumped", set())
    touched -= bumped
    if touched:
        bumped |= touched
        table = Room.__table__
        session.connection().execute(
            table.update().where(table.c.id.in_(sorted(touched))).values(version=table.c.version + 1)  # type: ignore[attr-defined]
        )


@event.listens_for(Session, "after_transaction_end")
def _forget_bumped_rooms(session: Session, transaction: Any) -> None:
    if transaction.parent is None:
        session.info.pop("rooms_bumped", None)


class AdminSession(Base):
    """A logged-in admin browser: the admin cookie works only while its row is here, so a
    logout ends the session on the server, whoever kept a copy of the cookie."""

    __tablename__ = "admin_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the cookie's session id
    expires_at: Mapped[datetime] = mapped_column()


class RoomEvent(Base):
    """One line of a room's audit log: what its host did to the room or its members (a
    removal, a mute, a lock, a new invite) and who left. Shown to the admin (docs/admin.md,
    "Audit"); deleted with its room."""

    __tablename__ = "room_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    actor_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the member who did it
    actor: Mapped[str | None] = mapped_column(String(32), nullable=True)  # their name then
    target_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the member it was done to
    target: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
