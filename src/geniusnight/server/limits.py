"""Limits a public server needs (each a setting, see settings.py): how often one address may
create rooms, how fast a member may chat, how many sockets one address and the whole process
may hold. Counted in this process's memory: with several processes each counts its own."""

from __future__ import annotations

import time
from collections import Counter, deque


class WindowLimit:
    """At most ``limit`` events per key in any ``seconds`` long window."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.events: dict[object, deque[float]] = {}

    def hit(self, key: object, now: float | None = None) -> bool:
        """Count an event for ``key``; False (and not counted) if it is over the limit."""
        now = time.monotonic() if now is None else now
        if len(self.events) > 10_000:  # forget keys whose window has passed
            for k in [k for k, q in self.events.items() if q[-1] <= now - self.seconds]:
                del self.events[k]
        queue = self.events.setdefault(key, deque())
        while queue and queue[0] <= now - self.seconds:
            queue.popleft()
        if len(queue) >= self.limit:
            return False
        queue.append(now)
        return True


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
