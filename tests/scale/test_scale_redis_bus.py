"""The Redis bus under a burst: every event published reaches the other process, even when
more are in flight than the connection pool holds (redis-py's default pool fails a command
then, which dropped events when a batch of moves committed together).

Runs when GENIUSNIGHT_TEST_REDIS_URL is set; fails if that Redis is unreachable."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from geniusnight.server.play import realtime
from geniusnight.server.play.events import ChatEvent, Event
from geniusnight.server.play.realtime import RedisBus

REDIS = os.environ.get("GENIUSNIGHT_TEST_REDIS_URL")
pytestmark = pytest.mark.skipif(not REDIS, reason="GENIUSNIGHT_TEST_REDIS_URL not set")
BURST = 3 * realtime.REDIS_CONNECTIONS + 100  # more than redis-py's default pool of 100, too


class Recorder:
    """Stands in for a process's hub: records what the bus delivers."""

    def __init__(self) -> None:
        self.rooms: dict[str, set[Any]] = {"r": set()}
        self.remote_online: dict[str, set[int]] = {}
        self.events: list[Event] = []

    def local_members(self, room_id: str) -> set[int]:
        return set()

    async def handle(self, event: Event) -> None:
        self.events.append(event)


async def test_a_burst_larger_than_the_pool_reaches_the_other_process() -> None:
    from .test_scale_multiprocess import _redis_url  # a fresh database index

    url = _redis_url()
    sender_hub, receiver_hub = Recorder(), Recorder()
    sender = RedisBus(sender_hub, url)  # type: ignore[arg-type]
    receiver = RedisBus(receiver_hub, url)  # type: ignore[arg-type]
    await receiver.start()
    try:
        await asyncio.sleep(0.3)  # subscribed
        events = [ChatEvent("r", {"text": str(i)}) for i in range(BURST)]
        await asyncio.gather(*(sender.publish(e) for e in events))
        for _ in range(200):
            if len(receiver_hub.events) == len(events):
                break
            await asyncio.sleep(0.05)
        said = [e.chat["text"] for e in receiver_hub.events if isinstance(e, ChatEvent)]
        assert sorted(map(int, said)) == list(range(BURST))
        assert len(sender_hub.events) == BURST  # and the sending process delivered its own
    finally:
        await receiver.stop()
        await sender.stop()
