"""Rooms, seats and the host's powers: the service layer behind the HTTP routes.

A seat belongs to one member. In the lobby that is ``Member.seat`` (seats 0..n-1, unique per
room); once a game starts, its :class:`GameSeat` rows say who holds which of its seats.
Every seat number a request names is resolved through these, never through a number a
client or a connection remembers.

A bot may stand in for a member who is away (``Member.away_by``): the member keeps their
membership and their seats, the game's seat list says a bot plays (``"bot"`` with
``"away": true``), and taking the seat back gives it to the member again. A kick is removal:
the member leaves the room, and in a running game a bot plays their seat to the end.

One storage rule: :class:`RoomService` reads and changes rooms, members, a game's seats and
chat through its session's ORM unit of work (objects loaded, changed, flushed), so that
``models.bump_room_versions`` counts every change in the room's version. Core statements
live in :mod:`.statements` only: a room's snapshot and a game's start, too slow through the
ORM (docs/performance.md, D6), and the two both kinds of transaction share, the room's lock
and the lobby's renumbering, which the service runs on its session's connection."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from ...engines import ENGINES, IllegalAction, get_engine
from ...storage.models import ChatMessage, Game, GameSeat, Member, Room, RoomEvent, RoomStatus
from ..edge import FORBIDDEN_TEXT, BadInput, check_value
from ..errors import ApiError
from ..play.events import RoomSnapshot
from .codes import new_code
from .names import bot_name, check_name_free, clean_name
from .options import OptionSizes, check_options_aside, check_time_limits, engine_for
from .refusals import empty_seat, no_member, no_room, not_host, not_in_lobby, not_member, room_locked, seats_busy
from .seats import stand_in
from .statements import SEATING_TRIES, lock_room, lost_race, read_snapshot, renumber_seats

CHAT_MAX = 300
ROOM_ID_BYTES = 9  # 72 bits: room ids are not secrets, only hard to stumble on
INVITE_BYTES = 16  # 128 bits (docs/product.md asks for at least 96)
SEAT_TOKEN_BYTES = 24  # 192 bits (at least 128)

T = TypeVar("T")


def hash_token(token: str, secret_key: str) -> str:
    """Seat tokens are stored only as keyed hashes."""
    return hmac.new(secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


def clean_chat(text: object) -> str:
    if not isinstance(text, str) or not text.strip() or FORBIDDEN_TEXT.search(text):
        raise ApiError(422, "bad_chat", "A chat message must be non-empty text, without control characters.")
    text = text.strip()
    if len(text) > CHAT_MAX:
        raise ApiError(422, "chat_too_long", f"Chat messages are at most {CHAT_MAX} characters.")
    return text


class RoomService:
    def __init__(
        self, session: AsyncSession, secret_key: str, max_members: int = 50, option_sizes: OptionSizes = OptionSizes()
    ) -> None:
        self.s = session
        self.secret_key = secret_key
        self.max_members = max_members
        self.option_sizes = option_sizes

    # --- lookups -----------------------------------------------------------------------

    async def room(self, room_id: str) -> Room:
        # read anew even if this session holds it: a change reads it again under the room's lock
        room = await self.s.get(Room, room_id, populate_existing=True)
        if room is None or room.status == RoomStatus.CLOSED:
            raise no_room()
        return room

    async def member_by_token(self, room_id: str, token: str | None) -> Member | None:
        if not token:
            return None
        member = (
            await self.s.execute(select(Member).where(Member.token_hash == hash_token(token, self.secret_key)))
        ).scalar_one_or_none()
        if member is None or member.room_id != room_id or member.kicked:
            return None
        return member

    async def seat_of(self, room: Room, member: Member) -> int | None:
        """The member's seat now: in the room's current game once one started, else in the lobby."""
        if member.kicked:
            return None
        if room.status == RoomStatus.LOBBY or room.current_game_id is None:
            return member.seat
        return await self.s.scalar(
            select(GameSeat.seat).where(GameSeat.game_id == room.current_game_id, GameSeat.member_id == member.id)
        )

    async def identities(self, room: Room) -> dict[int, dict[str, Any]]:
        """``you`` for every person in the room, by member id, in two queries."""
        people = list(
            (
                await self.s.execute(
                    select(Member).where(Member.room_id == room.id, Member.kicked.is_(False), Member.bot.is_(None))
                )
            ).scalars()
        )
        if room.status == RoomStatus.LOBBY or room.current_game_id is None:
            seats: dict[int, int | None] = {m.id: m.seat for m in people}
        else:
            rows = await self.s.execute(
                select(GameSeat.member_id, GameSeat.seat).where(GameSeat.game_id == room.current_game_id)
            )
            seats = {member_id: seat for member_id, seat in rows.all() if member_id is not None}
        return {
            m.id: {
                "member_id": m.id,
                "name": m.name,
                "seat": seats.get(m.id),
                "host": m.id == room.host_member_id,
                "away": m.away_by is not None,
                "muted": m.muted,
            }
            for m in people
        }

    async def members(self, room: Room) -> list[dict[str, Any]]:
        """Everyone in the room, players by seat then spectators by arrival, with their member
        id, seat (of the current game once one started), bot, host role and mute."""
        people = list(
            (
                await self.s.execute(
                    select(Member).where(Member.room_id == room.id, Member.kicked.is_(False)).order_by(Member.id)
                )
            ).scalars()
        )
        seats: dict[int, int | None] = {m.id: m.seat for m in people}
        if room.status != RoomStatus.LOBBY and room.current_game_id is not None:
            rows = await self.s.execute(
                select(GameSeat.member_id, GameSeat.seat).where(GameSeat.game_id == room.current_game_id)
            )
            held = {member_id: seat for member_id, seat in rows.all() if member_id is not None}
            seats = {m.id: held.get(m.id) for m in people}
        people.sort(key=lambda m: (seats[m.id] is None, seats[m.id] or 0, m.id))
        return [
            {
                "member_id": m.id,
                "name": m.name,
                "seat": seats[m.id],
                "bot": m.bot,
                "host": m.id == room.host_member_id,
                "muted": m.muted,
            }
            for m in people
        ]

    async def holder(self, room: Room, seat: int) -> Member | None:
        """The member who holds ``seat``: of the current game once one started, else of the lobby."""
        if room.status == RoomStatus.LOBBY or room.current_game_id is None:
            stmt = select(Member).where(Member.room_id == room.id, Member.seat == seat)
        else:
            stmt = (
                select(Member)
                .join(GameSeat, GameSeat.member_id == Member.id)
                .where(GameSeat.game_id == room.current_game_id, GameSeat.seat == seat)
            )
        stmt = stmt.where(Member.kicked.is_(False)).execution_options(populate_existing=True)
        return (await self.s.execute(stmt)).scalar_one_or_none()

    async def seating(self, room_id: str, change: Callable[[Room], Awaitable[T]]) -> tuple[Room, T]:
        """Run a change of seats and commit it, with the room's row locked first (see
        :func:`.statements.lock_room`). A change that lost a race (a unique seat index
        refused it, or the database failed it as a deadlock or while another process held
        SQLite's lock) starts again from what the winner left; after ``SEATING_TRIES``: 409
        ``seats_busy``."""
        for _ in range(SEATING_TRIES):
            try:
                await self.lock_room(room_id)
                room = await self.room(room_id)
                out = await change(room)
                await self.s.commit()
                return room, out
            except IntegrityError:
                await self.s.rollback()
            except DBAPIError as e:
                await self.s.rollback()
                if not lost_race(e):
                    raise
        raise seats_busy()

    async def lock_room(self, room_id: str) -> None:
        """Lock the room's row in this session's transaction (see :func:`.statements.lock_room`)."""
        conn = await self.s.connection()
        await conn.run_sync(lock_room, room_id)

    async def _renumber(self, members: list[Member]) -> None:
        """Give ``members`` (the lobby's seated, in the order of their seats) the seats
        0..n-1 in this session's transaction, with :func:`.statements.renumber_seats`; the
        loaded members learn their new seats as the database holds them."""
        conn = await self.s.connection()
        if await conn.run_sync(renumber_seats, [(m.id, m.seat) for m in members]):
            for i, m in enumerate(members):
                set_committed_value(m, "seat", i)

    async def seated(self, room_id: str) -> list[Member]:
        rows = await self.s.execute(
            select(Member)
            .where(Member.room_id == room_id, Member.seat.is_not(None), Member.kicked.is_(False))
            .order_by(Member.seat)
            .execution_options(populate_existing=True)
        )
        return list(rows.scalars())

    async def snapshot(self, room: Room, online: set[int] | None = None) -> dict[str, Any]:
        """The room as every member may see it, with ``online`` the members connected now."""
        snap = await self.read_snapshot(room.id)
        if snap is None:
            raise no_room()
        return snap.for_online(online or set())

    async def read_snapshot(self, room_id: str) -> RoomSnapshot | None:
        """The room as every member may see it, but for who is online (see RoomSnapshot), as
        this session's transaction sees it (None: no such room, or it was closed): see
        :func:`.statements.read_snapshot`."""
        conn = await self.s.connection()
        return await conn.run_sync(read_snapshot, room_id)

    async def summary(self, room: Room) -> dict[str, Any]:
        """What a newcomer may know before joining: the game, the host's name, how full it is.
        Nothing about the deal, the options' free-form values, or anyone's token."""
        engine = ENGINES[room.game]
        seated = await self.seated(room.id)
        host = await self.s.get(Member, room.host_member_id) if room.host_member_id else None
        _, hi = engine.player_range(room.options)
        return {
            "game": room.game,
            "title": engine.info.title,
            "host": host.name if host is not None else None,
            "status": room.status,
            "players": [m.name for m in seated],
            "max_players": hi,
            "open_seat": room.status == RoomStatus.LOBBY and len(seated) < hi and not room.locked,
            "locked": room.locked,
        }

    # --- creating and joining --------------------------------------------------------------

    def _new_token(self) -> tuple[str, str]:
        token = secrets.token_urlsafe(SEAT_TOKEN_BYTES)
        return token, hash_token(token, self.secret_key)

    async def create(self, game: str, options: Any, name: Any, time_limits: Any = None) -> tuple[Room, Member, str]:
        engine = engine_for(game)
        name = clean_name(name)
        opts = await check_options_aside(engine, options or {}, self.option_sizes)
        # a room starts with the game's own limits (e.g. a few seconds on a round's reveal)
        if time_limits is None:
            limits = dict(engine.info.default_time_limits)
        else:
            limits = check_time_limits(engine, time_limits)
        room = Room(
            id=secrets.token_urlsafe(ROOM_ID_BYTES),
            invite=secrets.token_urlsafe(INVITE_BYTES),
            code=await self._free_code(),
            game=game,
            options=opts,
            time_limits=limits,
            status=RoomStatus.LOBBY,
        )
        self.s.add(room)
        await self.s.flush()
        token, token_hash = self._new_token()
        host = Member(room_id=room.id, name=name, token_hash=token_hash, seat=0)
        self.s.add(host)
        await self.s.flush()
        room.host_member_id = host.id
        return room, host, token

    async def _free_code(self) -> str:
        """A room code no room holds (server/rooms/codes.py)."""
        while True:
            code = new_code()
            if await self.s.scalar(select(Room.id).where(Room.code == code)) is None:
                return code

    async def room_by_code(self, code: str) -> Room | None:
        """The open (not closed) room with this code, as stored (see codes.read_code)."""
        room = (await self.s.execute(select(Room).where(Room.code == code))).scalar_one_or_none()
        return None if room is None or room.status == RoomStatus.CLOSED else room

    async def room_by_invite(self, invite: str) -> Room:
        room = (await self.s.execute(select(Room).where(Room.invite == invite))).scalar_one_or_none()
        if room is None or room.status == RoomStatus.CLOSED:
            raise ApiError(404, "bad_invite", "This invite link is not valid (or the room was closed).")
        return room

    async def join(self, invite: str, name: Any, token: str | None) -> tuple[Room, Member, str | None]:
        """Seat a newcomer if the lobby has room, else make them a spectator, and commit. A
        known token comes back to its own seat (a reload, a new tab), also while the room is
        locked; a newcomer to a locked room gets 403 ``room_locked``."""
        room_id = (await self.room_by_invite(invite)).id
        existing = await self.member_by_token(room_id, token)
        if existing is not None:
            return await self.room(room_id), existing, None
        name = clean_name(name)

        async def seat_newcomer(room: Room) -> tuple[Member, str]:
            if room.locked:
                raise room_locked()
            present = await self.present_names(room.id)
            if len(present) >= self.max_members:
                raise ApiError(409, "room_crowded", f"This room already holds {self.max_members} people.")
            check_name_free(name, present)
            seated = await self.seated(room.id)
            _, hi = get_engine(room.game).player_range(room.options)
            seat = len(seated) if room.status == RoomStatus.LOBBY and len(seated) < hi else None
            new_token, token_hash = self._new_token()
            member = Member(room_id=room.id, name=name, token_hash=token_hash, seat=seat)
            self.s.add(member)
            await self.s.flush()
            return member, new_token

        room, (member, new_token) = await self.seating(room_id, seat_newcomer)
        return room, member, new_token

    async def present_names(self, room_id: str) -> list[str]:
        """The names of everyone in the room (spectators and bots included)."""
        rows = await self.s.execute(select(Member.name).where(Member.room_id == room_id, Member.kicked.is_(False)))
        return list(rows.scalars())

    # --- host powers ---------------------------------------------------------------------

    def require_host(self, room: Room, member: Member | None) -> Member:
        if member is None:
            raise not_member()
        if member.id != room.host_member_id:
            raise not_host()
        return member

    def require_lobby(self, room: Room) -> None:
        if room.status != RoomStatus.LOBBY:
            raise not_in_lobby()

    async def update(self, room: Room, options: Any = None, time_limits: Any = None) -> None:
        """Change the room's options (merged into the present ones) and time limits; not
        committed. The game checks the options first, and only then is the room's row
        locked (a large deck takes a while to check, and meanwhile the room's lock, and on
        SQLite every write of the process, would wait) and the room read again."""
        # after a game the host may change options for the rematch
        if room.status != RoomStatus.FINISHED:
            self.require_lobby(room)
        engine = get_engine(room.game)
        opts = None
        if options is not None:
            merged = {**room.options, **options} if isinstance(options, dict) else options
            opts = await check_options_aside(engine, merged, self.option_sizes)
        limits = check_time_limits(engine, time_limits) if time_limits is not None else None
        await self.lock_room(room.id)
        room = await self.room(room.id)  # the same object, read again under the lock
        if room.status != RoomStatus.FINISHED:
            self.require_lobby(room)
        if opts is not None:
            _, hi = engine.player_range(opts)
            if len(await self.seated(room.id)) > hi:
                raise ApiError(409, "too_many_players", f"Those options allow at most {hi} players.")
            room.options = opts
        if limits is not None:
            room.time_limits = limits
        room.updated_at = datetime.now(UTC)

    def import_option(self, room: Room, name: str, data: bytes, filename: str) -> Any:
        """Read a free-form option from an uploaded file with the game's reader
        (``Engine.import_option``)."""
        self.require_lobby(room)
        engine = get_engine(room.game)
        spec = next((o for o in engine.info.options if o.name == name), None)
        if spec is None or spec.kind != "json":
            raise ApiError(422, "bad_option", f"Option {name!r} can't be loaded from a file.")
        try:
            # what a reader returns is stored and read back like any other input
            return check_value(engine.import_option(name, data, filename))
        except IllegalAction as e:
            raise ApiError(422, e.code, e.message) from None
        except BadInput as e:
            raise ApiError(422, "bad_file", f"That file could not be read: {e.message}") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise ApiError(422, "bad_file", f"That file could not be read: {e}") from None

    async def add_bot(self, room_id: str, bot: str | None, name: Any = None) -> Member:
        """A bot in the next free lobby seat (committed)."""

        async def seat_bot(room: Room) -> Member:
            self.require_lobby(room)
            engine = get_engine(room.game)
            bots = {b.id: b for b in engine.info.bots}
            bot_id = bot or engine.info.default_bot
            if bot_id not in bots:
                raise ApiError(422, "unknown_bot", f"Unknown bot {bot_id!r}; choose from {sorted(bots)}.")
            seated = await self.seated(room.id)
            _, hi = engine.player_range(room.options)
            if len(seated) >= hi:
                raise ApiError(409, "room_full", "Every seat is taken.")
            present = await self.present_names(room.id)
            if name:
                label = clean_name(name)
                check_name_free(label, present)
            else:
                label = bot_name(present)
            member = Member(room_id=room.id, name=label, seat=len(seated), bot=bot_id)
            self.s.add(member)
            await self.s.flush()
            return member

        return (await self.seating(room_id, seat_bot))[1]

    async def kick(self, room_id: str, seat: int, host_id: int) -> tuple[Room, Member]:
        """The member holding ``seat`` leaves the room (committed). In the lobby the later
        seats move up; in a running game a bot takes the seat over and nobody holds it."""

        async def remove(room: Room) -> Member:
            target = await self.holder(room, seat)
            if target is None:
                raise empty_seat()
            if target.id == room.host_member_id:
                raise ApiError(409, "kick_host", "The host can't kick themselves; pass the host role first.")
            await self._remove(room, target, "removed")
            self.audit(room, "removed", target, await self.s.get(Member, host_id))
            return target

        return await self.seating(room_id, remove)

    async def leave(self, room_id: str, member_id: int, online: set[int]) -> tuple[Room, Member, Member | None]:
        """The member leaves the room for good, as a kick would remove them (committed). A
        host's role passes to the longest-standing connected person (``online``), else to
        the longest-standing person left; returns who got it (None: the host role did not
        move, or nobody is left to take it)."""

        async def go(room: Room) -> tuple[Member, Member | None]:
            member = await self.s.get(Member, member_id, populate_existing=True)
            if member is None or member.kicked or member.room_id != room.id:
                raise not_member()
            successor = None
            if member.id == room.host_member_id:
                successor = await self.successor(room, online - {member.id}) or await self.successor(
                    room, None, leaving=member.id
                )
                room.host_member_id = successor.id if successor is not None else None
            await self._remove(room, member, "left")
            self.audit(room, "left", member)
            return member, successor

        room, (member, successor) = await self.seating(room_id, go)
        return room, member, successor

    async def _remove(self, room: Room, target: Member, how: str) -> None:
        """``target`` leaves the room (``how``: "left" or "removed", kept as ``Member.gone``):
        their token stops working; in the lobby the later seats move up, in a running game a
        bot plays their seat to the end."""
        seat = await self.seat_of(room, target)
        target.kicked = True
        target.gone = how
        target.token_hash = None
        target.seat = None
        target.away_by = None
        await self.s.flush()
        await self._renumber(await self.seated(room.id))
        if room.status == RoomStatus.PLAYING and room.current_game_id is not None and seat is not None:
            game = await self.s.get(Game, room.current_game_id, populate_existing=True)
            if game is not None and game.finished_at is None:
                await self._bot_takes_over(game, seat)

    # --- moderation (docs/product.md, "The host's tools") ----------------------------------

    def audit(self, room: Room, kind: str, target: Member | None = None, actor: Member | None = None) -> None:
        """A line in the room's audit log (``RoomEvent``), written with the change it tells of."""
        self.s.add(
            RoomEvent(
                room_id=room.id,
                kind=kind,
                actor_id=actor.id if actor is not None else None,
                actor=actor.name if actor is not None else None,
                target_id=target.id if target is not None else None,
                target=target.name if target is not None else None,
            )
        )

    async def other_member(self, room: Room, member_id: int) -> Member:
        """A person or bot in ``room`` other than its host, for the host to act on: 404
        ``no_member`` for an id of nobody here (gone, another room's, never was); 409
        ``is_host`` for the host."""
        target = await self.s.get(Member, member_id, populate_existing=True)
        if target is None or target.room_id != room.id or target.kicked:
            raise no_member()
        if target.id == room.host_member_id:
            raise ApiError(409, "is_host", "That is the host; pass the host role first.")
        return target

    async def remove_member(self, room_id: str, member_id: int, host_id: int) -> tuple[Room, Member]:
        """The host removes a member by id, a spectator as well as a player (committed, with
        its audit line); as :meth:`kick` for a seat."""

        async def remove(room: Room) -> Member:
            host = self.require_host(room, await self.s.get(Member, host_id))
            target = await self.other_member(room, member_id)
            await self._remove(room, target, "removed")
            self.audit(room, "removed", target, host)
            return target

        return await self.seating(room_id, remove)

    async def set_muted(self, room_id: str, member_id: int, host_id: int, muted: bool) -> Member:
        """The host mutes a person's chat, or lets them speak again (committed, audited)."""

        async def mute(room: Room) -> Member:
            host = self.require_host(room, await self.s.get(Member, host_id))
            target = await self.other_member(room, member_id)
            if target.bot is not None:
                raise ApiError(409, "is_bot", "Bots don't chat.")
            if target.muted != muted:
                target.muted = muted
                self.audit(room, "muted" if muted else "unmuted", target, host)
            return target

        return (await self.seating(room_id, mute))[1]

    async def set_locked(self, room_id: str, host_id: int, locked: bool) -> Room:
        """The host locks the room (no newcomers) or opens it again (committed, audited)."""

        async def lock(room: Room) -> None:
            host = self.require_host(room, await self.s.get(Member, host_id))
            if room.locked != locked:
                room.locked = locked
                room.updated_at = datetime.now(UTC)
                self.audit(room, "locked" if locked else "unlocked", actor=host)

        return (await self.seating(room_id, lock))[0]

    async def new_invite(self, room_id: str, host_id: int) -> Room:
        """A new invite link and a new room code: the old ones stop working at once, members
        stay (committed, audited)."""

        async def renew(room: Room) -> None:
            host = self.require_host(room, await self.s.get(Member, host_id))
            room.invite = secrets.token_urlsafe(INVITE_BYTES)
            room.code = await self._free_code()
            room.updated_at = datetime.now(UTC)
            self.audit(room, "new_invite", actor=host)

        return (await self.seating(room_id, renew))[0]

    async def holder_name(self, member_id: int) -> str:
        member = await self.s.get(Member, member_id)
        return member.name if member is not None else "The host"

    async def successor(self, room: Room, online: set[int] | None, leaving: int | None = None) -> Member | None:
        """Who takes the host role when its host is gone: the longest-standing person in the
        room among ``online`` (None: among everyone but ``leaving``)."""
        stmt = select(Member).where(Member.room_id == room.id, Member.kicked.is_(False), Member.bot.is_(None))
        if online is not None:
            if not online:
                return None
            stmt = stmt.where(Member.id.in_(online))
        if leaving is not None:
            stmt = stmt.where(Member.id != leaving)
        return (await self.s.execute(stmt.order_by(Member.id).limit(1))).scalar_one_or_none()

    async def _bot_takes_over(self, game: Game, seat: int) -> None:
        held = (
            await self.s.execute(select(GameSeat).where(GameSeat.game_id == game.id, GameSeat.seat == seat))
        ).scalar_one()
        held.member_id = None
        seats = [dict(s) for s in game.seats]
        seats[seat]["bot"] = stand_in(game.engine)
        seats[seat]["name"] = f"{seats[seat]['name']} (bot)"
        seats[seat].pop("away", None)
        game.seats = seats

    async def away(self, room: Room, member: Member, by: str) -> int:
        """A bot plays ``member``'s seat of the current game while they are away (``by``:
        "host" or "self"), and their seats of the games after it until they are back. The
        member keeps their membership, their token and the seat. Not committed."""
        if member.bot is not None:
            raise ApiError(409, "is_bot", "A bot plays that seat already.")
        if room.status == RoomStatus.LOBBY or room.current_game_id is None:
            raise ApiError(409, "not_playing", "A bot can stand in once a game has started.")
        seat = await self.seat_of(room, member)
        if seat is None:
            raise ApiError(409, "no_seat", "That member holds no seat in this game.")
        if member.away_by is not None:
            raise ApiError(409, "already_away", "A bot already plays this seat.")
        member.away_by = by
        game = await self.s.get(Game, room.current_game_id)
        if game is not None and game.finished_at is None:
            seats = [dict(s) for s in game.seats]
            seats[seat].update(bot=stand_in(game.engine), away=True)
            game.seats = seats
        return seat

    async def back(self, room: Room, member: Member) -> int | None:
        """``member`` takes their seat back from the bot standing in: from now on they play
        it themselves. Returns the seat (None: they hold none now). Not committed."""
        if member.away_by is None:
            raise ApiError(409, "not_away", "No bot plays for you.")
        member.away_by = None
        seat = await self.seat_of(room, member)
        if seat is None or room.current_game_id is None:
            return seat
        game = await self.s.get(Game, room.current_game_id)
        if game is not None and game.seats[seat].get("away"):
            seats = [dict(s) for s in game.seats]
            seats[seat].pop("away")
            seats[seat]["bot"] = None
            game.seats = seats
        return seat

    async def pass_host(self, room: Room, seat: int) -> Member:
        target = await self.holder(room, seat)
        if target is None or target.bot is not None:
            raise ApiError(422, "bad_seat", "The host role goes to a seated person.")
        room.host_member_id = target.id
        return target

    async def chat(self, room: Room, member: Member, text: Any) -> ChatMessage:
        if member.muted:
            raise ApiError(403, "chat_muted", "The host has muted your chat.")
        msg = ChatMessage(
            room_id=room.id,
            member_id=member.id,
            name=member.name,
            seat=await self.seat_of(room, member),
            text=clean_chat(text),
        )
        self.s.add(msg)
        await self.s.flush()
        return msg


@dataclass(frozen=True, slots=True)
class RoomServices:
    """Opens a :class:`RoomService` on a session, with the server's secret and the room's
    caps: the one place those are given to it. ``compose.py`` builds one from the settings of
    the same names and hands it to every object (and ``deps.py``'s route dependency) that
    opens a RoomService."""

    secret_key: str  # seat tokens are stored as its HMAC
    room_members_max: int  # people in one room, spectators included
    option_sizes: OptionSizes  # OPTION_MAX_BYTES, OPTIONS_MAX_BYTES

    def __call__(self, session: AsyncSession) -> RoomService:
        return RoomService(session, self.secret_key, self.room_members_max, self.option_sizes)

    def token_hash(self, token: str) -> str:
        """A seat token as it is stored."""
        return hash_token(token, self.secret_key)
