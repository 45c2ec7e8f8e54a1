"""Redis goes away mid-game and comes back (docs/deploy.md, "Redis"): two processes on
PostgreSQL and a Redis server this module starts itself (``redis-server --port <free port>
--save ''``), killed by its PID. The machine's own Redis is never touched.

While Redis is away every process stays ready (``/readyz`` 200, ``degraded: true``,
``geniusnight_redis_degraded`` 1), moves on both processes commit and reach the sockets of
the process that committed them; once Redis is back, each process resyncs its rooms from the
database, so a client sees the moves another process committed meanwhile without moving.

Runs when GENIUSNIGHT_TEST_POSTGRES_URL is set and ``redis-server`` is installed.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support import free_port
from wsclient import Player, host_post, join, make_room

from .test_scale_multiprocess import PG, Cluster, running_cluster

REDIS_SERVER = shutil.which("redis-server")
pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not PG, reason="GENIUSNIGHT_TEST_POSTGRES_URL not set"),
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed"),
]
ADMIN = {"Authorization": "Bearer " + "t" * 32}  # ServerProcess's admin token


class LocalRedis:
    """A throwaway redis-server on 127.0.0.1:``port``, no persistence; stop() kills it by PID."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> LocalRedis:
        assert REDIS_SERVER is not None
        args = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.from_url(self.url).ping()
                return self
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def outage() -> Iterator[tuple[Cluster, LocalRedis]]:
    local = LocalRedis(free_port()).start()
    try:
        with running_cluster(local.url, bot_delay_ms=20) as cluster:
            yield cluster, local
    finally:
        local.stop()


async def _ready(base: str) -> tuple[int, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=base) as c:
        r = await c.get("/readyz")
    return r.status_code, r.json()


async def _until_degraded(base: str, degraded: bool, within: float = 40.0) -> dict[str, Any]:
    end = time.monotonic() + within
    while True:
        status, body = await _ready(base)
        assert status == 200, body  # ready all along: Redis is no condition of readiness
        if body["degraded"] is degraded:
            return body
        assert time.monotonic() < end, body
        await asyncio.sleep(0.2)


async def _degraded_metric(base: str) -> float:
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient(base_url=base) as c:
        text = (await c.get("/metrics", headers=ADMIN)).text
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "geniusnight_redis_degraded":
                return s.value
    raise AssertionError("no geniusnight_redis_degraded sample")


async def test_a_redis_outage_keeps_every_process_ready_and_moves_committing(
    outage: tuple[Cluster, LocalRedis], players: list[Player]
) -> None:
    cluster, local = outage
    room_id, host_token, invite = await make_room(cluster.a.base, options={"target": 99})
    guest_token = (await join(cluster.b.base, invite, "Guest"))["token"]
    assert (await host_post(cluster.a.base, room_id, host_token, "/start")).status_code == 200
    host = await Player(cluster.a.ws_base, room_id, host_token).connect()  # seat 0, on A
    guest = await Player(cluster.b.ws_base, room_id, guest_token).connect()  # seat 1, on B
    players += [host, guest]

    # with Redis: a move on A reaches B's socket
    assert (await host.act({"type": "add", "n": 1}))["type"] == "ack"
    await guest.wait_state(lambda v: guest.state["seq"] >= 1)
    assert (await _ready(cluster.a.base))[1]["degraded"] is False

    local.stop()
    for server in (cluster.a, cluster.b):
        body = await _until_degraded(server.base, True)
        assert body["ready"] is True and body["database"] == "ok" and body["redis"].startswith("error:")
        assert await _degraded_metric(server.base) == 1

    # moves still commit on both processes; each process's own sockets get them at once
    ack = await guest.act({"type": "add", "n": 2})  # B's cache is current: seq 1
    assert ack["type"] == "ack" and ack["seq"] == 2, ack
    await guest.wait_state(lambda v: guest.state["seq"] >= 2)
    await asyncio.sleep(0.5)
    assert host.state["seq"] == 1  # A heard nothing of it: cross-process fan-out waits for Redis
    ack = await host.act({"type": "add", "n": 3})  # judged again on the log, not on A's stale cache
    assert ack["type"] == "ack" and ack["seq"] == 3, ack
    await host.wait_state(lambda v: host.state["seq"] >= 3)
    assert host.state["view"]["counter"] == 6

    # Redis back on the same address: both processes subscribe again and resync their rooms,
    # so the guest sees the host's move of the outage without any new move
    local.start()
    for server in (cluster.a, cluster.b):
        await _until_degraded(server.base, False)
        assert await _degraded_metric(server.base) == 0
    await guest.wait_state(lambda v: guest.state["seq"] >= 3, timeout=10)
    assert guest.state["view"]["counter"] == 6

    # and fan-out crosses processes again
    assert (await guest.act({"type": "add", "n": 1}))["type"] == "ack"
    await host.wait_state(lambda v: host.state["seq"] >= 4)
    _, moves = await cluster.replayed(host.state["game_id"])
    assert [(m["seq"], m["seat"]) for m in moves] == [(1, 0), (2, 1), (3, 0), (4, 1)]
