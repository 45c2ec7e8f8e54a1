"""Two ``geniusnight serve`` processes on one PostgreSQL database and one Redis.

Runs when GENIUSNIGHT_TEST_POSTGRES_URL and GENIUSNIGHT_TEST_REDIS_URL are set; when they are
set and the services are unreachable the tests fail (they do not skip). Each test module run
gets its own database (``CREATE DATABASE gn_test_<random>``, dropped afterwards) and its own
Redis database index (the event channel carries the index, see ``bus.RedisBus``).
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from typing import Any

import httpx
import pytest
import websockets

from geniusnight.fixtures.count21 import ENGINE as TOY_ENGINE
from geniusnight.server.play.driver import SWEEP_GRACE
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


@contextmanager
def running_cluster(redis_url: str, bot_delay_ms: int) -> Iterator[Cluster]:
    """A cluster on a fresh database, started; afterwards stopped and the database dropped."""
    name = asyncio.run(_create_database())
    c = Cluster(name, redis_url, bot_delay_ms=bot_delay_ms)
    try:
        yield c.start()
    finally:
        c.stop()
        asyncio.run(_drop_database(name))


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with running_cluster(_redis_url(), bot_delay_ms=20) as c:
        yield c


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
    with running_cluster(_redis_url(), bot_delay_ms=400) as c:
        yield c


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
    from prometheus_client import REGISTRY

    def fired() -> float:  # both apps run in this process: one counter for the two
        return REGISTRY.get_sample_value("geniusnight_timeouts_fired_total", {"game": "count21"}) or 0.0

    fired_before = fired()
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
    assert fired() - fired_before == 2  # and the metric counted each once


class Follower:
    """A client behind the proxy: follows ``reconnect`` frames to the other process, resends
    its unanswered moves with their ``ref``, and plays its seat (``add 1``) when it is to act."""

    def __init__(self, c: Cluster, on: str, room: str, token: str, seat: int) -> None:
        self.c, self.on, self.room, self.token, self.seat = c, on, room, token, seat
        self.state: dict[str, Any] = {}
        self.pending: dict[str, dict[str, Any]] = {}  # ref -> action, unanswered
        self.acked: dict[str, int] = {}  # ref -> seq
        self.refused: list[dict[str, Any]] = []
        self.reconnects = 0
        self.drops = 0  # sockets that ended without a reconnect frame (must stay 0)
        self.longest_quiet = 0.0  # the longest wait between two new states, seconds
        self.done = asyncio.Event()

    def server(self) -> ServerProcess:
        return self.c.a if self.on == "a" else self.c.b

    async def run(self) -> None:
        while not self.done.is_set():
            p = await Player(self.server().ws_base, self.room, self.token).connect(seq=self.state.get("seq"))
            try:
                for ref, action in self.pending.items():
                    await p.send({"type": "act", "ref": ref, "action": action})
                await self._on_state(p, p.state)
                await self._play(p)
            except websockets.ConnectionClosed:
                self.drops += 1
            finally:
                await p.close()

    async def _play(self, p: Player) -> None:
        loop = asyncio.get_running_loop()
        last_new = loop.time()
        while not self.done.is_set():
            try:
                frame = await p.recv(timeout=0.25)
            except TimeoutError:
                continue
            kind = frame["type"]
            if kind == "state" and frame["seq"] > self.state.get("seq", -1):
                self.longest_quiet = max(self.longest_quiet, loop.time() - last_new)
                last_new = loop.time()
                await self._on_state(p, frame)
            elif kind == "ack":
                self.acked[frame["ref"]] = frame["seq"]
                self.pending.pop(frame["ref"], None)
            elif kind == "error" and frame.get("ref") in self.pending:
                self.refused.append(frame)
                self.pending.pop(frame["ref"])
            elif kind == "reconnect":
                self.reconnects += 1
                self.on = "b" if self.on == "a" else "a"  # the proxy's other upstream
                return

    async def _on_state(self, p: Player, frame: dict[str, Any]) -> None:
        if not frame or frame["seq"] < self.state.get("seq", -1):
            return
        self.state = frame
        view = frame["view"]
        ref = f"s{self.seat}-{frame['seq']}"
        if view["over"]:
            self.done.set()
        elif view["to_act"] == [self.seat] and not self.pending and ref not in self.acked:
            self.pending[ref] = {"type": "add", "n": 1}
            await p.send({"type": "act", "ref": ref, "action": self.pending[ref]})


@pytest.fixture
def rolling_cluster() -> Iterator[Cluster]:
    name = asyncio.run(_create_database())
    c = Cluster(name, _redis_url(), bot_delay_ms=ROLLING_BOT_DELAY_MS)
    try:
        yield c.start()
    finally:
        c.stop()
        asyncio.run(_drop_database(name))


ROLLING_BOT_DELAY_MS = 150
ROLLING_ROOMS = 6


async def _restart(c: Cluster, which: str) -> float:
    """SIGTERM one process, wait for it to exit, start its successor on the same port."""
    old = c.a if which == "a" else c.b
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.to_thread(old.stop)
    drained = loop.time() - began
    new = await asyncio.to_thread(ServerProcess(c.db_url, port=old.port, env=old.env).start)
    if which == "a":
        c.a = new
    else:
        c.b = new
    return drained


async def test_a_rolling_restart_during_bot_games_loses_no_move(rolling_cluster: Cluster) -> None:
    c = rolling_cluster
    followers: list[Follower] = []
    for i in range(ROLLING_ROOMS):
        room = await _room(c, {"target": 99}, bots=2, humans=1)
        on = "a" if i % 2 == 0 else "b"
        # the host plays on one process, a second tab of the same seat watches on the other
        followers.append(Follower(c, on, room["room"], room["tokens"][0], seat=0))
        followers.append(Follower(c, "b" if on == "a" else "a", room["room"], room["tokens"][0], seat=-1))
    tasks = [asyncio.create_task(f.run()) for f in followers]
    started = asyncio.get_running_loop().time()
    drained: list[float] = []
    exposed: list[tuple[Follower, int]] = []  # (client, reconnects before) on a restarting process
    for which in ("a", "b"):
        await asyncio.sleep(1.0)
        exposed += [(f, f.reconnects) for f in followers if f.on == which and not f.done.is_set()]
        drained.append(await _restart(c, which))
    try:
        await asyncio.wait_for(asyncio.gather(*(f.done.wait() for f in followers)), 45)
    finally:
        for f in followers:
            f.done.set()
        ended = await asyncio.gather(*tasks, return_exceptions=True)
    assert not [e for e in ended if isinstance(e, BaseException)], ended
    elapsed = asyncio.get_running_loop().time() - started
    total_moves = 0
    for f in followers:
        game_id = f.state["game_id"]
        state, moves = await c.replayed(game_id)  # every log whole: contiguous, replays
        assert TOY_ENGINE.outcome(state) is not None
        # each client ends with the server's view
        assert f.state["seq"] == len(moves) and f.state["view"]["counter"] == state.counter
        # no acknowledged move is lost: each ack's seq holds this seat's move
        for seq in f.acked.values():
            assert moves[seq - 1]["seat"] == 0
        assert not f.pending and not f.refused, (f.pending, f.refused)
        assert f.drops == 0 and f.reconnects <= 2  # one reconnect per restart of its process, at most
        total_moves += len(moves) if f.seat == 0 else 0
    # every client on a restarting process was asked to reconnect, and both restarts had some
    assert all(f.reconnects > before for f, before in exposed)
    assert len(exposed) >= len(followers)
    # events crossed Redis: the first successor heard the second process's moves
    assert await _metric(c.a, "geniusnight_redis_lag_seconds_count") > 0
    print(
        f"\nrolling restart: {ROLLING_ROOMS} games, {total_moves} moves, {len(followers)} clients, "
        f"{elapsed:.1f} s; drain+exit {drained[0]:.2f} s and {drained[1]:.2f} s; "
        f"reconnects {sum(f.reconnects for f in followers)}; "
        f"longest wait for a move {max(f.longest_quiet for f in followers):.1f} s"
    )
