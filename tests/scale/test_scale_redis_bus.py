"""The Redis bus under a burst: every event published reaches the other process, even when
more are in flight than the connection pool holds (redis-py's default pool fails a command
then, which dropped events when a batch of moves committed together).

Runs when GENIUSNIGHT_TEST_REDIS_URL is set; fails if that Redis is unreachable."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import pytest

from geniusnight.server.play import bus
from geniusnight.server.play.bus import RedisBus
from geniusnight.server.play.events import ChatEvent, Event, StateEvent, brief, dumps, encode, pack, unpack
from support import until

REDIS = os.environ.get("GENIUSNIGHT_TEST_REDIS_URL")
pytestmark = pytest.mark.skipif(not REDIS, reason="GENIUSNIGHT_TEST_REDIS_URL not set")
BURST = 3 * bus.REDIS_CONNECTIONS + 100  # more than redis-py's default pool of 100, too


class Recorder:
    """Stands in for a process's hub: records what the bus delivers."""

    def __init__(self) -> None:
        self.rooms: dict[str, set[Any]] = {"r": set()}
        self.remote_online: dict[str, set[int]] = {}  # as the bus sets it
        self.events: list[Event] = []
        self.games = SimpleNamespace(live={})  # the games this process caches: none

    def rooms_here(self) -> list[str]:
        return list(self.rooms)

    def serves(self, room_id: str) -> bool:
        return room_id in self.rooms

    def follows(self, room_id: str, game_id: int | None) -> bool:
        return room_id in self.rooms or game_id in self.games.live

    def local_members(self, room_id: str) -> set[int]:
        return set()

    def set_remote_online(self, room_id: str, members: set[int]) -> None:
        if members:
            self.remote_online[room_id] = members
        else:
            self.remote_online.pop(room_id, None)

    async def handle(self, event: Event) -> None:
        self.events.append(event)


@asynccontextmanager
async def buses() -> AsyncIterator[tuple[RedisBus, Recorder, RedisBus, Recorder]]:
    """Two processes' buses on a fresh database index, the receiver subscribed: the sender,
    its hub, the receiver, its hub. Both are stopped on the way out."""
    from .test_scale_multiprocess import _redis_url  # here: a test module's tests, imported, would run twice

    url = _redis_url()
    sender_hub, receiver_hub = Recorder(), Recorder()
    sender = RedisBus(sender_hub, url)  # type: ignore[arg-type]
    receiver = RedisBus(receiver_hub, url)  # type: ignore[arg-type]
    await receiver.start()
    try:
        await asyncio.sleep(0.3)  # subscribed
        yield sender, sender_hub, receiver, receiver_hub
    finally:
        await receiver.stop()
        await sender.stop()


async def test_a_burst_larger_than_the_pool_reaches_the_other_process() -> None:
    async with buses() as (sender, sender_hub, _, receiver_hub):
        events = [ChatEvent("r", {"text": str(i)}) for i in range(BURST)]
        await asyncio.gather(*(sender.publish(e) for e in events))
        for _ in range(200):
            if len(receiver_hub.events) == len(events):
                break
            await asyncio.sleep(0.05)
        said = [e.chat["text"] for e in receiver_hub.events if isinstance(e, ChatEvent)]
        assert sorted(map(int, said)) == list(range(BURST))
        assert len(sender_hub.events) == BURST  # and the sending process delivered its own
        await sender.stop()


def mine(hub: Recorder, room: str) -> list[Event]:
    """What reached ``hub`` for ``room`` (tests running beside this one may share the channel)."""
    return [e for e in hub.events if e.room == room]


async def test_events_published_together_go_out_in_few_messages_in_their_order() -> None:
    room = secrets.token_hex(6)
    async with buses() as (sender, sender_hub, receiver, receiver_hub):
        watch = receiver.redis.pubsub()
        await watch.subscribe(receiver.channel)
        try:
            events = [ChatEvent(room, {"text": str(i)}) for i in range(600)]
            await asyncio.gather(*(sender.publish(e) for e in events))
            await until(lambda: len(mine(receiver_hub, room)) == len(events), seconds=10)
            assert mine(receiver_hub, room) == sender_hub.events  # every one, in the order published
            messages = 0
            for _ in range(50):
                got = await watch.get_message(timeout=0.02)
                if got is not None and got["type"] == "message":
                    messages += unpack(got["data"])[0] == sender.origin
            # at most MESSAGE_EVENTS a message; all were published at once, so few messages
            assert -(-len(events) // bus.MESSAGE_EVENTS) <= messages <= 10
        finally:
            await watch.aclose()


async def test_a_message_of_the_release_before_is_delivered() -> None:
    room = secrets.token_hex(6)
    async with buses() as (_, _, receiver, receiver_hub):
        events = [{"kind": "chat", "room": room, "chat": {"text": str(i)}} for i in range(3)]
        old = {"origin": "another", "sent": time.time(), "events": events}
        await receiver.redis.publish(receiver.channel, json.dumps(old))
        await until(lambda: len(mine(receiver_hub, room)) == 3, seconds=2)
        assert mine(receiver_hub, room) == [ChatEvent(room, {"text": str(i)}) for i in range(3)]


async def test_moves_of_a_room_nobody_here_watches_are_passed_over_and_the_rest_delivered() -> None:
    room, watched = secrets.token_hex(6), secrets.token_hex(6)
    async with buses() as (_, _, receiver, receiver_hub):
        receiver_hub.rooms[watched] = set()
        sent = [StateEvent(room, 1, 5), StateEvent(watched, 2, 7), ChatEvent(room, {"text": "hi"})]
        body = pack("another", time.time(), [(brief(e), dumps(encode(e))) for e in sent])
        await receiver.redis.publish(receiver.channel, body)
        await until(lambda: mine(receiver_hub, room), seconds=2)
        assert mine(receiver_hub, watched) == [StateEvent(watched, 2, 7)]
        assert mine(receiver_hub, room) == [ChatEvent(room, {"text": "hi"})]  # its move never reached the hub


async def test_a_message_that_is_not_one_is_dropped_and_the_next_delivered() -> None:
    room = secrets.token_hex(6)
    async with buses() as (_, _, receiver, receiver_hub):
        chat = ChatEvent(room, {"text": "after"})
        await receiver.redis.publish(receiver.channel, b"not json\n{}")
        bad_line = pack("another", time.time(), [(brief(chat), b"{not json")])
        await receiver.redis.publish(receiver.channel, bad_line)
        await receiver.redis.publish(
            receiver.channel, pack("another", time.time(), [(brief(chat), dumps(encode(chat)))])
        )
        await until(lambda: mine(receiver_hub, room), seconds=2)
        assert mine(receiver_hub, room) == [chat]


async def test_a_head_line_entry_that_is_no_brief_leaves_its_event_to_be_read() -> None:
    room = secrets.token_hex(6)
    async with buses() as (_, _, receiver, receiver_hub):
        chat = ChatEvent(room, {"text": "hi"})
        head = json.dumps({"origin": "another", "sent": time.time(), "index": [["state", [room], {}]]})
        await receiver.redis.publish(receiver.channel, head.encode() + b"\n" + dumps(encode(chat)))
        await until(lambda: mine(receiver_hub, room), seconds=2)
        assert mine(receiver_hub, room) == [chat]


async def test_a_message_of_one_event_from_an_older_release_is_delivered() -> None:
    room = secrets.token_hex(6)
    async with buses() as (_, _, receiver, receiver_hub):
        old = {"origin": "another", "sent": time.time(), "kind": "chat", "room": room, "chat": {"text": "hi"}}
        await receiver.redis.publish(receiver.channel, json.dumps(old))
        await until(lambda: mine(receiver_hub, room), seconds=2)
        assert mine(receiver_hub, room) == [ChatEvent(room, {"text": "hi"})]


async def test_what_a_stopping_process_published_still_reaches_the_others() -> None:
    room = secrets.token_hex(6)
    async with buses() as (sender, _, _, receiver_hub):
        await sender.publish(ChatEvent(room, {"text": "last words"}))
        await sender.stop()  # at once, before the outbox had a turn of the loop
        await until(lambda: mine(receiver_hub, room), seconds=2)
        assert mine(receiver_hub, room) == [ChatEvent(room, {"text": "last words"})]


async def test_the_outbox_stays_bounded_while_redis_takes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from .test_scale_multiprocess import _redis_url

    monkeypatch.setattr(bus, "MAX_OUTBOX", 10)
    sender_hub = Recorder()
    sender = RedisBus(sender_hub, _redis_url())  # type: ignore[arg-type]
    stuck = asyncio.Event()

    async def never(*args: Any) -> None:
        await stuck.wait()

    monkeypatch.setattr(sender.redis, "publish", never)
    try:
        for i in range(35):
            await sender.publish(ChatEvent("r", {"text": str(i)}))
        assert len(sender._outbox) <= 10 and len(sender_hub.events) == 35  # delivered here all the same
    finally:
        stuck.set()
        await sender.stop()
