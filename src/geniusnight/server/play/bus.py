"""The event bus between processes: presence, claims and events.

With Redis configured, events travel through pub/sub so that any process can serve any room; a
``state`` event carries the last moves committed, which a subscriber applies to its cached
game, and one that missed messages sees the ``seq`` jump and reads the missing moves from the
database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any

from .. import metrics
from .events import (
    BadEvent,
    Brief,
    Event,
    RoomEvent,
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
from .games import LiveGame
from .hub import Hub

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
        self.hub.set_remote_online(room_id, others)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_REFRESH)
            for room_id in list(set(self.hub.rooms_here()) | set(self._written)):
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
        socket here reads itself anew (:meth:`Hub.resync`)."""
        for room_id in self.hub.rooms_here():
            try:
                await self.hub.resync(room_id)
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
            if isinstance(event, RoomEvent | StartedEvent) and self.hub.serves(event.room):
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
