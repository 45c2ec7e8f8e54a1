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
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from . import metrics
from .admin.auth import require_admin
from .deps import get_services
from .errors import ApiError

if TYPE_CHECKING:
    from .services import Services

log = logging.getLogger(__name__)

PROBE_SECONDS = 2.0  # a dependency slower than this counts as down

router = APIRouter(tags=["operations"])


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
async def readyz(request: Request) -> JSONResponse:
    """Ready while the database answers and the process is not shutting down. Redis is not
    a condition: without it a process still serves its own rooms (moves commit, its sockets
    get every frame), so a Redis outage must not take every replica out of the load
    balancer. It shows as ``degraded`` here and in ``geniusnight_redis_degraded``."""
    services = get_services(request)
    checks = {"database": await _probe(services.db.ping())}
    degraded = False
    if services.settings.redis_url:
        checks["redis"] = await _probe(services.bus.ping())
        degraded = checks["redis"] != "ok" or not services.bus.connected
    ready = checks["database"] == "ok" and not services.draining
    body = {"ready": ready, "draining": services.draining, "degraded": degraded, **checks}
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", summary="Prometheus metrics (admin token)")
async def metrics_route(request: Request) -> Response:
    services = get_services(request)
    if services.settings.metrics_address:
        raise ApiError(404, "metrics_elsewhere", "Metrics are served on GENIUSNIGHT_METRICS_ADDRESS.")
    await require_admin(request)
    return Response(await metrics.render(services), media_type=metrics.CONTENT_TYPE_LATEST)


class MetricsListener:
    """``GET /metrics`` on its own address (e.g. ``127.0.0.1:9100``, reachable only by the
    scraper), without the admin token. A minimal HTTP/1.1 responder on the app's loop: one
    request per connection."""

    def __init__(self, services: Services, address: str) -> None:
        self.services = services
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
                status, ctype, body = "200 OK", metrics.CONTENT_TYPE_LATEST, await metrics.render(self.services)
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
