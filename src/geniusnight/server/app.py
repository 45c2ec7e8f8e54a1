"""The FastAPI application: middleware, error handlers, routes, and the objects the
composition root (``compose.py``) builds, on ``app.state`` for ``deps.py``, running for the
app's lifespan."""

from __future__ import annotations

import dataclasses
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import WebSocketRoute

from ..clock import Clock
from ..engines import load_extra
from ..resources import data_dir
from ..settings import Settings, get_settings
from . import compose, ops, pages
from .admin import pages as admin_pages
from .admin import routes as admin_routes
from .edge import BadInput, EdgeMiddleware, SecurityHeaders, http_error, validation_error
from .errors import ApiError
from .origin import OriginGuard
from .play import ws
from .replay import player as replay
from .rooms import routes as rooms

__all__ = ["create_app"]

log = logging.getLogger(__name__)

STATIC_DIR = data_dir("static")


# CPython's default thresholds (700, 10, 10) collect the young generation every 700 new
# containers, and a full collection then walks the whole cache of live games (100-150 ms on
# a busy server): 16 % of the server's CPU under load (docs/performance.md, D18). Nearly
# everything a move allocates is freed by its reference count, so collecting 15 times less
# often finds as much garbage and costs a fraction as much. Not less often still: CPython
# counts every container freed against the young generation's count, so a finished game
# freed whole puts its next collection off, and (20000, 20, 20) pauses twice as long.
GC_THRESHOLDS = (10_000, 20, 20)


def tune_gc() -> None:
    """Keep the cyclic garbage collector's pauses short (they are latency spikes for every
    room at once). What exists after start-up (modules, mappers, word and question banks)
    lives for the process: freeze it, so no full collection walks it again. Then collect less
    often (``GC_THRESHOLDS``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """The app; ``clock`` (default: the system clock) drives deadlines, bots and the sweep."""
    settings = settings or get_settings()
    load_extra(settings.extra_engines)
    root = compose.build(settings, clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with root.running():
            tune_gc()
            yield

    app = FastAPI(
        title="Genius Night",
        version="0.1.0",
        summary="Rooms, seats and live play for Genius Idea, Ingenious and Brainiac or IDIOT!",
        lifespan=lifespan,
    )
    for field in dataclasses.fields(root):  # by name, as deps.py reads them
        setattr(app.state, field.name, getattr(root, field.name))
    app.add_middleware(OriginGuard, public_url=settings.public_url)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status)

    @app.exception_handler(BadInput)
    async def _bad_input(_request: Request, exc: BadInput) -> JSONResponse:
        return JSONResponse(exc.frame(), status_code=exc.status)

    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_middleware(EdgeMiddleware, max_body_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)  # the outermost: on the edge's refusals too

    app.include_router(ops.router)
    app.include_router(rooms.router)
    app.router.routes.append(WebSocketRoute("/ws/{room_id}", ws.RoomSocket(root.room_sockets)))
    app.include_router(admin_routes.api)
    app.include_router(admin_pages.pages)
    app.include_router(replay.router_all)
    app.include_router(pages.router)
    static = StaticFiles(directory=STATIC_DIR)
    static.all_directories.extend(Path(d) for d in settings.extra_static)
    app.mount("/static", static, name="static")
    return app
