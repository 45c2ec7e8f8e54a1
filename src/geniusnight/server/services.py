"""Everything one server process holds, wired together: storage, live games, the hub and
bus, the bot and clock driver, limits. Routes reach it through ``request.app.state.services``
(see ``deps.get_services``); ``app.create_app`` builds it once per process."""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from ..clock import Clock
from ..db import Database
from ..engines import ENGINES, register
from ..settings import Settings
from .admin.service import AdminService, close_abandoned_rooms, purge_old_refused, purge_old_rooms
from .limits import RateLimit, SocketCount, rate_limit
from .play.driver import Driver
from .play.events import (
    ChatEvent,
    ClosedEvent,
    HostEvent,
    KickedEvent,
    RoomEvent,
    RoomSnapshot,
    SeatsEvent,
    StartedEvent,
    StateEvent,
)
from .play.games import CacheLimits, GameService, LiveGame
from .play.realtime import RECONNECT_FRAME, Bus, Hub, RedisBus
from .replay.logs import GameLogs
from .rooms.hosting import HostWatch
from .rooms.party import PartyNight
from .rooms.usecases import RoomUseCases

log = logging.getLogger(__name__)

RECONNECT_GRACE = 3.0  # seconds clients get to close their sockets after the reconnect frame
DRAIN_TIMEOUT = 15.0  # seconds a shutdown waits for moves in flight

HOUSEKEEPING_SECONDS = 10.0
PURGE_SECONDS = 3600.0


@dataclass
class Services:
    """Everything one process holds; routes reach it through ``request.app.state``."""

    settings: Settings
    db: Database
    games: GameService
    hub: Hub
    bus: Bus
    driver: Driver
    room_rate: RateLimit  # rooms created, by address
    chat_rate: RateLimit  # chat messages, by member
    connect_rate: RateLimit  # websockets opened, by address
    admin_rate: RateLimit  # wrong admin tokens, by address
    code_rate: RateLimit  # wrong room codes, by address
    sockets: SocketCount
    last_purge: float = 0.0
    hosts: HostWatch = field(init=False)
    rooms: RoomUseCases = field(init=False)
    party: PartyNight = field(init=False)
    admin: AdminService = field(init=False)
    logs: GameLogs = field(init=False)
    draining: bool = False  # shutting down: /readyz answers 503

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

    async def publish_seats(self, room_id: str, game_id: int | None) -> None:
        """Who holds which seat changed: every process reloads ``game_id`` if it caches it,
        and tells each connection of the room its member's seat and host role."""
        await self.bus.publish(SeatsEvent(room_id, game_id))

    async def host_changed(self, room_id: str, member_id: int | None, message: str) -> None:
        """The host role moved: each connection learns its own role, and everyone is told."""
        await self.publish_seats(room_id, None)
        await self.bus.publish(HostEvent(room_id, member_id, message))
        await self.publish_room(room_id)

    async def publish_started(self, live: LiveGame, snapshot: RoomSnapshot | None) -> None:
        """A game began: each socket of the room learns its seat in it, the room (``snapshot``,
        read as it began, if :meth:`room_watched`) and the first state, from one event."""
        await self.bus.publish(StartedEvent(live.room_id, live.id, snapshot))

    async def publish_room(self, room_id: str) -> None:
        """The room changed (or who is online in it): every socket gets its snapshot."""
        await self.bus.publish(RoomEvent(room_id, await self._snapshot_to_share(room_id)))

    def room_watched(self, room_id: str) -> bool:
        """Someone is connected to the room here or, as far as this process last heard,
        through another one: a change of the room is worth reading its snapshot for."""
        return room_id in self.hub.rooms or bool(self.hub.remote_online.get(room_id))

    async def _snapshot_to_share(self, room_id: str) -> RoomSnapshot | None:
        """The room's snapshot, read here once for every process, when the room is watched
        (a process that has connections to the room and gets no snapshot reads it itself)."""
        return await self.rooms.read_snapshot(room_id) if self.room_watched(room_id) else None

    async def publish_chat(self, room_id: str, chat: dict[str, Any]) -> None:
        await self.bus.publish(ChatEvent(room_id, chat))

    async def publish_kicked(self, room_id: str, member_id: int, message: str) -> None:
        """The member left the room: their sockets are told and closed."""
        await self.bus.publish(KickedEvent(room_id, member_id, message))

    async def publish_closed(self, room_id: str, message: str) -> None:
        """The room was closed: every process's games of it stop, its sockets are told and closed."""
        await self.bus.publish(ClosedEvent(room_id, message))

    async def housekeeping(self) -> None:
        """Runs for the life of the process: finished and idle games leave the cache; rooms
        nobody touched for long are closed; old refused actions and old finished rooms are
        deleted (docs/admin.md, "Retention"; docs/deploy.md, "Abandoned rooms")."""
        while True:
            await asyncio.sleep(HOUSEKEEPING_SECONDS)
            try:
                self.games.prune()
                if time.monotonic() - self.last_purge > PURGE_SECONDS:
                    self.last_purge = time.monotonic()
                    closed = await close_abandoned_rooms(self)
                    if closed:
                        log.info("closed %d abandoned rooms", closed)
                    async with self.db.sessions() as s:
                        await purge_old_refused(s, self.settings.refused_keep_days)
                        if self.settings.finished_room_days:
                            await purge_old_rooms(s, self.settings.finished_room_days)
            except Exception:
                log.exception("housekeeping failed")

    async def publish_state(self, live: LiveGame) -> None:
        # with other processes, they apply the last moves instead of reading the log
        moves = live.published_moves() if self.games.multi_process else None
        self.bus.publish_state(live, StateEvent(live.room_id, live.id, live.seq, moves))
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
    redis = bus.redis if isinstance(bus, RedisBus) else None  # limits shared by every process
    services = Services(
        settings,
        db,
        games,
        hub,
        bus,
        driver,
        room_rate=rate_limit(settings.rooms_per_minute, 60, "rooms", redis),
        chat_rate=rate_limit(settings.chat_per_minute, 60, "chat", redis),
        connect_rate=rate_limit(settings.ws_connects_per_minute, 60, "connects", redis),
        admin_rate=rate_limit(settings.admin_failures_per_minute, 60, "admin", redis),
        code_rate=rate_limit(settings.code_misses_per_minute, 60, "codes", redis),
        sockets=SocketCount(settings.ws_per_address, settings.ws_total),
    )
    services.hosts = HostWatch(services)
    services.rooms = RoomUseCases(services)
    services.party = PartyNight(services)
    services.admin = AdminService(services)
    services.logs = GameLogs(db)
    hub.room_snapshot = services.rooms.read_snapshot
    hub.identities = services.rooms.identities
    games.on_commit.append(services.publish_state)
    games.on_commit.append(driver.on_commit)
    return services
