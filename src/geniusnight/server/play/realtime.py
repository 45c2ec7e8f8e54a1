"""Connections, per-seat fan-out, and the event bus between processes.

Every ``state`` frame a connection gets is sent from here, as ``LiveGame.state_text`` encodes
it from the engine's view of the seat its member holds in that game (``LiveGame.seat_of``) and
nothing else. With Redis configured, events travel through pub/sub so that any process can
serve any room; a ``state`` event carries the last moves committed, which a subscriber
applies to its cached game, and one that missed messages sees the ``seq`` jump and reads the
missing moves from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import uuid
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from starlette.types import Send

from .. import metrics
from .events import (
    BadEvent,
    Brief,
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
    brief,
    decode,
    dumps,
    encode,
    pack,
    read,
    unpack,
)
from .games import GameService, LiveGame
from .patches import Step
from .patches import encode as encode_json

log = logging.getLogger(__name__)

CHANNEL = "geniusnight:events"  # with Redis, suffixed by the database index (see RedisBus)
PRESENCE_TTL = 30.0  # seconds a process's presence entries live without a refresh
PRESENCE_REFRESH = 10.0
REDIS_CONNECTIONS = 64  # per process
REDIS_WAIT = 10.0  # seconds a command may wait for a free connection
MESSAGE_EVENTS = 256  # events one bus message holds at most
MAX_OUTBOX = 100_000  # events waiting for Redis before they are dropped (memory stays bounded)
# Without Redis a process keeps serving its own rooms (docs/deploy.md, "Redis"): a command
# gives up after this long, and the subscription is tried again after a backoff that grows
# from the first to the second figure
REDIS_COMMAND_SECONDS = 2.0
REDIS_BACKOFF = (0.5, 30.0)
CLOSED_MESSAGE = "This room was closed."  # a closure another process announced while Redis was away


class TokenBucket:
    """Flood control per connection: ``rate`` frames a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


_NO_VIEW = -1  # no seat's view (seats are None or from 0)
PATCH_ALWAYS = 256  # bytes: patches this small go out without a look at the full frame's size
MAX_BACKLOG = 512  # frames a connection may fall behind before it is dropped (it resyncs)
WRITER_LINGER = 2.0  # seconds a connection's writer waits for more frames before it ends


class _Resumed:
    """The rest of an awaitable that was run until it first had to wait (on ``waiting``, what
    it yielded): awaiting this waits for that and runs the awaitable on to its end, passing
    on whatever the awaiting task is sent or thrown (a cancellation, say)."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Generator[Any, Any, None], waiting: Any) -> None:
        self.coro, self.waiting = coro, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                sent = yield waiting
            except BaseException as e:
                try:
                    waiting = coro.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration:
                    return

    def close(self) -> None:
        self.coro.close()


@dataclass(eq=False)
class Connection:
    """One websocket. Frames go out in order, and a slow client never holds up a fan-out.

    A frame to a connection with nothing queued is sent at once: the server's ASGI send is
    run until it would wait, and a socket that takes the frame (as nearly every one does)
    never has to. Only a send that must wait (the client's TCP window is full) is finished by
    a writer task, and the frames that come meanwhile queue in a backlog it drains. A writer's
    turn through the loop for every frame would cost CPU on every move and delay every frame
    by a loop iteration (docs/performance.md, D15).

    The writer stays while frames keep coming and ends after ``WRITER_LINGER`` quiet
    seconds: an idle connection (most of them, most of the time) holds no task. One timer a
    connection watches for the quiet, re-armed while frames keep coming, not one a frame:
    each timer lived on in the loop's heap for ``WRITER_LINGER`` seconds after it was
    cancelled."""

    send: Send  # the server's ASGI send for this socket, past the handshake
    room_id: str
    member_id: int | None
    seat: int | None  # the member's seat as last told to the client (``you``); views go by the game's holders
    name: str
    host: bool = False  # the room's host as last told to the client
    away: bool = False  # a bot stands in for the member, as last told to the client
    muted: bool = False  # the host muted the member's chat, as last told to the client
    last_seq: dict[int, int] = field(default_factory=dict)  # game id -> last seq sent
    view_seat: dict[int, int | None] = field(default_factory=dict)  # game id -> seat of that view
    patches: bool = False  # the client takes ``patch`` frames (it said so in hello)
    closed: bool = False  # no more frames are taken; the socket closes once the backlog is out
    backlog: deque[str] = field(default_factory=deque)
    _writer: asyncio.Task[None] | None = None
    _wake: asyncio.Future[None] | None = None  # set while the writer waits for frames
    _waiting_since: float = 0.0  # loop time the writer began to wait
    _quiet_timer: asyncio.TimerHandle | None = None
    _sending: _Resumed | None = None  # a send that had to wait, for the writer to finish

    def send_json(self, payload: dict[str, Any]) -> None:
        self.send_text(encode_json(payload))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self._idle():
            self._send_now(text)
            return
        if len(self.backlog) >= MAX_BACKLOG:
            self.finish()  # a client this far behind resyncs when it reconnects
            return
        self.backlog.append(text)
        self._kick()

    def _idle(self) -> bool:
        """Nothing queued, nothing on its way, no writer busy: a frame can go out now."""
        return not self.backlog and self._sending is None and (self._writer is None or self._wake is not None)

    def _send_now(self, text: str) -> None:
        coro = self.send({"type": "websocket.send", "text": text}).__await__()
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # sent
        except Exception:
            self._lost()
        else:
            self._sending = _Resumed(coro, waiting)
        self._kick()

    def _lost(self) -> None:
        """The socket is gone: no more frames are taken, none queued or held is sent, and
        the writer closes it."""
        self.closed = True
        self.backlog.clear()

    def finish(self) -> None:
        """Close after the frames already queued (or held) have gone out."""
        if not self.closed:
            self.closed = True
            self._kick()

    async def stop(self) -> None:
        """The socket is gone: drop what is queued and end the writer."""
        self._lost()
        if self._quiet_timer is not None:
            self._quiet_timer.cancel()
            self._quiet_timer = None
        task = self._writer
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._sending is not None:  # the writer never began on it
            self._sending.close()
            self._sending = None

    def _kick(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None:
            if not wake.done():
                wake.set_result(None)
        elif self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                sending = self._sending
                if sending is not None:
                    await sending
                    self._sending = None
                while self.backlog:
                    await self.send({"type": "websocket.send", "text": self.backlog.popleft()})
                if self.closed:
                    break
                self._wake = wake = loop.create_future()
                self._waiting_since = loop.time()
                if self._quiet_timer is None:
                    self._quiet_timer = loop.call_later(WRITER_LINGER, self._check_quiet)
                await wake
                self._wake = None
                if not self.backlog and self._sending is None and not self.closed:
                    return  # quiet for a while: let the task go; the next frame starts another
        except Exception:
            self._lost()
            self._sending = None
        finally:
            self._writer = None
            self._wake = None
        with contextlib.suppress(Exception):
            await self.send({"type": "websocket.close", "code": 1000})

    def _check_quiet(self) -> None:
        """The quiet timer: wake a writer that has waited ``WRITER_LINGER`` seconds (it finds
        nothing to send and ends); one that waited less is checked again when that time is
        up. A writer busy sending starts the timer again when it next waits."""
        self._quiet_timer = None
        wake = self._wake
        if wake is None or wake.done():
            return
        loop = asyncio.get_running_loop()
        left = self._waiting_since + WRITER_LINGER - loop.time()
        if left > 0:
            self._quiet_timer = loop.call_later(left, self._check_quiet)
        else:
            wake.set_result(None)


# seconds between two room frames of one room: the changes that come meanwhile (sockets
# opening and closing, people joining) go out together in one frame once the time is up
ROOM_FRAME_GAP = 0.25

# sent to every socket when the process shuts down (docs/protocol.md, "reconnect")
RECONNECT_FRAME = {
    "type": "reconnect",
    "message": "This server is restarting. Connect again and send hello with your last seq.",
}


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
        # members online through other processes, by room (kept by RedisBus)
        self.remote_online: dict[str, set[int]] = {}
        # the version of the last room snapshot sent, by room with connections here
        self.room_versions: dict[str, int] = {}
        # when the last room frame went out, and the snapshot waiting for ROOM_FRAME_GAP to
        # pass with the timer that sends it, by room (see _send_room)
        self.room_sent_at: dict[str, float] = {}
        self.room_waiting: dict[str, tuple[RoomSnapshot, asyncio.TimerHandle]] = {}

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
                waiting = self.room_waiting.pop(conn.room_id, None)
                if waiting is not None:
                    waiting[1].cancel()

    def connections(self) -> list[Connection]:
        return [conn for conns in self.rooms.values() for conn in conns]

    def local_members(self, room_id: str) -> set[int]:
        return {c.member_id for c in self.rooms.get(room_id, ()) if c.member_id is not None}

    def member_sockets(self, room_id: str, member_id: int | None) -> int:
        """How many sockets ``member_id`` has open to ``room_id`` here."""
        return sum(1 for c in self.rooms.get(room_id, ()) if c.member_id == member_id)

    def watched(self, room_id: str) -> bool:
        """Someone is connected to the room here or, as far as this process last heard,
        through another one: a change of the room is worth reading its snapshot for."""
        return room_id in self.rooms or bool(self.remote_online.get(room_id))

    def online_members(self, room_id: str) -> set[int]:
        """Members connected here, plus those other processes last reported (Redis)."""
        return self.local_members(room_id) | self.remote_online.get(room_id, set())

    def send_state(self, conn: Connection, live: LiveGame) -> None:
        """The full view of the seat ``conn``'s member holds, as a ``state`` frame."""
        seat = live.seat_of(conn.member_id)
        conn.last_seq[live.id] = live.seq
        conn.view_seat[live.id] = seat
        if conn.patches:
            live.observe(self.patch_steps)  # the next move can then go out as a patch
        conn.send_text(live.state_text(seat))

    def send_update(self, conn: Connection, live: LiveGame, newest: Step | None = None) -> None:
        """Bring ``conn`` to the current seq: ``patch`` frames from the view it holds when it
        takes them, holds a view of the same seat and the steps since are kept, and they are
        smaller than the full view; else a full ``state``. ``newest``, the step to the
        current seq (see fan_out_state), serves a connection one step behind at once."""
        last = conn.last_seq.get(live.id)
        if last is not None and last >= live.seq:
            return
        seat = live.seat_of(conn.member_id)
        if conn.patches and last is not None and conn.view_seat.get(live.id, _NO_VIEW) == seat:
            if newest is not None and newest.base == last:
                texts: list[str] | None = [live.step_text(newest, seat)]
            else:
                texts = live.patch_texts(seat, last, self.patch_steps)
            if texts is not None:
                size = sum(map(len, texts))
                if size < PATCH_ALWAYS or size < live.state_size(seat):
                    conn.last_seq[live.id] = live.seq
                    for text in texts:
                        conn.send_text(text)
                    return
        self.send_state(conn, live)

    def resume(self, conn: Connection, live: LiveGame, at: tuple[int, int | None] | None) -> None:
        """A reconnecting client says it holds a view of ``seat`` at ``seq`` (``at``): replay
        the patches it missed, if it holds a view of the seat its member holds now, else a
        full state."""
        if conn.patches and at is not None and at[0] <= live.seq and at[1] == live.seat_of(conn.member_id):
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
        newest = live.newest_step(self.patch_steps) if any(conn.patches for conn in conns) else None
        for conn in list(conns):
            self.send_update(conn, live, newest)

    def fan_out(self, room_id: str, payload: dict[str, Any]) -> None:
        text = encode_json(payload)
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
                self.fan_out(room_id, {"type": "chat", **chat})
            case HostEvent(member=member, message=message):
                self.fan_out(room_id, {"type": "host", "member_id": member, "message": message})
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
                        conn.send_json({"type": "kicked", "message": message})
                        conn.finish()
            case ClosedEvent(message=message):
                for conn in list(self.rooms.get(room_id, ())):
                    conn.send_json({"type": "closed", "message": message})
                    conn.finish()

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
        self.fan_out(room_id, {"type": "room", "room": snap.for_online(self.online_members(room_id))})

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
                you = {
                    "member_id": conn.member_id,
                    "name": conn.name,
                    "seat": seat,
                    "host": conn.host,
                    "away": conn.away,
                    "muted": conn.muted,
                }
                conn.send_json({"type": "you", "you": you})

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
                conn.send_json({"type": "you", "you": you})


class Bus:
    """Delivers events to every process's hub. This one: only the local process."""

    connected = True  # events reach every process (always: this one is the only one)

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def publish(self, event: Event) -> None:
        await self.hub.handle(event)

    def publish_state(self, live: LiveGame, event: StateEvent) -> None:
        """A move of ``live`` was committed here (``event`` says so): this process's
        connections get it from the game itself, without the event's trip through
        :meth:`Hub.handle`, which would look the game up again (every move, every process)."""
        self.hub.fan_out_state(live)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def ping(self) -> None:
        return None

    async def claim(self, key: str, seconds: float) -> bool:
        """True if this process should run the one-off job ``key`` (bots, timers)."""
        return True

    async def online(self, room_id: str) -> set[int]:
        """The members of ``room_id`` with a socket open now, on any process."""
        return self.hub.online_members(room_id)


class RedisBus(Bus):
    """Fan-out between processes over Redis pub/sub (at-most-once; gaps resync by seq).

    Pub/sub channels are global to a Redis server, not per database index, so the channel
    name carries the index: processes share events exactly when they share a database index.
    Claims and presence are ordinary keys in that database.

    Presence: each process keeps a sorted set per room, ``presence:<room>``, whose members are
    ``<origin>:<member id>`` scored by an expiry time; it writes its own entries whenever it
    publishes a room change (a connect or a disconnect) and refreshes them every
    ``PRESENCE_REFRESH`` seconds, so a killed process's members drop out after
    ``PRESENCE_TTL`` seconds.
    """

    def __init__(self, hub: Hub, url: str) -> None:
        super().__init__(hub)
        import redis.asyncio as redis

        # a blocking pool: a burst of moves committed together publishes at once, and a
        # publish that failed for want of a connection would leave other processes a move short
        pool = redis.BlockingConnectionPool.from_url(
            url,  # redis://, rediss:// (TLS) or unix://; a Sentinel or managed endpoint is one of these
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT,
            socket_connect_timeout=REDIS_COMMAND_SECONDS,  # an unreachable Redis fails fast
            socket_keepalive=True,
        )
        self.redis = redis.Redis.from_pool(pool)
        db = int(self.redis.connection_pool.connection_kwargs.get("db", 0) or 0)
        self.channel = f"{CHANNEL}:{db}"
        self.origin = uuid.uuid4().hex
        self._task: asyncio.Task[None] | None = None
        self._refresh_task: asyncio.Task[None] | None = None
        self._written: dict[str, set[int]] = {}  # room -> member ids this process wrote
        self._deliveries: set[asyncio.Task[None]] = set()  # state events being delivered
        self._outbox: list[tuple[Brief, bytes]] = []  # events published here, not yet sent to Redis
        self._sender: asyncio.Task[None] | None = None  # sends the outbox while it holds any
        self.connected = False  # subscribed to the channel: other processes' events arrive
        self._publishing = True  # the last publish went through (a failure is logged once)

    async def publish(self, event: Event) -> None:
        if isinstance(event, RoomEvent | StartedEvent):
            await self._presence(event.room)
        await self.hub.handle(event)
        self._post(event)

    def publish_state(self, live: LiveGame, event: StateEvent) -> None:
        self.hub.fan_out_state(live)
        self._post(event)

    def _post(self, event: Event) -> None:
        """Queue ``event`` for the other processes (see _send)."""
        if len(self._outbox) >= MAX_OUTBOX:  # Redis has not taken a message for a long while
            log.error("redis outbox full: dropping %d events (other processes resync by seq)", len(self._outbox))
            self._outbox.clear()
        self._outbox.append((brief(event), dumps(encode(event))))
        if self._sender is None:
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        """Publish the outbox, in order, as few messages as it takes: the events that come
        while one message is on its way (the moves of one group commit, say) go in the next.
        One message a move cost each process a Redis round trip per move to send, and every
        other process a message per move to read."""
        try:
            while self._outbox:
                events, self._outbox = self._outbox[:MESSAGE_EVENTS], self._outbox[MESSAGE_EVENTS:]
                try:
                    message = pack(self.origin, time.time(), events)
                    await asyncio.wait_for(self.redis.publish(self.channel, message), REDIS_COMMAND_SECONDS)
                except Exception as e:  # other processes resync from the database on the next event
                    metrics.REDIS_EVENTS_LOST.inc(len(events))
                    if self._publishing:
                        log.warning("redis publish failed (%s); other processes miss these events", _why(e))
                    self._publishing = False
                else:
                    self._publishing = True
        finally:
            self._sender = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())
        self._refresh_task = asyncio.create_task(self._refresh())

    # --- presence ----------------------------------------------------------------------

    def _key(self, room_id: str) -> str:
        return f"geniusnight:presence:{room_id}"

    async def _presence(self, room_id: str) -> None:
        """Write this process's members of ``room_id`` and read everyone else's."""
        try:
            key = self._key(room_id)
            local = self.hub.local_members(room_id)
            gone = self._written.get(room_id, set()) - local
            now = time.time()
            pipe = self.redis.pipeline(transaction=False)
            if gone:
                pipe.zrem(key, *(f"{self.origin}:{m}" for m in gone))
            if local:
                pipe.zadd(key, {f"{self.origin}:{m}": now + PRESENCE_TTL for m in local})
                pipe.expire(key, int(PRESENCE_TTL * 2))
            pipe.zrangebyscore(key, now, "+inf")
            results = await asyncio.wait_for(pipe.execute(), REDIS_COMMAND_SECONDS)
            if local:
                self._written[room_id] = local
            else:
                self._written.pop(room_id, None)
            self._remember(room_id, results[-1])
        except Exception as e:
            if self.connected:
                log.warning("redis presence failed for room %s: %s", room_id, _why(e))

    async def _read_presence(self, room_id: str) -> None:
        try:
            read = self.redis.zrangebyscore(self._key(room_id), time.time(), "+inf")
            self._remember(room_id, await asyncio.wait_for(read, REDIS_COMMAND_SECONDS))
        except Exception as e:
            if self.connected:
                log.warning("redis presence read failed for room %s: %s", room_id, _why(e))

    def _remember(self, room_id: str, entries: Any) -> None:
        others: set[int] = set()
        for raw in entries:
            text = raw.decode() if isinstance(raw, bytes) else str(raw)
            origin, _, member = text.rpartition(":")
            if origin != self.origin and member.isdigit():
                others.add(int(member))
        if others:
            self.hub.remote_online[room_id] = others
        else:
            self.hub.remote_online.pop(room_id, None)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_REFRESH)
            for room_id in list(set(self.hub.rooms) | set(self._written)):
                await self._presence(room_id)

    # --- events ------------------------------------------------------------------------

    async def _listen(self) -> None:
        """Subscribe, read, and subscribe again when the connection is lost: after a backoff
        that doubles up to ``REDIS_BACKOFF[1]``. Meanwhile this process serves its own rooms
        (moves commit; only other processes' events are missing); once subscribed again it
        resyncs the rooms it serves from the database (:meth:`_resync`)."""
        backoff, lost_at = REDIS_BACKOFF[0], None
        while True:
            pubsub = self.redis.pubsub()
            try:
                await asyncio.wait_for(pubsub.subscribe(self.channel), REDIS_COMMAND_SECONDS)
                self.connected, backoff = True, REDIS_BACKOFF[0]
                if lost_at is not None:
                    away = time.monotonic() - lost_at
                    log.warning("redis is back after %.1f s: resyncing this process's rooms", away)
                    lost_at = None
                    await self._resync()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        await self._read(message["data"])
                raise ConnectionError("the subscription ended")
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.connected = False
                if lost_at is None:
                    lost_at = time.monotonic()
                    log.error(
                        "redis unreachable (%s): serving this process's rooms only; other processes' "
                        "events are missed until it is back",
                        _why(e),
                    )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, REDIS_BACKOFF[1])
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), REDIS_COMMAND_SECONDS)

    async def _resync(self) -> None:
        """Redis is back: what other processes published meanwhile was lost. Each room with a
        socket here reads its room and its current game from the database and sends what its
        connections miss, as the start of a game does (seats, the room frame, the state, or
        nothing for a connection that is current)."""
        for room_id in list(self.hub.rooms):
            try:
                snap = await self.hub.reads.read_snapshot(room_id)
                room = snap.room if snap is not None else {}
                game_id = room.get("game_id")
                if room.get("status") == "closed":
                    await self.hub.handle(ClosedEvent(room_id, CLOSED_MESSAGE))
                elif isinstance(game_id, int):
                    await self.hub.games.catch_up(game_id)
                    await self.hub.handle(StartedEvent(room_id, game_id, snap))
                else:
                    await self.hub.handle(RoomEvent(room_id, snap))
            except Exception:
                log.exception("could not resync room %s", room_id)

    async def _read(self, data: Any) -> None:
        """Deliver the events of one bus message (see ``events.pack``) that concern this
        process. Its own messages, and the moves of rooms nobody here watches whose games
        are not cached, are passed over from the message's head line, unread."""
        try:
            origin, sent, items = unpack(data)
        except ValueError as e:  # orjson.JSONDecodeError is one
            log.error("not a message on the bus: %s", e)
            return
        if origin == self.origin:
            return
        if isinstance(sent, int | float):
            metrics.REDIS_LAG_SECONDS.observe(max(0.0, time.time() - sent))
        for about, body in items:
            if about is not None and about[0] == StateEvent.kind and not self.hub.follows(about[1], about[2]):
                continue  # as _receive would, without reading it
            try:
                value = read(body)
            except ValueError as e:
                log.error("not an event on the bus: %s", e)
                continue
            await self._receive(value)

    async def _receive(self, data: Any) -> None:
        try:
            event = decode(data)
        except BadEvent as e:
            log.error("not an event on the bus: %s", e)
            return
        if isinstance(event, StateEvent):
            if not self.hub.follows(event.room, event.game):
                return  # as Hub.handle would, without a task
            # each may read new moves from the database first: let those reads overlap (a
            # late one finds its seq already sent and sends nothing)
            task = asyncio.create_task(self._deliver(event))
            self._deliveries.add(task)
            task.add_done_callback(self._deliveries.discard)
        else:
            await self._deliver(event)

    async def _deliver(self, event: Event) -> None:
        try:
            if isinstance(event, RoomEvent | StartedEvent) and event.room in self.hub.rooms:
                await self._read_presence(event.room)
            await self.hub.handle(event)
        except Exception:
            log.exception("could not deliver %r", event)

    async def stop(self) -> None:
        if self._sender is not None:  # what this process published still goes out
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sender), REDIS_WAIT)
        for delivery in list(self._deliveries):
            delivery.cancel()
        for task in (self._task, self._refresh_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            pipe = self.redis.pipeline(transaction=False)
            for room_id, members in self._written.items():
                pipe.zrem(self._key(room_id), *(f"{self.origin}:{m}" for m in members))
            await pipe.execute()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def ping(self) -> None:
        await asyncio.wait_for(self.redis.ping(), REDIS_COMMAND_SECONDS)

    async def online(self, room_id: str) -> set[int]:
        await self._read_presence(room_id)
        return self.hub.online_members(room_id)

    async def claim(self, key: str, seconds: float) -> bool:
        try:
            claim = self.redis.set(f"geniusnight:claim:{key}", self.origin, nx=True, ex=max(1, int(seconds)))
            return bool(await asyncio.wait_for(claim, REDIS_COMMAND_SECONDS))
        except Exception as e:  # a job run twice is harmless (the same ref is applied once)
            if self.connected:
                log.warning("redis claim failed (%s); running the job here", _why(e))
            return True


def _why(error: BaseException) -> str:
    """An exception as one short log field."""
    return f"{type(error).__name__}: {error}"[:200]
