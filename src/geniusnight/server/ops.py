"""Endpoints for the host's tooling (docs/deploy.md): health, readiness and metrics.

- ``/healthz``: the process is up and its event loop answers (liveness).
- ``/readyz``: the database answers and the process is not shutting down; 503 otherwise,
  so a load balancer sends new connections elsewhere. Redis trouble only marks the answer
  ``degraded`` (docs/deploy.md, "Redis").
- ``/metrics``: Prometheus metrics, for the admin token (``Authorization: Bearer``), or
  only on a separate address when ``GENIUSNIGHT_METRICS_ADDRESS`` is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import generate_latest
from sqlalchemy import func, select

from ..engines import ENGINES
from ..storage.database import Database
from ..storage.models import Room, RoomStatus
from . import metrics
from .admin.auth import require_admin
from .deps import BusDep, DatabaseDep, LifecycleDep, SettingsDep
from .errors import ApiError
from .play.bus import Bus
from .play.games import GameService
from .ports import Sockets

log = logging.getLogger(__name__)

PROBE_SECONDS = 2.0  # a dependency slower than this counts as down

router = APIRouter(tags=["operations"])


class Gauges:
    """The metrics of :mod:`.metrics`, their gauges read when a scrape comes in: connections
    and live games are this process's, rooms by status the whole database's."""

    def __init__(self, sockets: Sockets, bus: Bus, games: GameService, db: Database) -> None:
        self.sockets = sockets
        self.bus = bus
        self.games = games
        self.db = db

    async def render(self) -> bytes:
        """Read the gauges, then the whole registry in the text exposition format."""
        metrics.CONNECTIONS.set(len(self.sockets.connections()))
        metrics.REDIS_DEGRADED.set(0 if self.bus.connected else 1)
        live: dict[str, int] = dict.fromkeys(ENGINES, 0)
        for game in list(self.games.live.values()):
            if not game.closed and not game.over:
                live[game.engine.info.id] = live.get(game.engine.info.id, 0) + 1
        for game_id, count in live.items():
            metrics.LIVE_GAMES.labels(game_id).set(count)
        async with self.db.sessions() as s:
            rows = (await s.execute(select(Room.status, func.count()).group_by(Room.status))).all()
        counts = dict.fromkeys(RoomStatus, 0) | {status: n for status, n in rows}
        for status, n in counts.items():
            metrics.ROOMS.labels(status.value).set(n)
        return generate_latest(metrics.REGISTRY)


async def get_gauges(request: Request) -> Gauges:
    gauges: Gauges = request.app.state.gauges
    return gauges


GaugesDep = Annotated[Gauges, Depends(get_gauges)]


@router.get("/healthz", summary="Liveness: the process is up")
async def healthz() -> dict[str, Any]:
    return {"ok": True}


async def _probe(check: Awaitable[object]) -> str:
    try:
        await asyncio.wait_for(check, PROBE_SECONDS)
    except Exception as e:
        return f"error: {type(e).__name__}: {e}"[:200]
    return "ok"


@router.get("/readyz", summary="Readiness: the database answers and the process is not draining; 503 otherwise")
async def readyz(settings: SettingsDep, db: DatabaseDep, bus: BusDep, lifecycle: LifecycleDep) -> JSONResponse:
    """Ready while the database answers and the process is not shutting down. Redis is not
    a condition: without it a process still serves its own rooms (moves commit, its sockets
    get every frame), so a Redis outage must not take every replica out of the load
    balancer. It shows as ``degraded`` here and in ``geniusnight_redis_degraded``."""
    checks = {"database": await _probe(db.ping())}
    degraded = False
    if settings.redis_url:
        checks["redis"] = await _probe(bus.ping())
        degraded = checks["redis"] != "ok" or not bus.connected
    ready = checks["database"] == "ok" and not lifecycle.draining
    body = {"ready": ready, "draining": lifecycle.draining, "degraded": degraded, **checks}
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", summary="Prometheus metrics (admin token)")
async def metrics_route(request: Request, settings: SettingsDep, gauges: GaugesDep) -> Response:
    if settings.metrics_address:
        raise ApiError(404, "metrics_elsewhere", "Metrics are served on GENIUSNIGHT_METRICS_ADDRESS.")
    await require_admin(request)
    return Response(await gauges.render(), media_type=metrics.CONTENT_TYPE_LATEST)


class MetricsListener:
    """``GET /metrics`` on its own address (e.g. ``127.0.0.1:9100``, reachable only by the
    scraper), without the admin token. A minimal HTTP/1.1 responder on the app's loop: one
    request per connection."""

    def __init__(self, gauges: Gauges, address: str) -> None:
        self.gauges = gauges
        host, _, port = address.rpartition(":")
        self.host, self.port = host or "127.0.0.1", int(port)
        self.server: asyncio.Server | None = None

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._answer, self.host, self.port)
        log.info("metrics on http://%s:%s/metrics", self.host, self.port)

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            method, path, *_ = [*head.split(b"\r\n", 1)[0].split(b" "), b"", b""]
            if method == b"GET" and path.split(b"?", 1)[0] == b"/metrics":
                status, ctype, body = "200 OK", metrics.CONTENT_TYPE_LATEST, await self.gauges.render()
            else:
                status, ctype, body = "404 Not Found", "text/plain", b"GET /metrics\n"
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except Exception:
            log.debug("metrics request failed", exc_info=True)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
