"""The room's use cases, each one whole: from the caller's seat token through the checks and
the write (committed here), to the events every process and socket must see and the bots
and clocks it sets going. Routes (HTTP and websocket) parse a request, call one method here
and shape the answer; :class:`.service.RoomService` is the storage underneath."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy.exc import DBAPIError

from ...storage.database import Database
from ...storage.models import Game, Member, Room, RoomStatus
from ..errors import ApiError
from ..limits import RateLimit
from ..play.games import GameService, LiveGame
from ..play.outbound import Identity
from ..ports import Presence, Roster, Turns
from ..replay.logs import GameLogs
from .hosting import HostWatch
from .publisher import RoomPublisher, RoomReader
from .refusals import empty_seat, no_room, not_member, seats_busy
from .service import RoomService, RoomServices
from .statements import (
    SEATING_TRIES,
    RoomChanged,
    chat_json,
    lost_race,
    read_admission,
    read_recent_chat,
    read_room_as,
    start_game,
)

REMOVED_MESSAGE = "The host removed you from the room."
FILE_MAX = 384 * 1024  # bytes of an uploaded option file (its option is at most OPTION_MAX_BYTES as JSON)


class TokenBucket:
    """At most ``per_minute`` events per key in a burst, then one every ``60 / per_minute``
    seconds: each key's bucket holds up to ``per_minute`` tokens, refilled at that pace, and
    an event takes one. Counted in this process's memory."""

    def __init__(self, per_minute: int) -> None:
        self.size, self.rate = float(per_minute), per_minute / 60.0
        self.buckets: dict[object, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: object, now: float | None = None) -> bool:
        """Take a token for ``key``; False (nothing taken) if its bucket is empty."""
        now = time.monotonic() if now is None else now
        if len(self.buckets) > 10_000:  # forget the buckets that have filled up again
            full = [k for k, (t, at) in self.buckets.items() if t + (now - at) * self.rate >= self.size]
            for k in full:
                del self.buckets[k]
        tokens, at = self.buckets.get(key, (self.size, now))
        tokens = min(self.size, tokens + (now - at) * self.rate)
        if tokens < 1:
            return False
        self.buckets[key] = (tokens - 1, now)
        return True


@dataclass(frozen=True, slots=True)
class Joined:
    """Who the caller is in the room they created or joined."""

    room_id: str
    invite: str
    member_id: int
    seat: int | None
    token: str | None  # a new seat token; None: the caller already had one


@dataclass(frozen=True, slots=True)
class Admission:
    """A member admitted to a room's websocket: who they are now, and the room's game."""

    member_id: int
    name: str
    seat: int | None
    host: bool
    away: bool
    muted: bool
    game_id: int | None

    def identity(self) -> Identity:
        """Who they are, as the welcome's ``you`` and the room read's tell it."""
        return Identity(self.member_id, self.name, self.seat, self.host, self.away, self.muted)


def _admitted(seen: Any) -> Admission:
    """The member of a :func:`.statements.read_admission` row, as they are now: in a running
    game at their seat in it, else at their lobby seat."""
    playing = seen.status != RoomStatus.LOBBY and seen.current_game_id is not None
    return Admission(
        member_id=seen.member_id,
        name=seen.name,
        seat=seen.game_seat if playing else seen.seat,
        host=seen.member_id == seen.host_member_id,
        away=seen.away_by is not None,
        muted=seen.muted,
        game_id=seen.current_game_id,
    )


class RoomUseCases:
    """Every use case of a room, with the collaborators they share (``compose.py`` wires them)."""

    def __init__(
        self,
        room_services: RoomServices,
        db: Database,
        games: GameService,
        *,
        reader: RoomReader,
        events: RoomPublisher,
        presence: Presence,
        roster: Roster,
        turns: Turns,
        hosts: HostWatch,
        logs: GameLogs,
        room_rate: RateLimit,
        chat_rate: RateLimit,
        option_changes_per_minute: int,
    ) -> None:
        self.room_services = room_services
        self.db = db
        self.games = games
        self.reader = reader  # the room's snapshot from the database
        self.events = events  # what every process and socket hears of a change
        self.presence = presence  # who is connected, as this process knows it
        self.roster = roster  # who is connected through any process, asked now
        self.turns = turns  # bots and phase clocks
        self.hosts = hosts
        self.logs = logs
        self.room_rate = room_rate  # rooms created, by address
        self.chat_rate = chat_rate  # chat messages, by member
        # a custom deck is checked by the game at every change: a host may not change
        # options as fast as they can send them
        self.option_changes_per_minute = option_changes_per_minute
        self.option_changes = TokenBucket(option_changes_per_minute)

    @asynccontextmanager
    async def _rooms(self) -> AsyncIterator[RoomService]:
        async with self.db.sessions() as s:
            yield self.room_services(s)

    @staticmethod
    async def _caller(svc: RoomService, room_id: str, token: str | None) -> tuple[Room, Member | None]:
        room = await svc.room(room_id)
        return room, await svc.member_by_token(room_id, token)

    async def _member(self, svc: RoomService, room_id: str, token: str | None) -> tuple[Room, Member]:
        room, member = await self._caller(svc, room_id, token)
        if member is None:
            raise not_member()
        return room, member

    async def _host(self, svc: RoomService, room_id: str, token: str | None) -> tuple[Room, Member]:
        room, member = await self._caller(svc, room_id, token)
        return room, svc.require_host(room, member)

    def _allow_option_change(self, member_id: int) -> None:
        if not self.option_changes.take(member_id):
            per = self.option_changes_per_minute
            raise ApiError(429, "options_rate", f"At most {per} option changes a minute; wait a moment.")

    # --- reading -----------------------------------------------------------------------

    async def snapshot(self, room_id: str) -> dict[str, Any] | None:
        """The room as every member sees it (None: no such room, or it was closed)."""
        snap = await self.reader.read_snapshot(room_id)
        return snap.for_online(self.presence.online_members(room_id)) if snap is not None else None

    async def room_for(self, room_id: str, token: str | None) -> dict[str, Any]:
        """The room as the caller sees it, with ``you`` (null for a stranger); read inline,
        as a socket's admission is (D40)."""
        token_hash = self.room_services.token_hash(token) if token else None
        seen, room = await self.db.read(partial(read_room_as, room_id=room_id, token_hash=token_hash))
        if seen is None or room is None:
            raise no_room()
        snap = room.for_online(self.presence.online_members(room_id))
        if seen.member_id is None:
            snap["you"] = None
            # the invite and the code let people join: only members see them
            del snap["invite_path"], snap["code"]
        else:
            snap["you"] = _admitted(seen).identity().as_json()
        return snap

    async def chat_history(self, room_id: str, token: str | None) -> list[dict[str, Any]]:
        async with self._rooms() as svc:
            await self._member(svc, room_id, token)
        return await self.recent_chat(room_id)

    async def recent_chat(self, room_id: str) -> list[dict[str, Any]]:
        """The room's last chat messages, as a socket's welcome shows them."""
        return await self.db.read(partial(read_recent_chat, room_id=room_id))

    async def view(self, room_id: str, token: str | None) -> tuple[LiveGame, int | None]:
        """The room's current game and the seat the caller holds in it."""
        async with self._rooms() as svc:
            room, member = await self._member(svc, room_id, token)
        if room.current_game_id is None:
            raise ApiError(409, "no_game", "No game has started in this room.")
        live = await self.games.get(room.current_game_id)
        return live, live.seat_of(member.id)

    async def _finished_game(self, room_id: str, token: str | None, game_id: int) -> Game:
        """The room's game ``game_id`` if the caller is a member and the game is over."""
        async with self._rooms() as svc:
            room, _ = await self._member(svc, room_id, token)
            game = await svc.s.get(Game, game_id)
        if game is None or game.room_id != room.id:
            raise ApiError(404, "no_game", "This room has no such game.")
        if game.result is None:
            raise ApiError(409, "game_running", "The replay opens once the game is over.")
        return game

    async def replay_log(
        self, room_id: str, token: str | None, game_id: int, seat: str | None, action_type: str | None
    ) -> dict[str, Any]:
        """A finished game's whole log, for its room's members (free-form options hidden)."""
        game = await self._finished_game(room_id, token, game_id)
        return await self.logs.log(game, seat=seat, action_type=action_type, for_players=True)

    async def replay_state(self, room_id: str, token: str | None, game_id: int, seq: int | None) -> dict[str, Any]:
        """Every seat's view of a finished game at ``seq``, hidden parts revealed; not the
        raw state (undealt cards, the PRNG), which only the admin sees."""
        game = await self._finished_game(room_id, token, game_id)
        return await self.logs.state_at(game, seq, full=False)

    # --- creating and joining ------------------------------------------------------------

    async def create(self, address: str, game: str, options: Any, name: Any, time_limits: Any = None) -> Joined:
        if not await self.room_rate.hit(address):
            per = self.room_rate.limit
            raise ApiError(429, "too_many_rooms", f"At most {per} new rooms a minute from one address; wait a moment.")
        async with self._rooms() as svc:
            room, member, token = await svc.create(game, options, name, time_limits)
            await svc.s.commit()
        return Joined(room.id, room.invite, member.id, member.seat, token)

    async def join(self, invite: str, name: Any, token_for: Callable[[str], str | None]) -> Joined:
        """A seat or a place among the spectators; ``token_for(room_id)`` is the caller's seat
        token for that room, if any: it brings its owner back to the same seat."""
        taken_back = False
        async with self._rooms() as svc:
            room_id = (await svc.room_by_invite(invite)).id
            room, member, new_token = await svc.join(invite, name, token_for(room_id))
            if new_token is None and member.away_by == "host":
                # coming back ends the bot's stand-in the host made while they were away
                room, _ = await svc.seating(room_id, _taking_back(svc, member.id, only_by="host"))
                taken_back = True
            seat = await svc.seat_of(room, member)
        if taken_back:
            await self._seats_changed(room_id, room.current_game_id)
        if new_token is not None:
            await self.events.publish_room(room.id)
        return Joined(room.id, room.invite, member.id, seat, new_token)

    async def admit(self, room_id: str, token: str | None) -> Admission:
        """A member opens a socket. One the host handed to a bot comes back by connecting
        while none of their sockets is open; a bot the member asked for stays until they
        take the seat back.

        Read in one Core statement: every page load and every reconnect (all of a server's
        sockets after a restart) comes through here, and an ORM session's statements each
        went through a database thread and back (docs/performance.md, D40)."""
        token_hash = self.room_services.token_hash(token) if token else None
        seen = await self.db.read(partial(read_admission, room_id=room_id, token_hash=token_hash))
        if seen is None:
            raise no_room()
        if seen.member_id is None:
            raise ApiError(401, "not_member", "Join the room by its invite link first.")
        if seen.away_by == "host" and seen.member_id not in self.presence.online_members(room_id):
            return await self._admit_back(room_id, token)
        return _admitted(seen)

    async def _admit_back(self, room_id: str, token: str | None) -> Admission:
        """``admit`` for a member whose seat the host handed to a bot: the seat is theirs
        again, written under the room's lock, if they are still away by the host then."""
        async with self._rooms() as svc:
            room = await svc.room(room_id)
            member = await svc.member_by_token(room_id, token)
            if member is None:
                raise ApiError(401, "not_member", "Join the room by its invite link first.")
            came_back = member.away_by == "host" and member.id not in self.presence.online_members(room_id)
            if came_back:
                room, _ = await svc.seating(room_id, _taking_back(svc, member.id, only_by="host"))
            admitted = Admission(
                member_id=member.id,
                name=member.name,
                seat=await svc.seat_of(room, member),
                host=member.id == room.host_member_id,
                away=member.away_by is not None,
                muted=member.muted,
                game_id=room.current_game_id,
            )
        if came_back:  # the seat is the member's again: every process's game learns it first
            await self.events.publish_seats(room_id, admitted.game_id)
        return admitted

    async def came_online(self, room_id: str) -> None:
        """A socket of the room opened: everyone sees who is online, and a host long gone
        hands the role to someone here."""
        await self.events.publish_room(room_id)
        await self.hosts.check(room_id)

    async def went_offline(self, room_id: str, member_id: int | None, host: bool) -> None:
        """A socket of the room closed (after it left the hub)."""
        self.hosts.socket_closed(room_id, member_id, host)
        await self.events.publish_room(room_id)

    # --- the host's powers ---------------------------------------------------------------

    async def update(
        self, room_id: str, token: str | None, options: Any = None, time_limits: Any = None
    ) -> dict[str, Any]:
        async with self._rooms() as svc:
            room, host = await self._host(svc, room_id, token)
            self._allow_option_change(host.id)
            await svc.update(room, options, time_limits)  # under the room's lock from its check on
            await svc.s.commit()
            await self.events.publish_room(room_id)
            return await svc.snapshot(room, self.presence.online_members(room_id))

    async def upload_option(self, room_id: str, token: str | None, name: str, data: bytes, filename: str) -> Any:
        """A free-form option read from a file; returns its value."""
        async with self._rooms() as svc:
            room, host = await self._host(svc, room_id, token)
            self._allow_option_change(host.id)
            if len(data) > FILE_MAX:
                raise ApiError(413, "file_too_large", f"Files are at most {FILE_MAX // 1024} KiB.")
            # the game's reader in a worker thread: it reads every word or card of the file
            value = await asyncio.to_thread(svc.import_option, room, name, data, filename)
            await svc.update(room, {name: value})
            await svc.s.commit()
        await self.events.publish_room(room_id)
        return value

    async def add_bot(self, room_id: str, token: str | None, bot: str | None, name: str | None) -> Member:
        async with self._rooms() as svc:
            await self._host(svc, room_id, token)
            member = await svc.add_bot(room_id, bot, name)
        await self.events.publish_room(room_id)
        return member

    async def bot_stands_in(self, room_id: str, token: str | None, seat: int) -> None:
        """A bot plays ``seat`` while its player is away; they keep membership and seat."""
        async with self._rooms() as svc:
            _, caller = await self._host(svc, room_id, token)
            caller_id = caller.id

            async def hand_over(room: Room) -> int:
                target = await svc.holder(room, seat)
                if target is None:
                    raise empty_seat()
                return await svc.away(room, target, "self" if target.id == caller_id else "host")

            room, _ = await svc.seating(room_id, hand_over)
        await self._seats_changed(room_id, room.current_game_id)

    async def away(self, room_id: str, token: str | None) -> int:
        """A bot plays the caller's seat until they take it back; returns the seat."""
        async with self._rooms() as svc:
            _, member = await self._member(svc, room_id, token)
            member_id = member.id

            async def hand_over(room: Room) -> int:
                me = await svc.s.get(Member, member_id, populate_existing=True)
                assert me is not None
                return await svc.away(room, me, "self")

            room, seat = await svc.seating(room_id, hand_over)
        await self._seats_changed(room_id, room.current_game_id)
        return seat

    async def back(self, room_id: str, token: str | None) -> int | None:
        """The caller takes their seat back from the bot playing it."""
        async with self._rooms() as svc:
            _, member = await self._member(svc, room_id, token)
            room, seat = await svc.seating(room_id, _taking_back(svc, member.id))
        await self._seats_changed(room_id, room.current_game_id)
        return seat

    async def kick(self, room_id: str, token: str | None, seat: int) -> None:
        async with self._rooms() as svc:
            _, host = await self._host(svc, room_id, token)
            room, target = await svc.kick(room_id, seat, host.id)
        await self._removed(room, target.id, REMOVED_MESSAGE)

    async def remove_member(self, room_id: str, token: str | None, member_id: int) -> None:
        """The host removes a member by id: a spectator as well as a player."""
        async with self._rooms() as svc:
            _, host = await self._host(svc, room_id, token)
            room, target = await svc.remove_member(room_id, member_id, host.id)
        await self._removed(room, target.id, REMOVED_MESSAGE)

    async def members(self, room_id: str, token: str | None) -> list[dict[str, Any]]:
        """Everyone in the room, for its host: who holds which seat, who watches, who is
        muted, who is connected."""
        async with self._rooms() as svc:
            room, _ = await self._host(svc, room_id, token)
            people = await svc.members(room)
        online = self.presence.online_members(room_id)
        return [{**p, "online": p["bot"] is not None or p["member_id"] in online} for p in people]

    async def set_muted(self, room_id: str, token: str | None, member_id: int, muted: bool) -> None:
        """The host mutes a member's chat or lets them speak again; their page learns it."""
        async with self._rooms() as svc:
            _, host = await self._host(svc, room_id, token)
            await svc.set_muted(room_id, member_id, host.id, muted)
        await self.events.publish_seats(room_id, None)  # each socket: its ``you``, muted or not

    async def set_locked(self, room_id: str, token: str | None, locked: bool) -> dict[str, Any]:
        async with self._rooms() as svc:
            _, host = await self._host(svc, room_id, token)
            room = await svc.set_locked(room_id, host.id, locked)
            answer = {"locked": room.locked}
        await self.events.publish_room(room_id)
        return answer

    async def new_invite(self, room_id: str, token: str | None) -> tuple[str, str | None]:
        """A new invite link and room code (the old ones stop working); returns both."""
        async with self._rooms() as svc:
            _, host = await self._host(svc, room_id, token)
            room = await svc.new_invite(room_id, host.id)
            answer = room.invite, room.code
        await self.events.publish_room(room_id)
        return answer

    async def leave(self, room_id: str, token: str | None) -> int | None:
        """The caller leaves for good (a host hands the role on); returns the host's member id."""
        async with self._rooms() as svc:
            _, member = await self._member(svc, room_id, token)
            room, gone, successor = await svc.leave(room_id, member.id, await self.roster.online(room_id))
        await self._removed(room, gone.id, "You left the room.")
        if successor is not None:
            await self.events.host_changed(
                room_id, successor.id, f"{gone.name} left; {successor.name} is the host now."
            )
        return room.host_member_id

    async def pass_host(self, room_id: str, token: str | None, seat: int) -> None:
        async with self._rooms() as svc:
            await svc.lock_room(room_id)  # the new host can't be kicked meanwhile
            room, _ = await self._host(svc, room_id, token)
            new = await svc.pass_host(room, seat)
            await svc.s.commit()
        await self.events.host_changed(room_id, new.id, f"{new.name} is the host now.")

    async def begin(self, room_id: str, token: str | None, *, rematch: bool) -> LiveGame:
        """The host starts the game (or a rematch): committed, cached, its clock and bots going."""
        token_hash = self.room_services.token_hash(token) if token else None
        start = partial(start_game, room_id=room_id, token_hash=token_hash, rematch=rematch)
        for _ in range(SEATING_TRIES):
            try:
                # the room's snapshot read in the same transaction, if someone will be sent it
                game, snap = await self.db.write(partial(start, snapshot=self.events.room_watched(room_id)))
                break
            except RoomChanged:
                continue
            except DBAPIError as e:  # a deadlock or a busy SQLite: try again, as for RoomChanged
                if not lost_race(e):
                    raise
        else:
            raise seats_busy()
        if rematch:
            self.games.retire(room_id)
        live = self.games.adopt(game)
        await self.games.start_clock(live)
        await self.events.publish_started(live, snap)  # each connection: its seat, the room, the first state
        self.turns.schedule(live)
        return live

    # --- chat ----------------------------------------------------------------------------

    async def _allow_chat(self, member_id: int) -> None:
        if not await self.chat_rate.hit(str(member_id)):
            per = self.chat_rate.limit
            raise ApiError(429, "chat_rate", f"At most {per} chat messages a minute; wait a moment.")

    async def _say(self, svc: RoomService, room: Room, member: Member, text: Any) -> dict[str, Any]:
        await self._allow_chat(member.id)
        msg = await svc.chat(room, member, text)
        await svc.s.commit()
        payload = chat_json(msg)
        await self.events.publish_chat(room.id, payload)
        return payload

    async def say(self, room_id: str, token: str | None, text: Any) -> dict[str, Any]:
        """A chat message from the holder of ``token``; returns it as the room sees it."""
        async with self._rooms() as svc:
            room, member = await self._member(svc, room_id, token)
            return await self._say(svc, room, member, text)

    async def say_as(self, room_id: str, member_id: int | None, text: Any) -> None:
        """A chat message from a member's open socket."""
        async with self._rooms() as svc:
            room = await svc.room(room_id)
            member = await svc.s.get(Member, member_id) if member_id is not None else None
            if member is None or member.kicked:
                raise not_member()
            await self._say(svc, room, member, text)

    # --- what a change of seats sets off ---------------------------------------------------

    async def _seats_changed(self, room_id: str, game_id: int | None) -> None:
        """Who holds or plays which seat of ``game_id`` changed (a kick, a bot standing in or
        leaving the seat to its member again): every process and connection learns it, and a
        bot that must act now gets its turn."""
        await self.events.publish_seats(room_id, game_id)
        if game_id is not None:
            live = await self.games.get(game_id)
            if not live.over:
                self.turns.schedule(live)
        await self.events.publish_room(room_id)

    async def _removed(self, room: Room, member_id: int, message: str) -> None:
        """A member left the room: every process's cached game and connections learn who holds
        which seat now, and the member's own sockets are told and closed."""
        await self.events.publish_seats(room.id, room.current_game_id)
        if room.current_game_id is not None and room.status == RoomStatus.PLAYING:
            self.turns.schedule(await self.games.get(room.current_game_id))
        await self.events.publish_kicked(room.id, member_id, message)
        await self.events.publish_room(room.id)


def _taking_back(svc: RoomService, member_id: int, only_by: str | None = None) -> Callable[[Room], Awaitable[Any]]:
    """The change that gives ``member_id`` their seat back (only from a stand-in ``only_by``
    made, if given: a race with another change may have ended it already)."""

    async def take_back(room: Room) -> int | None:
        member = await svc.s.get(Member, member_id, populate_existing=True)
        if member is None or member.kicked:
            raise not_member()
        if only_by is not None and member.away_by != only_by:
            return await svc.seat_of(room, member)
        return await svc.back(room, member)

    return take_back
