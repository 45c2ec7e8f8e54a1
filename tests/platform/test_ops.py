"""Health, readiness and metrics (docs/deploy.md "Health checks" and "Metrics")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from support import TOY, ServerProcess, free_port
from wsclient import Player, host_post, make_room

ADMIN = {"Authorization": "Bearer " + "t" * 32}  # ServerProcess's admin token


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, keyed by name and sorted labels."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(data: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return data.get((name, tuple(sorted(labels.items()))), 0.0)


async def scrape(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with httpx.AsyncClient(base_url=server.base) as c:
        r = await c.get("/metrics", headers=ADMIN)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return samples(r.text)


async def test_healthz_and_readyz_answer_when_the_database_does(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base) as c:
        health = await c.get("/healthz")
        ready = await c.get("/readyz")
    assert health.status_code == 200 and health.json() == {"ok": True}
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "draining": False, "degraded": False, "database": "ok"}  # no Redis


async def test_metrics_need_the_admin_token(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.base) as c:
        anonymous = await c.get("/metrics")
        wrong = await c.get("/metrics", headers={"Authorization": "Bearer nope"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "admin_auth"
    assert wrong.status_code == 401


async def test_metrics_move_when_a_game_is_played(server: ServerProcess) -> None:
    before = await scrape(server)
    room_id, token, _ = await make_room(server.base, options={"target": 12})
    assert (await host_post(server.base, room_id, token, "/bots", {"bot": "smart"})).status_code == 200
    assert (await host_post(server.base, room_id, token, "/start")).status_code == 200
    host = await Player(server.ws_base, room_id, token).connect()
    try:
        during = await scrape(server)
        assert value(during, "geniusnight_connections") >= 1
        assert value(during, "geniusnight_rooms", status="playing") >= 1
        assert value(during, "geniusnight_live_games", game="count21") >= 1
        refused = await host.act({"type": "add", "n": 7})
        assert refused["type"] == "error" and refused["code"] == "bad_amount", refused
        mine = 0
        while not host.state["view"]["over"]:
            if host.state["view"]["to_act"] == [0]:
                ack = await host.act({"type": "add", "n": 1})
                assert ack["type"] == "ack", ack
                mine += 1
            await host.wait_state(lambda v, seq=host.state["seq"]: v["over"] or host.state["seq"] > seq)
        moves = host.state["seq"]
    finally:
        await host.close()
    after = await scrape(server)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("geniusnight_moves_accepted_total", game="count21") == moves
    assert delta("geniusnight_moves_refused_total", game="count21", code="bad_amount") == 1
    assert delta("geniusnight_move_commit_seconds_count", game="count21") == moves
    assert delta("geniusnight_move_fanout_seconds_count", game="count21") == moves
    assert delta("geniusnight_commit_batch_moves_sum") == moves  # every move in some batch
    assert delta("geniusnight_bot_think_seconds_count", game="count21") == moves - mine
    assert value(after, "geniusnight_rooms", status="finished") >= 1


async def test_readyz_stays_ready_but_degraded_when_redis_does_not_answer(tmp_path: Path, db_url: str) -> None:
    """docs/deploy.md, "Redis": without Redis a process still serves its own rooms, so a Redis
    outage must not take every replica out of the load balancer."""
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    nobody = f"redis://127.0.0.1:{free_port()}/0"
    app = create_app(
        Settings(env="test", database_url=db_url, redis_url=nobody, extra_engines=[TOY], admin_token="a" * 32)
    )
    async with app.router.lifespan_context(app), _client(app) as c:
        r = await c.get("/readyz")
        assert (await c.get("/healthz")).status_code == 200
        scraped = await c.get("/metrics", headers={"Authorization": "Bearer " + "a" * 32})
    metric = value(samples(scraped.text), "geniusnight_redis_degraded")
    assert r.status_code == 200
    body = r.json()
    assert body["ready"] is True and body["degraded"] is True and body["database"] == "ok"
    assert body["redis"].startswith("error:")
    assert metric == 1


def test_rediss_urls_are_accepted_and_speak_tls() -> None:
    """A managed Redis is reached over TLS with a ``rediss://`` URL (docs/deploy.md, "Redis")."""
    from geniusnight.server.play.bus import RedisBus
    from geniusnight.server.play.games import GameService
    from geniusnight.server.play.hub import Hub

    hub = Hub(GameService.__new__(GameService), reads=None)  # type: ignore[arg-type]
    bus = RedisBus(hub, "rediss://user:secret@redis.example.invalid:6380/3?ssl_cert_reqs=required")
    pool = bus.redis.connection_pool
    assert pool.connection_class.__name__ == "SSLConnection"
    assert pool.connection_kwargs["port"] == 6380 and pool.connection_kwargs["ssl_cert_reqs"] == "required"
    assert bus.channel.endswith(":3")


async def test_readyz_is_503_while_draining(app: Any, client: httpx.AsyncClient) -> None:
    assert (await client.get("/readyz")).status_code == 200
    app.state.lifecycle.draining = True
    r = await client.get("/readyz")
    assert r.status_code == 503 and r.json()["draining"] is True


@pytest.fixture
async def metrics_port(db_url: str) -> AsyncIterator[tuple[int, httpx.AsyncClient]]:
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    port = free_port()
    app = create_app(
        Settings(
            env="test",
            database_url=db_url,
            extra_engines=[TOY],
            admin_token="a" * 32,
            metrics_address=f"127.0.0.1:{port}",
        )
    )
    async with app.router.lifespan_context(app), _client(app) as c:
        yield port, c


async def test_metrics_on_their_own_address_need_no_token_and_leave_the_main_port(
    metrics_port: tuple[int, httpx.AsyncClient],
) -> None:
    port, main = metrics_port
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as c:
        r = await c.get("/metrics")
        other = await c.get("/")
    assert r.status_code == 200
    assert "# TYPE geniusnight_moves_accepted_total counter" in r.text
    assert value(samples(r.text), "geniusnight_rooms", status="lobby") == 0
    assert other.status_code == 404
    moved = await main.get("/metrics", headers={"Authorization": "Bearer " + "a" * 32})
    assert moved.status_code == 404 and moved.json()["code"] == "metrics_elsewhere"


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")
