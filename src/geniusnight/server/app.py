"""The FastAPI application: wiring of settings, storage, live games, fan-out and routes."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import WebSocketRoute

from ..clock import Clock
from ..db import Database
from ..engines import ENGINES, register
from ..resources import data_dir
from ..settings import Settings, get_settings
from .driver import Driver
from .edge import BadInput, EdgeMiddleware, http_error, validation_error
from .games import CacheLimits, GameService, LiveGame
from .hosting import HostWatch
from .limits import SocketCount, WindowLimit
from .ops import MetricsListener
from .origin import OriginGuard
from .realtime import RECONNECT_FRAME, Bus, Hub, RedisBus
from .rooms import ApiError, RoomService

log = logging.getLogger(__name__)

RECONNECT_GRACE = 3.0  # seconds clients get to close their sockets after the reconnect frame
DRAIN_TIMEOUT = 15.0  # seconds a shutdown waits for moves in flight

HOUSEKEEPING_SECONDS = 10.0
PURGE_SECONDS = 3600.0
STATIC_DIR = data_dir("static")
TEMPLATE_DIR = data_dir("templates")


@dataclass
class Services:
    """Everything one process holds; routes reach it through ``request.app.state``."""

    settings: Settings
    db: Database
    games: GameService
    hub: Hub
    bus: Bus
    driver: Driver
    room_rate: WindowLimit
    chat_rate: WindowLimit
    sockets: SocketCount
    last_purge: float = 0.0
    hosts: HostWatch = field(init=False)

    def allow_chat(self, member_id: int) -> None:
        if not self.chat_rate.hit(member_id):
            per = self.settings.chat_per_minute
            raise ApiError(429, "chat_rate", f"At most {per} chat messages a minute; wait a moment.")

    draining: bool = False  # shutting down: /readyz answers 503

    async def room_snapshot(self, room_id: str) -> dict[str, Any] | None:
        async with self.db.sessions() as s:
            svc = RoomService(s, self.settings.secret_key)
            try:
                room = await svc.room(room_id)
            except ApiError:
                return None
            return await svc.snapshot(room, self.hub.online_members(room_id))

    async def drain(self, grace: float = RECONNECT_GRACE, timeout: float = DRAIN_TIMEOUT) -> None:
        """A graceful shutdown, once the listener is closed: bots and clocks stop here (a
        survivor's sweep, or this process's next start, takes them over), every socket gets a
        ``reconnect`` frame, moves that still arrive on a socket before its client closes it
        are committed and acknowledged, and this returns when no move is in flight."""
        self.draining = True
        await self.driver.drain()
        conns = self.hub.connections()
        for conn in conns:
            conn.send_json(RECONNECT_FRAME)
        log.info("draining: %d sockets asked to reconnect", len(conns))
        loop = asyncio.get_running_loop()
        give_up = loop.time() + grace
        while self.hub.rooms and loop.time() < give_up:  # clients close their sockets themselves
            await asyncio.sleep(0.02)
        for conn in self.hub.connections():
            conn.finish()
        if not await self.games.settled(timeout):
            log.error("draining: %d moves still in flight after %.0f s", self.games.in_flight, timeout)
        log.info("drained")

    async def identities(self, room_id: str) -> dict[int, dict[str, Any]]:
        async with self.db.sessions() as s:
            svc = RoomService(s, self.settings.secret_key)
            try:
                room = await svc.room(room_id)
            except ApiError:
                return {}
            return await svc.identities(room)

    async def publish_seats(self, room_id: str, game_id: int | None) -> None:
        """Who holds which seat changed: every process reloads ``game_id`` if it caches it,
        and tells each connection of the room its member's seat and host role."""
        await self.bus.publish({"kind": "seats", "room": room_id, "game": game_id})

    async def host_changed(self, room_id: str, member_id: int | None, message: str) -> None:
        """The host role moved: each connection learns its own role, and everyone is told."""
        await self.publish_seats(room_id, None)
        await self.bus.publish({"kind": "host", "room": room_id, "member": member_id, "message": message})
        await self.publish_room(room_id)

    async def seats_changed(self, room_id: str, game_id: int | None) -> None:
        """Who holds or plays which seat of ``game_id`` changed (a kick, a bot standing in or
        leaving the seat to its member again): every process and connection learns it, and a
        bot that must act now gets its turn."""
        await self.publish_seats(room_id, game_id)
        if game_id is not None:
            live = await self.games.get(game_id)
            if not live.over:
                self.driver.schedule(live)
        await self.publish_room(room_id)

    async def publish_room(self, room_id: str) -> None:
        await self.bus.publish({"kind": "room", "room": room_id})

    async def housekeeping(self) -> None:
        """Runs for the life of the process: finished and idle games leave the cache; old
        finished rooms are deleted (docs/admin.md, "Retention")."""
        while True:
            await asyncio.sleep(HOUSEKEEPING_SECONDS)
            try:
                self.games.prune()
                days = self.settings.finished_room_days
                if days and time.monotonic() - self.last_purge > PURGE_SECONDS:
                    self.last_purge = time.monotonic()
                    from .admin import purge_old_rooms

                    async with self.db.sessions() as s:
                        await purge_old_rooms(s, days)
            except Exception:
                log.exception("housekeeping failed")

    async def publish_state(self, live: LiveGame) -> None:
        event = {"kind": "state", "room": live.room_id, "game": live.id, "seq": live.seq}
        if self.games.multi_process:  # other processes apply these instead of reading the log
            event["moves"] = live.published_moves()
        await self.bus.publish(event)
        if live.over:  # the room's status just became "finished"
            await self.publish_room(live.room_id)


def load_extra_engines(specs: list[str]) -> None:
    for spec in specs:
        module, _, attr = spec.partition(":")
        engine = getattr(importlib.import_module(module), attr or "ENGINE")
        if engine.info.id not in ENGINES:
            register(engine)


def build_services(settings: Settings, clock: Clock | None = None) -> Services:
    db = Database(settings.database_url)
    limits = CacheLimits(settings.live_games_max, settings.live_idle_seconds, settings.live_finished_seconds)
    games = GameService(db, multi_process=settings.redis_url is not None, clock=clock, limits=limits)
    hub = Hub(games, settings.patch_steps)
    bus: Bus = RedisBus(hub, settings.redis_url) if settings.redis_url else Bus(hub)
    driver = Driver(games, bus, settings.bot_delay_ms / 1000, games.clock)
    services = Services(
        settings,
        db,
        games,
        hub,
        bus,
        driver,
        room_rate=WindowLimit(settings.rooms_per_minute, 60),
        chat_rate=WindowLimit(settings.chat_per_minute, 60),
        sockets=SocketCount(settings.ws_per_address, settings.ws_total),
    )
    services.hosts = HostWatch(services)
    hub.room_snapshot = services.room_snapshot
    hub.identities = services.identities
    games.on_commit.append(services.publish_state)
    games.on_commit.append(driver.on_commit)
    return services


def tune_gc() -> None:
    """Keep the cyclic garbage collector's pauses short (they are latency spikes for every
    room at once). What exists after start-up (modules, mappers, word and question banks)
    lives for the process: freeze it, so no full collection walks it again."""
    gc.collect()
    gc.freeze()


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """The app; ``clock`` (default: the system clock) drives deadlines, bots and the sweep."""
    settings = settings or get_settings()
    load_extra_engines(settings.extra_engines)
    services = build_services(settings, clock)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        path = settings.sqlite_path()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        await services.bus.start()
        await services.driver.resume_all()
        listener = MetricsListener(services, settings.metrics_address) if settings.metrics_address else None
        if listener is not None:
            await listener.start()
        housekeeping = asyncio.create_task(services.housekeeping())
        tune_gc()
        yield
        housekeeping.cancel()
        await services.hosts.stop()
        if listener is not None:
            await listener.stop()
        await services.driver.stop()
        await services.games.close()
        await services.bus.stop()
        await services.db.dispose()

    app = FastAPI(
        title="Genius Night",
        version="0.1.0",
        summary="Rooms, seats and live play for Genius Idea, Ingenious and Brainiac or IDIOT!",
        lifespan=lifespan,
    )
    app.state.services = services
    app.add_middleware(OriginGuard, settings=settings)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status)

    @app.exception_handler(BadInput)
    async def _bad_input(_request: Request, exc: BadInput) -> JSONResponse:
        return JSONResponse(exc.frame(), status_code=exc.status)

    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_middleware(EdgeMiddleware, max_body_bytes=settings.max_body_bytes)

    from . import admin, api, ops, pages, replay, ws

    app.include_router(ops.router)
    app.include_router(api.router)
    app.router.routes.append(WebSocketRoute("/ws/{room_id}", ws.room_socket))
    app.include_router(admin.router)
    app.include_router(replay.router_all)
    app.include_router(pages.router)
    static = StaticFiles(directory=STATIC_DIR)
    static.all_directories.extend(Path(d) for d in settings.extra_static)
    app.mount("/static", static, name="static")
    return app
