"""Limits a public server needs (each a setting, see settings.py; docs/deploy.md, "Abuse
limits"): how often one address may create rooms, open websockets and try admin tokens, how
fast a member may chat, how many sockets one address and the whole process may hold.

Rates are sliding windows: at most ``limit`` events per key in any ``seconds``. With Redis
configured they are counted there (:class:`RedisWindowLimit`), so that every process of a
deployment shares one count; otherwise, and while Redis does not answer, in this process's
memory (:class:`WindowLimit`). Open sockets are counted per process (the proxy's
``limit_conn`` caps them per address across the deployment, deploy/nginx.conf).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
import uuid
from collections import Counter, deque
from typing import Any, Protocol

log = logging.getLogger(__name__)

REDIS_SECONDS = 1.0  # a limit's Redis call may take this long before the process counts alone
REDIS_RETRY = 5.0  # seconds a limit counts alone after Redis failed, before asking it again


class RateLimit(Protocol):
    """At most ``limit`` events per key in any ``seconds`` long window."""

    limit: int

    async def hit(self, key: str) -> bool:
        """Count an event for ``key``; False (and not counted) if it is over the limit."""
        ...

    async def full(self, key: str) -> bool:
        """Whether the next event for ``key`` would be over the limit (nothing counted)."""
        ...


class WindowLimit:
    """A :class:`RateLimit` counted in this process's memory."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.events: dict[object, deque[float]] = {}

    async def hit(self, key: str) -> bool:
        return self.count(key)

    async def full(self, key: str) -> bool:
        return self.over(key)

    def count(self, key: object, now: float | None = None) -> bool:
        """Count an event for ``key``; False (and not counted) if it is over the limit."""
        now = time.monotonic() if now is None else now
        if self.over(key, now):
            return False
        self.events.setdefault(key, deque()).append(now)
        return True

    def over(self, key: object, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self.events) > 10_000:  # forget keys whose window has passed
            for k in [k for k, q in self.events.items() if q[-1] <= now - self.seconds]:
                del self.events[k]
        queue = self.events.get(key)
        if queue is None:
            return False
        while queue and queue[0] <= now - self.seconds:
            queue.popleft()
        return len(queue) >= self.limit


# KEYS[1]: a sorted set of the key's events, scored by their time in ms (Redis's clock, the
# same for every process). ARGV: the limit, the window in ms, "1" to count an event, and the
# event's unique name. Returns 1 if the event is (or would be) within the limit.
WINDOW_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
end
return 1
"""


class RedisWindowLimit:
    """A :class:`RateLimit` counted in Redis, shared by every process that uses the same
    Redis database and ``name``. While Redis does not answer, this process counts alone
    (its :class:`WindowLimit`), so that a Redis outage neither lifts the limit nor refuses
    everyone."""

    def __init__(self, redis: Any, name: str, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.prefix = f"geniusnight:limit:{name}:"
        self.script = redis.register_script(WINDOW_SCRIPT)
        self.local = WindowLimit(limit, seconds)
        self.events = (f"{uuid.uuid4().hex}:{n}" for n in itertools.count())
        self.failing = False  # the last call failed (logged once until one succeeds)
        self.retry_at = 0.0  # while failing: when to ask Redis again (monotonic clock)

    async def hit(self, key: str) -> bool:
        return await self._ask(key, count=True)

    async def full(self, key: str) -> bool:
        return not await self._ask(key, count=False)

    async def _ask(self, key: str, count: bool) -> bool:
        if self.failing and time.monotonic() < self.retry_at:
            return self._ask_here(key, count)
        args = [self.limit, int(self.seconds * 1000), "1" if count else "0", next(self.events)]
        try:
            within = await asyncio.wait_for(self.script(keys=[self.prefix + key], args=args), REDIS_SECONDS)
        except Exception as e:
            if not self.failing:
                log.warning("redis limit %s failed (%s): counting in this process", self.prefix, type(e).__name__)
            self.failing, self.retry_at = True, time.monotonic() + REDIS_RETRY
            return self._ask_here(key, count)
        self.failing = False
        return bool(within)

    def _ask_here(self, key: str, count: bool) -> bool:
        return self.local.count(key) if count else not self.local.over(key)


def rate_limit(limit: int, seconds: float, name: str, redis: Any = None) -> RateLimit:
    """The limit counted in Redis when the process has a Redis client, else in memory."""
    return RedisWindowLimit(redis, name, limit, seconds) if redis is not None else WindowLimit(limit, seconds)


class SocketCount:
    """Open websockets, by client address and in total."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address, self.total = per_address, total
        self.by_address: Counter[str] = Counter()
        self.count = 0

    def open(self, address: str) -> str | None:
        """Count a new socket, or give the error code that refuses it (nothing counted then)."""
        if self.count >= self.total:
            return "server_full"
        if self.by_address[address] >= self.per_address:
            return "too_many_sockets"
        self.by_address[address] += 1
        self.count += 1
        return None

    def close(self, address: str) -> None:
        self.count -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
