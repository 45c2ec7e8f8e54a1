"""The Core statements of server/rooms/, all of them (the rule: :mod:`.service`'s docstring),
built once on the models' tables and run on a synchronous ``Connection``. A start counts the
room's version itself, as the session's flush does for the service's changes.

- A room's snapshot and a game's start, read and written at every connect, game start and
  end: through the ORM they cost several times as much (docs/performance.md, D6).
- What every change of a room's seats, members or games shares with them: the room's lock
  first, a lost race told apart, and the lobby's seats renumbered. RoomService runs the lock
  and the renumbering on its session's connection."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from ...engines import get_engine
from ...storage.models import ChatMessage, Game, GameSeat, Member, Room, RoomStatus
from ...storage.postgres import lost_to_another_transaction
from ...storage.sqlite import is_locked
from ..errors import ApiError
from ..play.events import RoomSnapshot
from .options import check_options
from .refusals import no_room, not_host, not_in_lobby, not_member
from .seats import new_seat, seat_entries

SEATING_TRIES = 8  # a change of seats that lost a race to another one is tried again this often

ROOMS: Table = Room.__table__  # type: ignore[assignment]
MEMBERS: Table = Member.__table__  # type: ignore[assignment]
GAMES: Table = Game.__table__  # type: ignore[assignment]
GAME_SEATS: Table = GameSeat.__table__  # type: ignore[assignment]
CHAT: Table = ChatMessage.__table__  # type: ignore[assignment]

# a room snapshot's statements (RoomService.read_snapshot), built once: building them cost as
# much as running them
_SNAPSHOT_ROOM = (
    select(
        ROOMS.c.version,
        ROOMS.c.game,
        ROOMS.c.options,
        ROOMS.c.time_limits,
        ROOMS.c.status,
        ROOMS.c.host_member_id,
        ROOMS.c.current_game_id,
        ROOMS.c.invite,
        ROOMS.c.code,
        ROOMS.c.code_open,
        ROOMS.c.locked,
        GAMES.c.seats,
        GAMES.c.result,
        select(func.count())
        .select_from(MEMBERS)
        .where(MEMBERS.c.room_id == ROOMS.c.id, MEMBERS.c.seat.is_(None), MEMBERS.c.kicked.is_(False))
        .scalar_subquery()
        .label("spectators"),
    )
    .select_from(ROOMS.outerjoin(GAMES, GAMES.c.id == ROOMS.c.current_game_id))
    .where(ROOMS.c.id == bindparam("room_id"))
)
# the lobby's seated members, by seat: a snapshot's seats, and a new game's
_SEATED = (
    select(MEMBERS.c.id, MEMBERS.c.seat, MEMBERS.c.name, MEMBERS.c.bot, MEMBERS.c.away_by)
    .where(MEMBERS.c.room_id == bindparam("room_id"), MEMBERS.c.seat.is_not(None), MEMBERS.c.kicked.is_(False))
    .order_by(MEMBERS.c.seat)
)
# a game start's statements (start_game): the room as a snapshot reads it, and whether the
# token is a member of it (None: no member of this room holds it, or they were kicked)
_START_ROOM = _SNAPSHOT_ROOM.add_columns(
    select(MEMBERS.c.id)
    .where(
        MEMBERS.c.token_hash == bindparam("token_hash"),
        MEMBERS.c.room_id == ROOMS.c.id,
        MEMBERS.c.kicked.is_(False),
    )
    .scalar_subquery()
    .label("caller_id")
)
# the room's row lock, taken first by every change of a room's seats, members or games
# (lock_room): PostgreSQL's FOR NO KEY UPDATE (it leaves the foreign-key checks of chat lines
# and new games alone); on SQLite a write, which takes the database's one write lock
_LOCK_ROOM = select(ROOMS.c.id).where(ROOMS.c.id == bindparam("room_id")).with_for_update(key_share=True)
_LOCK_ROOM_SQLITE = update(ROOMS).where(ROOMS.c.id == bindparam("room_id")).values(version=ROOMS.c.version)
# the lobby's seats renumbered (renumber_seats)
_UNSEAT = update(MEMBERS).where(MEMBERS.c.id.in_(bindparam("ids", expanding=True))).values(seat=None)
_SEAT = update(MEMBERS).where(MEMBERS.c.id == bindparam("member_id")).values(seat=bindparam("new_seat"))
_INSERT_GAME = insert(GAMES).returning(GAMES.c.id)
_INSERT_GAME_SEATS = insert(GAME_SEATS)
_PLAYING = (
    update(ROOMS)
    .where(ROOMS.c.id == bindparam("room_id"), ROOMS.c.version == bindparam("read_version"))
    .values(
        current_game_id=bindparam("game_id"),
        status=RoomStatus.PLAYING,
        updated_at=bindparam("now"),
        version=ROOMS.c.version + 1,
    )
)


# a socket's admission (read_admission): the open room, the member who holds the token in it
# (none: no member of this room holds it, or they were kicked) and their seat in its current
# game, in one statement
_ADMISSION = (
    select(
        ROOMS.c.current_game_id,
        ROOMS.c.status,
        ROOMS.c.host_member_id,
        MEMBERS.c.id.label("member_id"),
        MEMBERS.c.name,
        MEMBERS.c.seat,
        MEMBERS.c.away_by,
        MEMBERS.c.muted,
        GAME_SEATS.c.seat.label("game_seat"),
    )
    .select_from(ROOMS)
    .outerjoin(
        MEMBERS,
        (MEMBERS.c.room_id == ROOMS.c.id)
        & (MEMBERS.c.token_hash == bindparam("token_hash"))
        & MEMBERS.c.kicked.is_(False),
    )
    .outerjoin(
        GAME_SEATS,
        (GAME_SEATS.c.game_id == ROOMS.c.current_game_id) & (GAME_SEATS.c.member_id == MEMBERS.c.id),
    )
    .where(ROOMS.c.id == bindparam("room_id"), ROOMS.c.status != RoomStatus.CLOSED)
)
_RECENT_CHAT = (
    select(CHAT.c.id, CHAT.c.name, CHAT.c.seat, CHAT.c.text, CHAT.c.created_at)
    .where(CHAT.c.room_id == bindparam("room_id"))
    .order_by(CHAT.c.id.desc())
    .limit(bindparam("limit"))
)


def read_admission(conn: Connection, room_id: str, token_hash: str | None) -> Any:
    """The room ``room_id`` and the caller, for a socket that opens: a row with the room's
    ``status``, ``current_game_id`` and ``host_member_id``, and the member who holds
    ``token_hash`` in it (``member_id`` None if none does) with their ``name``, lobby ``seat``,
    ``away_by``, ``muted`` and ``game_seat`` (their seat in the current game, if one started).
    None if there is no such open room."""
    return conn.execute(_ADMISSION, {"room_id": room_id, "token_hash": token_hash}).one_or_none()


def read_room_as(conn: Connection, room_id: str, token_hash: str | None) -> tuple[Any, RoomSnapshot | None]:
    """:func:`read_admission` and :func:`read_snapshot` of the room, read together (one
    transaction: the caller's seat is one of the snapshot's)."""
    return read_admission(conn, room_id, token_hash), read_snapshot(conn, room_id)


def read_recent_chat(conn: Connection, room_id: str, limit: int = 50) -> list[dict[str, Any]]:
    """The room's last ``limit`` chat messages, oldest first, as the room shows them."""
    return [chat_json(m) for m in reversed(conn.execute(_RECENT_CHAT, {"room_id": room_id, "limit": limit}).all())]


def chat_json(m: Any) -> dict[str, Any]:
    """A chat message (a ``ChatMessage``, or a row of its columns) as the room shows it."""
    return {"id": m.id, "name": m.name, "seat": m.seat, "text": m.text, "at": m.created_at.isoformat()}


def invite_path(invite: str) -> str:
    """The invite as a path (the room's ``invite_path``, what its link and QR code open)."""
    return f"/join/{invite}"


def lost_race(e: DBAPIError) -> bool:
    """Whether ``e`` only says that another transaction got there first (SQLite: another
    process holds the write lock; PostgreSQL: a deadlock or a serialization failure), so that
    the transaction may be tried again from what is there now."""
    return lost_to_another_transaction(e) or is_locked(e)


def lock_room(conn: Connection, room_id: str) -> None:
    """Lock the room's row, before anything else in the transaction is written. Every change
    of a room's seats, members or games takes this lock first, so two of them run one after
    the other and never wait for each other's rows in opposite orders (a deadlock, which
    PostgreSQL ends by failing one of them); and whatever they count under it (the members,
    the free seats) stays true until they commit."""
    conn.execute(_LOCK_ROOM_SQLITE if conn.dialect.name == "sqlite" else _LOCK_ROOM, {"room_id": room_id})


def renumber_seats(conn: Connection, seated: Sequence[tuple[int, int | None]]) -> bool:
    """Give the lobby's seated members, ``(member id, seat)`` in the order of their seats,
    the seats 0..n-1: first none, then the new one, since the unique (room, seat) index
    refuses a member moving onto a seat another still holds. Returns whether a seat moved.
    A start and a member's leaving renumber alike, here."""
    if all(seat == i for i, (_, seat) in enumerate(seated)):
        return False
    conn.execute(_UNSEAT, {"ids": [member_id for member_id, _ in seated]})
    conn.execute(_SEAT, [{"member_id": member_id, "new_seat": i} for i, (member_id, _) in enumerate(seated)])
    return True


def read_snapshot(conn: Connection, room_id: str) -> RoomSnapshot | None:
    """The room as every member may see it, but for who is online (see RoomSnapshot), as
    ``conn``'s transaction sees it (None: no such room, or it was closed). The room's
    row, with its version, its current game and its spectator count, comes in one
    statement before the rest, so the snapshot carries at most the version of what it
    shows. It names the room's current (or last) game, not every game it played: its size
    stays the same however many rematches a room plays.

    Core statements built once, not the ORM: a snapshot is read at every game's start and
    end and at every connect and disconnect, and through the ORM it would cost 3.6 times as
    much (docs/performance.md, D6)."""
    room = conn.execute(_SNAPSHOT_ROOM, {"room_id": room_id}).one_or_none()
    if room is None or room.status == RoomStatus.CLOSED:
        return None
    return snapshot_of(conn, room_id, room)


def snapshot_of(conn: Connection, room_id: str, room: Any) -> RoomSnapshot:
    """The snapshot of the room whose row is ``room`` (``_SNAPSHOT_ROOM``'s columns, as
    attributes); a lobby's seats are read on ``conn``."""
    engine = get_engine(room.game)
    if room.seats is not None and room.status != RoomStatus.LOBBY:
        # once the game runs, its seat list is the truth (kicked players became bots, a
        # bot stands in for those away)
        members = [s.get("member_id") for s in room.seats]
        seats = [
            {
                **entry,
                "away": bool(s.get("away")),
                "online": s.get("bot") is not None and not s.get("away"),
                "host": s.get("member_id") == room.host_member_id,
            }
            for entry, s in zip(seat_entries(room.seats, member_ids=False), room.seats, strict=True)
        ]
    else:
        seated = conn.execute(_SEATED, {"room_id": room_id}).all()
        members = [m.id for m in seated]
        seats = [
            {
                "seat": m.seat,
                "name": m.name,
                "bot": m.bot,
                "away": False,
                "online": m.bot is not None,
                "host": m.id == room.host_member_id,
            }
            for m in seated
        ]
    lo, hi = engine.player_range(room.options)
    # free-form options can fix the deal (a bag order, a deck, identities): never show
    # them to the table, only that they are set
    secret = {o.name for o in engine.info.options if o.kind == "json"}
    public = {
        "id": room_id,
        "game": room.game,
        "title": engine.info.title,
        "status": room.status,
        "options": {k: v for k, v in room.options.items() if k not in secret},
        "custom_options": sorted(k for k in secret if room.options.get(k) is not None),
        "time_limits": room.time_limits,
        "seats": seats,
        "spectators": room.spectators or 0,
        "min_players": lo,
        "max_players": hi,
        "game_id": room.current_game_id,
        "result": room.result,
        "invite_path": invite_path(room.invite),
        "code": room.code,
        "code_open": room.code_open,
        "locked": room.locked,
    }
    return RoomSnapshot(public, room.version, members)


class Changed:
    """A row read earlier with some of its values since changed: ``row``'s attributes, but
    ``changes`` where it names them.

    >>> from types import SimpleNamespace
    >>> row = Changed(SimpleNamespace(a=1, b=2), b=3)
    >>> row.a, row.b
    (1, 3)
    """

    def __init__(self, row: Any, **changes: Any) -> None:
        self.row = row
        self.changes = changes

    def __getattr__(self, name: str) -> Any:
        return self.changes[name] if name in self.changes else getattr(self.row, name)


class RoomChanged(Exception):
    """The room changed between a start's read of it and its write (another process joined,
    kicked or started at the same moment): the start is tried again from what is there now."""


def start_game(
    conn: Connection, room_id: str, token_hash: str | None, *, rematch: bool, snapshot: bool
) -> tuple[Game, RoomSnapshot | None]:
    """The host starts the game (``rematch``: a new one after the last ended) for the lobby
    seats, each member at their seat (seats 0..n-1), in ``conn``'s transaction: the game and
    its seats written, the room playing it. Returns the new game (not in any session) and,
    if ``snapshot``, the room as it is then.

    Core statements in one synchronous transaction, not the ORM: every room's rematch runs
    through here on a busy server, and with its reads and writes through the ORM's session
    a whole start would cost the server twice the CPU (docs/performance.md, D6). The room
    is written only if its version is still the one read (else :class:`RoomChanged`), so two
    starts, or a start and a join, racing on two processes cannot both pass their checks; and
    the room's row is locked first of all, as every change of seats locks it (:func:`lock_room`)."""
    lock_room(conn, room_id)
    room = conn.execute(_START_ROOM, {"room_id": room_id, "token_hash": token_hash}).one_or_none()
    if room is None or room.status == RoomStatus.CLOSED:
        raise no_room()
    if room.caller_id is None:
        raise not_member()
    if room.caller_id != room.host_member_id:
        raise not_host()
    if rematch and room.status != RoomStatus.FINISHED:
        raise ApiError(409, "not_finished", "A rematch starts once the game is over.")
    if not rematch and room.status != RoomStatus.LOBBY:
        raise not_in_lobby()
    seated = conn.execute(_SEATED, {"room_id": room_id}).all()
    engine = get_engine(room.game)
    lo, hi = engine.player_range(room.options)
    if not lo <= len(seated) <= hi:
        raise ApiError(409, "player_count", f"{engine.info.title} with these options needs {lo}-{hi} players.")
    options = check_options(engine, room.options, len(seated))
    renumber_seats(conn, [(m.id, m.seat) for m in seated])
    values = {
        "room_id": room_id,
        "engine": room.game,
        "options": options,
        "seed": secrets.randbits(63),
        "players": len(seated),
        "seats": [new_seat(m.id, m.name, m.bot, m.away_by, room.game) for m in seated],
        "time_limits": dict(room.time_limits),
    }
    game_id = conn.execute(_INSERT_GAME, values).scalar_one()
    conn.execute(_INSERT_GAME_SEATS, [{"game_id": game_id, "seat": i, "member_id": m.id} for i, m in enumerate(seated)])
    now = datetime.now(UTC)
    params = {"room_id": room_id, "read_version": room.version, "game_id": game_id, "now": now}
    if conn.execute(_PLAYING, params).rowcount != 1:
        raise RoomChanged
    if not snapshot:
        return Game(id=game_id, **values), None
    # the room as _PLAYING left it, told from what this transaction read and wrote
    playing = Changed(
        room,
        version=room.version + 1,
        status=RoomStatus.PLAYING,
        current_game_id=game_id,
        seats=values["seats"],
        result=None,
    )
    return Game(id=game_id, **values), snapshot_of(conn, room_id, playing)
