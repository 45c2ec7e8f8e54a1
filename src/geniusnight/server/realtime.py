"""Connections, per-seat fan-out, and the event bus between processes.

Every ``state`` frame a connection gets is built here, from ``engine.view(state, its seat)``
and nothing else. With Redis configured, events travel through pub/sub so that any process
can serve any room; a subscriber that missed a message sees the ``seq`` jump and replays the
missing moves from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from .games import GameService, LiveGame

log = logging.getLogger(__name__)

CHANNEL = "geniusnight:events"


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


@dataclass(eq=False)
class Connection:
    ws: WebSocket
    room_id: str
    member_id: int | None
    seat: int | None
    name: str
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=512))
    last_seq: dict[int, int] = field(default_factory=dict)  # game id -> last seq sent
    closed: bool = False

    def send_json(self, payload: dict[str, Any]) -> None:
        self.send_text(json.dumps(payload, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            # a client this far behind resyncs when it reconnects
            self.finish()

    def finish(self) -> None:
        """Close after the frames already queued have gone out."""
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:
            pass
        finally:
            self.closed = True
            with contextlib.suppress(Exception):
                await self.ws.close()


def state_frame(live: LiveGame, seat: int | None) -> dict[str, Any]:
    deadline = live.deadline_at.timestamp() * 1000 if live.deadline_at else None
    return {
        "type": "state",
        "game_id": live.id,
        "seq": live.seq,
        "deadline": deadline,
        "view": live.view(seat),
    }


class Hub:
    """This process's websocket connections, by room."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.rooms: dict[str, set[Connection]] = {}
        # builds the public room snapshot for ``room`` frames (set by the app)
        self.room_snapshot: Callable[[str], Awaitable[dict[str, Any] | None]] | None = None

    def add(self, conn: Connection) -> None:
        self.rooms.setdefault(conn.room_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        conns = self.rooms.get(conn.room_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.rooms[conn.room_id]

    def online_members(self, room_id: str) -> set[int]:
        return {c.member_id for c in self.rooms.get(room_id, ()) if c.member_id is not None}

    def send_state(self, conn: Connection, live: LiveGame) -> None:
        conn.last_seq[live.id] = live.seq
        conn.send_json(state_frame(live, conn.seat))

    def fan_out_state(self, live: LiveGame) -> None:
        """Each connection gets its own seat's view; views are computed once per seat."""
        frames: dict[int | None, str] = {}
        for conn in list(self.rooms.get(live.room_id, ())):
            if conn.last_seq.get(live.id, -1) >= live.seq:
                continue
            text = frames.get(conn.seat)
            if text is None:
                text = json.dumps(state_frame(live, conn.seat), separators=(",", ":"))
                frames[conn.seat] = text
            conn.last_seq[live.id] = live.seq
            conn.send_text(text)

    def fan_out(self, room_id: str, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        for conn in list(self.rooms.get(room_id, ())):
            conn.send_text(text)

    async def handle(self, event: dict[str, Any]) -> None:
        """Deliver one bus event to this process's connections."""
        kind = event.get("kind")
        room_id = event["room"]
        if room_id not in self.rooms:
            return
        if kind == "state":
            live = await self.games.get(event["game"])
            if live.seq < event["seq"]:
                live = await self.games.catch_up(event["game"])
            self.fan_out_state(live)
        elif kind == "room":
            if self.room_snapshot is not None:
                snap = await self.room_snapshot(room_id)
                if snap is not None:
                    self.fan_out(room_id, {"type": "room", "room": snap})
        elif kind == "chat":
            self.fan_out(room_id, {"type": "chat", **event["chat"]})
        elif kind in ("kicked", "closed"):
            # a kicked member's connections, or everyone's when the room is closed
            for conn in list(self.rooms.get(room_id, ())):
                if kind == "closed" or conn.member_id == event.get("member"):
                    conn.send_json({"type": kind, "message": event.get("message", "")})
                    conn.finish()


class Bus:
    """Delivers events to every process's hub. This one: only the local process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def publish(self, event: dict[str, Any]) -> None:
        await self.hub.handle(event)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def claim(self, key: str, seconds: float) -> bool:
        """True if this process should run the one-off job ``key`` (bots, timers)."""
        return True


class RedisBus(Bus):
    """Fan-out between processes over Redis pub/sub (at-most-once; gaps resync by seq)."""

    def __init__(self, hub: Hub, url: str) -> None:
        super().__init__(hub)
        import redis.asyncio as redis

        self.redis = redis.from_url(url)
        self.origin = uuid.uuid4().hex
        self._task: asyncio.Task[None] | None = None

    async def publish(self, event: dict[str, Any]) -> None:
        await self.hub.handle(event)
        try:
            await self.redis.publish(CHANNEL, json.dumps({"origin": self.origin, **event}))
        except Exception:  # other processes resync from the database on the next event
            log.exception("redis publish failed")

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub()
                await pubsub.subscribe(CHANNEL)
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    event = json.loads(message["data"])
                    if event.pop("origin", None) == self.origin:
                        continue
                    try:
                        await self.hub.handle(event)
                    except Exception:
                        log.exception("could not deliver %r", event)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis subscription lost; reconnecting")
                await asyncio.sleep(1)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def claim(self, key: str, seconds: float) -> bool:
        try:
            return bool(await self.redis.set(f"geniusnight:claim:{key}", self.origin, nx=True, ex=max(1, int(seconds))))
        except Exception:
            log.exception("redis claim failed; running the job here")
            return True
