"""Two ``geniusnight serve`` processes on one PostgreSQL database and one Redis.

Runs when GENIUSNIGHT_TEST_POSTGRES_URL and GENIUSNIGHT_TEST_REDIS_URL are set; when they are
set and the services are unreachable the tests fail (they do not skip). Each test module run
gets its own database (``CREATE DATABASE gn_test_<random>``, dropped afterwards) and its own
Redis database index (the event channel carries the index, see ``realtime.RedisBus``).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import httpx
import pytest

from geniusnight.bench.toy import ENGINE as TOY_ENGINE
from geniusnight.server.driver import SWEEP_GRACE
from support import TOY, FakeClock, ServerProcess
from wsclient import Player, host_post, join, make_room

PG = os.environ.get("GENIUSNIGHT_TEST_POSTGRES_URL")
REDIS = os.environ.get("GENIUSNIGHT_TEST_REDIS_URL")
pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not (PG and REDIS), reason="GENIUSNIGHT_TEST_POSTGRES_URL / _REDIS_URL not set"),
]


def _admin_dsn() -> str:
    assert PG is not None
    return PG.replace("postgresql+asyncpg://", "postgresql://")


async def _create_database() -> str:
    import asyncpg

    name = f"gn_test_{secrets.token_hex(5)}"
    conn = await asyncpg.connect(_admin_dsn())  # unreachable -> the test fails, as it must
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return name


async def _drop_database(name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_admin_dsn())
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def _redis_url() -> str:
    """A random database index on the given server, emptied first."""
    import redis

    assert REDIS is not None
    base = REDIS.rstrip("/")
    if base.count("/") > 2:  # drop an index given in the URL
        base = base.rsplit("/", 1)[0]
    url = f"{base}/{secrets.randbelow(14) + 2}"
    client = redis.from_url(url)
    client.ping()  # unreachable -> the test fails
    client.flushdb()
    client.close()
    return url


async def replayed(db_name: str, game_id: int) -> tuple[Any, list[dict[str, Any]]]:
    """The game's log, checked contiguous, and the state it replays to."""
    import json

    import asyncpg

    conn = await asyncpg.connect(f"{_admin_dsn().rsplit('/', 1)[0]}/{db_name}")
    try:
        rows = await conn.fetch("SELECT seq, seat, action FROM moves WHERE game_id = $1 ORDER BY seq", game_id)
        game = await conn.fetchrow("SELECT players, options, seed FROM games WHERE id = $1", game_id)
    finally:
        await conn.close()
    moves = [{"seq": r["seq"], "seat": r["seat"], "action": json.loads(r["action"])} for r in rows]
    assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1)), "a gap or a fork in the log"
    state = TOY_ENGINE.setup(game["players"], json.loads(game["options"]), game["seed"])
    for m in moves:
        state = TOY_ENGINE.apply(state, m["seat"], m["action"])
    return state, moves


class Cluster:
    """A fresh database, a Redis index and two server processes."""

    def __init__(self, db_name: str, redis_url: str, bot_delay_ms: int) -> None:
        assert PG is not None
        self.db_name = db_name
        self.db_url = f"{PG.rsplit('/', 1)[0]}/{db_name}"
        env = {"GENIUSNIGHT_REDIS_URL": redis_url, "GENIUSNIGHT_BOT_DELAY_MS": str(bot_delay_ms)}
        self.a = ServerProcess(self.db_url, env=env)
        self.b = ServerProcess(self.db_url, env=env)

    def start(self) -> Cluster:
        from geniusnight.cli import db_upgrade

        db_upgrade(self.db_url)
        self.a.start()
        self.b.start()
        return self

    def stop(self) -> None:
        self.a.stop()
        self.b.stop()

    async def replayed(self, game_id: int) -> tuple[Any, list[dict[str, Any]]]:
        return await replayed(self.db_name, game_id)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    name = asyncio.run(_create_database())
    c = Cluster(name, _redis_url(), bot_delay_ms=20)
    try:
        yield c.start()
    finally:
        c.stop()
        asyncio.run(_drop_database(name))


@pytest.fixture
async def players() -> AsyncIterator[list[Player]]:
    opened: list[Player] = []
    yield opened
    for p in opened:
        await p.close()


async def _room(c: Cluster, options: dict[str, Any], bots: int = 0, humans: int = 2) -> dict[str, Any]:
    """A room made on A; the second human joins through B; started on B by the host."""
    room_id, host_token, invite = await make_room(c.a.base, options=options)
    tokens = [host_token]
    for i in range(1, humans):
        tokens.append((await join(c.b.base if i % 2 else c.a.base, invite, f"P{i}"))["token"])
    for _ in range(bots):
        r = await host_post(c.a.base, room_id, host_token, "/bots", {"bot": "smart"})
        assert r.status_code == 200, r.text
    r = await host_post(c.b.base, room_id, host_token, "/start")
    assert r.status_code == 200, r.text
    return {"room": room_id, "tokens": tokens, "invite": invite}


async def test_players_split_across_processes_play_a_whole_game_with_a_bot(
    cluster: Cluster, players: list[Player]
) -> None:
    room = await _room(cluster, {"target": 30}, bots=1)
    p0 = await Player(cluster.a.ws_base, room["room"], room["tokens"][0]).connect()
    p1 = await Player(cluster.b.ws_base, room["room"], room["tokens"][1]).connect()
    players += [p0, p1]
    # presence crosses processes: B's snapshot shows the host (connected to A) online
    await p1.send({"type": "hello", "token": room["tokens"][1], "seq": None})
    snap = (await p1.expect("room"))["room"]
    assert all(s["online"] for s in snap["seats"]), snap["seats"]
    game_id = p0.state["game_id"]
    by_seat = {0: p0, 1: p1}
    while not p0.state["view"]["over"]:
        view = p0.state["view"]
        seat = view["to_act"][0]
        if seat in by_seat:
            ack = await by_seat[seat].act({"type": "add", "n": 1})
            assert ack["type"] == "ack", ack
            seq = ack["seq"]
        else:
            seq = p0.state["seq"] + 1  # the bot's move, made by whichever process claimed it
        for p in (p0, p1):
            await p.wait_state(lambda v, p=p, seq=seq: p.state["seq"] >= seq)
    await p1.wait_state(lambda v: v["over"])
    state, moves = await cluster.replayed(game_id)
    assert TOY_ENGINE.outcome(state) is not None
    assert p0.state["seq"] == p1.state["seq"] == len(moves)
    assert p0.state["view"]["counter"] == p1.state["view"]["counter"] == state.counter
    assert {m["seat"] for m in moves} == {0, 1, 2}  # both humans and the bot played


async def test_conflicting_moves_from_both_processes_never_fork_the_log(
    cluster: Cluster, players: list[Player]
) -> None:
    room = await _room(cluster, {"target": 99})
    # every seat has a tab on each process; both tabs send the seat's move at the same time
    tabs = {
        seat: [
            await Player(cluster.a.ws_base, room["room"], room["tokens"][seat]).connect(),
            await Player(cluster.b.ws_base, room["room"], room["tokens"][seat]).connect(),
        ]
        for seat in (0, 1)
    }
    players += tabs[0] + tabs[1]
    game_id = tabs[0][0].state["game_id"]
    rounds = 30
    for r in range(rounds):
        seat = r % 2
        first, second = tabs[seat]
        answers = await asyncio.gather(
            first.act({"type": "add", "n": 1}, ref=f"a{r}"), second.act({"type": "add", "n": 2}, ref=f"b{r}")
        )
        acks = [a for a in answers if a["type"] == "ack"]
        assert len(acks) == 1, answers  # exactly one of the two same-turn moves is accepted
        assert acks[0]["seq"] == r + 1
        refused = [a for a in answers if a["type"] == "error"]
        assert refused[0]["code"] == "not_your_turn", refused
        for tab in tabs[0] + tabs[1]:
            await tab.wait_state(lambda v, tab=tab, r=r: tab.state["seq"] >= r + 1)
    state, moves = await cluster.replayed(game_id)
    assert len(moves) == rounds
    for tab in tabs[0] + tabs[1]:
        assert tab.state["seq"] == rounds
        assert tab.state["view"]["counter"] == state.counter


@pytest.fixture
def doomed_cluster() -> Iterator[Cluster]:
    name = asyncio.run(_create_database())
    c = Cluster(name, _redis_url(), bot_delay_ms=400)
    try:
        yield c.start()
    finally:
        c.stop()
        asyncio.run(_drop_database(name))


async def test_killing_a_process_leaves_the_room_playable_through_the_other(
    doomed_cluster: Cluster, players: list[Player]
) -> None:
    c = doomed_cluster
    room = await _room(c, {"target": 12}, bots=1, humans=1)
    host = await Player(c.a.ws_base, room["room"], room["tokens"][0]).connect()
    watcher = await Player(c.b.ws_base, room["room"], room["tokens"][0]).connect()
    players += [host, watcher]
    game_id = host.state["game_id"]
    ack = await host.act({"type": "add", "n": 1})
    assert ack["type"] == "ack"
    c.a.kill()  # A committed the move and owed the bot its turn: the sweep on B must take it over
    await watcher.wait_state(lambda v: watcher.state["seq"] >= 2 and v["to_act"] == [0], timeout=20)
    survivor = await Player(c.b.ws_base, room["room"], room["tokens"][0]).connect()
    players.append(survivor)
    while not survivor.state["view"]["over"]:
        seq = survivor.state["seq"]
        ack = await survivor.act({"type": "add", "n": 1})
        assert ack["type"] == "ack", ack
        await survivor.wait_state(lambda v, seq=seq: v["over"] or survivor.state["seq"] >= seq + 2, timeout=10)
    state, moves = await c.replayed(game_id)
    assert TOY_ENGINE.outcome(state) is not None
    assert survivor.state["seq"] == len(moves)
    assert survivor.state["view"]["counter"] == state.counter


async def _metric(server: ServerProcess, name: str, **labels: str) -> float:
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient(base_url=server.base) as c:
        r = await c.get("/metrics", headers={"Authorization": "Bearer " + "t" * 32})
    r.raise_for_status()
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    return 0.0


@asynccontextmanager
async def two_servers_on_one_clock(clock: FakeClock) -> AsyncIterator[tuple[str, httpx.AsyncClient, httpx.AsyncClient]]:
    """Two servers in this process, each with its own services (live cache, driver, sweep,
    Redis subscriber), on a fresh database and Redis index, both reading ``clock``. Yields the
    database's name and a client for each."""
    from geniusnight.cli import db_upgrade
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    assert PG is not None
    name = await _create_database()
    try:
        db_url = f"{PG.rsplit('/', 1)[0]}/{name}"
        db_upgrade(db_url)
        settings = Settings(
            env="test", database_url=db_url, redis_url=_redis_url(), extra_engines=[TOY], bot_delay_ms=0
        )
        async with AsyncExitStack() as stack:
            clients = []
            for _ in range(2):
                app = create_app(settings, clock=clock)
                await stack.enter_async_context(app.router.lifespan_context(app))
                client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
                clients.append(await stack.enter_async_context(client))
            yield name, clients[0], clients[1]
    finally:
        await _drop_database(name)


async def test_a_phase_clock_runs_once_across_processes() -> None:
    clock = FakeClock()
    async with two_servers_on_one_clock(clock) as (db_name, a, b):
        body = {"game": "count21", "options": {"target": 99}, "name": "Ada", "time_limits": {"play": 5}}
        created = (await a.post("/api/rooms", json=body)).json()
        room_id, host = created["room_id"], {"Authorization": f"Bearer {created['token']}"}
        invite = created["invite_url"].rsplit("/", 1)[-1]
        assert (await b.post(f"/api/join/{invite}", json={"name": "Bea"})).status_code == 200
        assert (await b.post(f"/api/rooms/{room_id}/start", headers=host)).status_code == 200

        game_id = (await b.get(f"/api/rooms/{room_id}/view", headers=host)).json()["game_id"]
        for timeouts in (1, 2):
            # nobody moves; the clock jumps past the deadline and the sweeps' grace, so B's
            # timer and both processes' sweeps all go for the same deadline
            clock.advance(5 + SWEEP_GRACE + 0.5)
            for _ in range(300):
                state, moves = await replayed(db_name, game_id)
                if len(moves) >= timeouts:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)  # the losers of the race have had their turn
            state, moves = await replayed(db_name, game_id)
            assert len(moves) == timeouts, moves
    assert len(moves) == 2, moves
    assert all(m["seat"] is None and m["action"] == {"type": "timeout"} for m in moves)
    assert state.counter == len(moves)  # each deadline's timeout was applied exactly once
