"""This process's connections by room, and the per-seat fan-out of every frame to them.

Every ``state`` frame a connection gets is sent from here, as ``LiveGame.state_text`` encodes
it from the engine's view of the seat its member holds in that game (``LiveGame.seat_of``) and
nothing else.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any, Protocol

from .connection import Connection
from .events import (
    ChatEvent,
    ClosedEvent,
    Event,
    HostEvent,
    KickedEvent,
    RoomEvent,
    RoomSnapshot,
    SeatsEvent,
    StartedEvent,
    StateEvent,
)
from .games import GameService, LiveGame
from .outbound import Chat, Closed, Error, Host, Identity, Kicked, Outbound, Room, RoomPatch, You
from .patches import Op, PatchForm, Step, diff

_NO_VIEW = -1  # no seat's view (seats are None or from 0)
PATCH_ALWAYS = 256  # bytes: patches this small go out without a look at the full frame's size

# seconds between two room frames of one room: the changes that come meanwhile (sockets
# opening and closing, people joining) go out together in one frame once the time is up
ROOM_FRAME_GAP = 0.25
CLOSED_MESSAGE = "This room was closed."  # a closure another process announced while Redis was away
# a shared screen whose key a new invite link retired (see Hub.keeps_screen)
SCREEN_RETIRED = "A new invite link retired this screen link; open the shared screen again from the room."


class RoomReads(Protocol):
    """What the hub reads of a room from the database."""

    async def read_snapshot(self, room_id: str) -> RoomSnapshot | None:
        """The room for ``room`` frames (None: no such room, or it was closed)."""
        ...

    async def identities(self, room_id: str) -> dict[int, dict[str, Any]]:
        """``you`` of every person in the room, by member id."""
        ...


class Hub:
    """This process's websocket connections, by room."""

    def __init__(self, games: GameService, reads: RoomReads, patch_steps: int = 64) -> None:
        self.games = games
        self.reads = reads
        self.patch_steps = patch_steps  # steps each live game keeps for patch frames
        self.rooms: dict[str, set[Connection]] = {}
        # members online through other processes, by room, as the bus last read them
        self._remote_online: dict[str, set[int]] = {}
        # the version of the last room snapshot sent, by room with connections here
        self.room_versions: dict[str, int] = {}
        # when the last room frame went out, and the snapshot waiting for ROOM_FRAME_GAP to
        # pass with the timer that sends it, by room (see _send_room)
        self.room_sent_at: dict[str, float] = {}
        self.room_waiting: dict[str, tuple[RoomSnapshot, asyncio.TimerHandle]] = {}
        # the last room frame sent here, numbered, by room: what room_patch frames apply to
        self.room_last: dict[str, tuple[int, dict[str, Any]]] = {}

    def add(self, conn: Connection) -> None:
        self.rooms.setdefault(conn.room_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        conns = self.rooms.get(conn.room_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.rooms[conn.room_id]
                self.room_versions.pop(conn.room_id, None)
                self.room_sent_at.pop(conn.room_id, None)
                self.room_last.pop(conn.room_id, None)
                waiting = self.room_waiting.pop(conn.room_id, None)
                if waiting is not None:
                    waiting[1].cancel()

    def rooms_here(self) -> list[str]:
        """The rooms with a socket open here."""
        return list(self.rooms)

    def serves(self, room_id: str) -> bool:
        """A socket of ``room_id`` is open here."""
        return room_id in self.rooms

    def connections(self) -> list[Connection]:
        return [conn for conns in self.rooms.values() for conn in conns]

    def room_connections(self, room_id: str) -> tuple[Connection, ...]:
        """The connections open here to ``room_id``."""
        return tuple(self.rooms.get(room_id, ()))

    def local_members(self, room_id: str) -> set[int]:
        return {c.member_id for c in self.rooms.get(room_id, ()) if c.member_id is not None}

    def member_sockets(self, room_id: str, member_id: int | None) -> int:
        """How many sockets ``member_id`` has open to ``room_id`` here."""
        return sum(1 for c in self.rooms.get(room_id, ()) if c.member_id == member_id)

    def set_remote_online(self, room_id: str, members: set[int]) -> None:
        """The members of ``room_id`` connected through other processes, as the bus (Redis)
        just read them: they replace what it read before."""
        if members:
            self._remote_online[room_id] = members
        else:
            self._remote_online.pop(room_id, None)

    def watched(self, room_id: str) -> bool:
        """Someone is connected to the room here or, as far as this process last heard,
        through another one: a change of the room is worth reading its snapshot for."""
        return room_id in self.rooms or bool(self._remote_online.get(room_id))

    def online_members(self, room_id: str) -> set[int]:
        """Members connected here, plus those other processes last reported (Redis)."""
        return self.local_members(room_id) | self._remote_online.get(room_id, set())

    def send_state(self, conn: Connection, live: LiveGame) -> None:
        """The full view of the seat ``conn``'s member holds, as a ``state`` frame."""
        seat = live.seat_of(conn.member_id)
        conn.last_seq[live.id] = live.seq
        conn.view_seat[live.id] = seat
        if conn.patches is not None:
            live.observe(self.patch_steps, conn.patches)  # the next move can then go out as a patch
        conn.send_text(live.state_text(seat, conn.patches))

    def send_update(self, conn: Connection, live: LiveGame, newest: Step | None = None) -> None:
        """Bring ``conn`` to the current seq: ``patch`` frames from the view it holds when it
        takes them, holds a view of the same seat and the steps since are kept, and they are
        smaller than the full view; else a full ``state``. ``newest``, the step to the
        current seq (see fan_out_state), serves a connection one step behind at once."""
        last = conn.last_seq.get(live.id)
        if last is not None and last >= live.seq:
            return
        seat = live.seat_of(conn.member_id)
        form = conn.patches
        if form is not None and last is not None and conn.view_seat.get(live.id, _NO_VIEW) == seat:
            text, acked = None, None
            if newest is not None and newest.base == last:
                ref = conn.unacked
                if ref is not None and live.refs.get((conn.member_id, seat, ref)) == newest.seq:
                    # the mover's own step: its ack rides in the frame, one socket write fewer
                    text = live.step_text(newest, seat, form, ack=ref)
                    acked = ref if text is not None else None
                else:
                    text = live.step_text(newest, seat, form)
            texts = [text] if text is not None else live.patch_texts(seat, last, self.patch_steps, form)
            if texts is not None:
                size = sum(map(len, texts))
                if size < PATCH_ALWAYS or size < live.state_size(seat):
                    conn.last_seq[live.id] = live.seq
                    if acked is not None:
                        conn.unacked = None  # sent: the move's own ack frame is not
                    for text in texts:
                        conn.send_text(text)
                    return
        self.send_state(conn, live)

    def resume(self, conn: Connection, live: LiveGame, at: tuple[int, int | None] | None) -> None:
        """A reconnecting client says it holds a view of ``seat`` at ``seq`` (``at``): replay
        the patches it missed, if it holds a view of the seat its member holds now, else a
        full state."""
        if conn.patches is not None and at is not None and at[0] <= live.seq and at[1] == live.seat_of(conn.member_id):
            seq, seat = at
            conn.last_seq[live.id] = seq
            conn.view_seat[live.id] = seat
            self.send_update(conn, live)  # nothing at all if it is already current
            return
        self.send_state(conn, live)

    def follows(self, room_id: str, game_id: int | None) -> bool:
        """Whether a move of ``game_id`` in ``room_id`` has a use here: a socket of the room is
        open here, or the game is cached (``handle`` drops any other state event)."""
        return room_id in self.rooms or game_id in self.games.live

    def fan_out_state(self, live: LiveGame) -> None:
        """Each connection gets its own seat's view (encoded once per seat, see state_text),
        or the patch to it from the view it holds (encoded once per seat, see patch_texts)."""
        conns = self.rooms.get(live.room_id)
        if not conns:
            return
        # after a move, nearly every connection holds the view one step back: the step is
        # looked up once here, not by each connection among the steps kept (the views are
        # recorded only if some connection takes patches, see LiveGame.observe)
        newest = live.newest_step(self.patch_steps) if any(conn.patches is not None for conn in conns) else None
        for conn in list(conns):
            self.send_update(conn, live, newest)

    def fan_out(self, room_id: str, frame: Outbound) -> None:
        """``frame`` to every connection of the room, encoded once."""
        text = frame.encode()
        for conn in list(self.rooms.get(room_id, ())):
            conn.send_text(text)

    async def handle(self, event: Event) -> None:
        """Deliver one bus event to this process's connections."""
        room_id = event.room
        if isinstance(event, SeatsEvent) and event.game is not None:
            await self.games.reload_seats(event.game)  # cached here even with nobody connected
        if isinstance(event, ClosedEvent):
            self.games.close_room(room_id)
        if isinstance(event, StateEvent) and room_id not in self.rooms and event.game in self.games.live:
            # nobody here watches it, but the cached game stays current (a bot or a timer
            # that runs here next, or a socket that comes, finds it so)
            await self.games.apply_published(event.game, event.seq, event.moves)
            return
        if room_id not in self.rooms:
            return
        match event:
            case StateEvent(game=game, seq=seq, moves=moves):
                self.fan_out_state(await self.games.apply_published(game, seq, moves))
            case RoomEvent(snapshot=snap):
                await self._send_room(room_id, snap)
            case ChatEvent(chat=chat):
                self.fan_out(room_id, Chat(chat))
            case HostEvent(member=member, message=message):
                self.fan_out(room_id, Host(member, message))
            case SeatsEvent():
                await self._tell_identities(room_id)
            case StartedEvent(game=game, snapshot=snap):
                # the seats, the room, the first state: the frames three events used to send
                live = await self.games.get(game)
                self._tell_seats(room_id, live)
                await self._send_room(room_id, snap, at_once=True)  # before the first state
                self.fan_out_state(live)
            case KickedEvent(member=member, message=message):
                for conn in list(self.rooms.get(room_id, ())):
                    if conn.member_id == member:
                        conn.send_frame(Kicked(message))
                        conn.finish()
            case ClosedEvent(message=message):
                for conn in list(self.rooms.get(room_id, ())):
                    conn.send_frame(Closed(message))
                    conn.finish()

    async def resync(self, room_id: str) -> None:
        """What other processes published of the room may have been lost (the bus was cut
        off from Redis): read the room and its current game from the database and send what
        the connections here miss, as the start of a game does (seats, the room frame, the
        state, or nothing for a connection that is current)."""
        snap = await self.reads.read_snapshot(room_id)
        room = snap.room if snap is not None else {}
        game_id = room.get("game_id")
        if room.get("status") == "closed":
            await self.handle(ClosedEvent(room_id, CLOSED_MESSAGE))
        elif isinstance(game_id, int):
            await self.games.catch_up(game_id)
            await self.handle(StartedEvent(room_id, game_id, snap))
        else:
            await self.handle(RoomEvent(room_id, snap))

    async def _send_room(self, room_id: str, snap: RoomSnapshot | None, at_once: bool = False) -> None:
        """A ``room`` frame to every connection of the room: from ``snap``, the snapshot the
        event carries, or one read here. Events from two processes can arrive in the other
        order than their changes were made: a snapshot older than the last one sent here is
        dropped, and who is online is as this process knows it when the frame goes out.

        At most one room frame a room goes out every ``ROOM_FRAME_GAP`` seconds: one that
        comes sooner waits for the gap to pass, and the changes that come meanwhile go out
        with it in one frame. A socket opened and closed in a loop sent every socket of its
        room two frames a turn; the time they wait is nothing a person sees. ``at_once``
        (a game's start, whose first state follows) sends it now."""
        if snap is None:
            snap = await self.reads.read_snapshot(room_id)
        if snap is None or room_id not in self.rooms or snap.version < self.room_versions.get(room_id, 0):
            return
        self.room_versions[room_id] = snap.version
        loop = asyncio.get_running_loop()
        waiting = self.room_waiting.pop(room_id, None)
        if waiting is not None:
            waiting[1].cancel()
        wait = self.room_sent_at.get(room_id, -math.inf) + ROOM_FRAME_GAP - loop.time()
        if at_once or wait <= 0:
            self._room_frame(room_id, snap)
        else:
            self.room_waiting[room_id] = (snap, loop.call_later(wait, self._room_frame, room_id, snap))

    def _room_frame(self, room_id: str, snap: RoomSnapshot) -> None:
        self.room_waiting.pop(room_id, None)
        if room_id not in self.rooms:
            return
        self.room_sent_at[room_id] = asyncio.get_running_loop().time()
        room = snap.for_online(self.online_members(room_id))
        invite = room.get("invite_path")
        held, before = self.room_last.get(room_id, (0, None))
        number = held + 1
        self.room_last[room_id] = (number, room)
        full: str | None = None
        ops: list[Op] | None = None
        patches: dict[PatchForm, str] = {}
        for conn in list(self.rooms.get(room_id, ())):
            if not self.keeps_screen(conn, invite):
                continue  # a screen a new invite link retired: closed before it sees the new code
            form = conn.patches
            if form is not None and before is not None and conn.room_held == held:
                # the client holds the room of the last frame: it gets only what changed
                if ops is None:
                    ops = diff(before, room)
                patch = patches.get(form)
                if patch is None:
                    patch = patches[form] = RoomPatch(ops, form).encode() if ops else ""
                if patch:
                    conn.send_text(patch)
            else:
                if full is None:
                    full = Room(room).encode()
                conn.send_text(full)
            conn.room_held = number

    @staticmethod
    def keeps_screen(conn: Connection, invite_path: object) -> bool:
        """Whether ``conn`` may be sent a room whose invite is ``invite_path``: anything but
        a shared screen whose key held for another invite, which is told so and closed
        instead, with 4401 as a wrong key at the hello is. Every room a screen is sent is
        checked here: its key may be retired between its hello's check and its welcome."""
        if conn.screen_invite is None or conn.screen_invite == invite_path:
            return True
        conn.send_frame(Error(None, "bad_screen_key", SCREEN_RETIRED))
        conn.finish(4401)
        return False

    def _tell_seats(self, room_id: str, live: LiveGame) -> None:
        """A game began: each connection is told its member's seat in it, if that is not the
        seat it was last told (the game's holders are the database's game seats; the name,
        host role and stand-in are as last told, since a start changes none of them)."""
        for conn in list(self.rooms.get(room_id, ())):
            if conn.member_id is None:
                continue
            seat = live.seat_of(conn.member_id)
            if seat != conn.seat:
                conn.seat = seat
                conn.send_frame(You(conn.identity()))

    async def _tell_identities(self, room_id: str) -> None:
        """Seats, the host or a mute changed: each connection is told who its member is now."""
        people = await self.reads.identities(room_id)
        for conn in list(self.rooms.get(room_id, ())):
            you = people.get(conn.member_id) if conn.member_id is not None else None
            if you is None:
                continue  # kicked: the "kicked" frame closes it
            told = (conn.seat, conn.host, conn.away, conn.muted)
            if (you["seat"], you["host"], you["away"], you["muted"]) != told:
                conn.seat, conn.host, conn.away, conn.muted = you["seat"], you["host"], you["away"], you["muted"]
                conn.send_frame(You(Identity(**you)))
