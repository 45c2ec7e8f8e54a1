"""The composition root: the one place that builds the server's objects and hands each its
collaborators; nothing imports this module but ``app.py``. To find who calls a use case and
with what, read :func:`build`.

Routes reach these objects through ``deps.py``, which reads them from ``app.state`` by the
names of :class:`Root`'s fields; the websocket reads its :class:`.play.ws.SocketPorts`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from ..clock import Clock
from ..settings import Settings
from ..storage.database import Database
from .admin.service import AdminService, Retention
from .lifecycle import Lifecycle
from .limits import RateLimit, SocketCount, rate_limit
from .ops import Gauges, MetricsListener
from .play.bus import Bus, RedisBus
from .play.driver import Driver
from .play.games import CacheLimits, GameService, LiveGame
from .play.hub import Hub
from .play.ws import SocketConfig, SocketPorts
from .replay.logs import GameLogs
from .rooms.hosting import HostWatch
from .rooms.party import PartyNight
from .rooms.publisher import RoomPublisher, RoomReader
from .rooms.service import OptionSizes, RoomServices
from .rooms.usecases import RoomUseCases


@dataclass(frozen=True, slots=True)
class Root:
    """Everything one process holds. ``app.py`` puts each field on ``app.state`` by its name."""

    settings: Settings
    db: Database
    games: GameService
    hub: Hub
    bus: Bus
    driver: Driver
    events: RoomPublisher
    hosts: HostWatch
    rooms: RoomUseCases
    room_services: RoomServices  # a RoomService on a route's session (deps.py)
    party: PartyNight
    admin: AdminService
    logs: GameLogs
    gauges: Gauges
    lifecycle: Lifecycle
    admin_rate: RateLimit  # wrong admin tokens, by address (admin/auth.py)
    room_sockets: SocketPorts

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The process's background work, from start-up to shutdown."""
        settings = self.settings
        path = settings.sqlite_path()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        await self.bus.start()
        await self.driver.resume_all()
        listener = MetricsListener(self.gauges, settings.metrics_address) if settings.metrics_address else None
        if listener is not None:
            await listener.start()
        housekeeping = asyncio.create_task(self.lifecycle.housekeeping())
        try:
            yield
        finally:
            housekeeping.cancel()
            await self.hosts.stop()
            if listener is not None:
                await listener.stop()
            await self.driver.stop()
            await self.games.close()
            await self.bus.stop()
            await self.db.dispose()


def build(settings: Settings, clock: Clock | None = None) -> Root:
    """Every object of the process, each given what it uses. ``clock`` (default: the
    system clock) drives deadlines, bots, the sweep and the host watch."""
    db = Database(settings.database_url)
    multi_process = settings.redis_url is not None
    # who hears of each move the game service commits: the fan-out, then the driver; both
    # need the game service first, so it is handed this list, filled once they exist
    commits: list[Callable[[LiveGame], Awaitable[None]]] = []
    limits = CacheLimits(settings.live_games_max, settings.live_idle_seconds, settings.live_finished_seconds)
    games = GameService(db, multi_process=multi_process, clock=clock, limits=limits, on_commit=commits)
    room_services = RoomServices(
        settings.secret_key,
        settings.room_members_max,
        OptionSizes(settings.option_max_bytes, settings.options_max_bytes),
    )
    reader = RoomReader(db, room_services)
    hub = Hub(games, reader, settings.patch_steps)
    bus: Bus = RedisBus(hub, settings.redis_url) if settings.redis_url else Bus(hub)
    redis = bus.redis if isinstance(bus, RedisBus) else None  # limits shared by every process
    driver = Driver(games, bus, settings.bot_delay_ms / 1000, games.clock)
    events = RoomPublisher(bus, hub, reader, multi_process=multi_process)
    commits += [events.publish_state, driver.on_commit]
    hosts = HostWatch(
        db, games.clock, events, hub, bus, room_services=room_services, seconds=settings.host_away_seconds
    )
    logs = GameLogs(db)
    rooms = RoomUseCases(
        room_services,
        db,
        games,
        reader=reader,
        events=events,
        presence=hub,
        roster=bus,
        turns=driver,
        hosts=hosts,
        logs=logs,
        room_rate=rate_limit(settings.rooms_per_minute, 60, "rooms", redis),
        chat_rate=rate_limit(settings.chat_per_minute, 60, "chat", redis),
        option_changes_per_minute=settings.option_changes_per_minute,
    )
    party = PartyNight(
        db,
        games,
        rooms,
        events,
        room_services,
        code_rate=rate_limit(settings.code_misses_per_minute, 60, "codes", redis),
    )
    retention = Retention(
        refused_keep_days=settings.refused_keep_days,
        finished_room_days=settings.finished_room_days,
        abandoned_lobby_hours=settings.abandoned_lobby_hours,
        abandoned_game_hours=settings.abandoned_game_hours,
    )
    admin = AdminService(db, games.close_room, hub, events, logs, retention)
    lifecycle = Lifecycle(games, hub, drain_turns=driver.drain, purge=admin.purge)
    socket_config = SocketConfig(
        public_url=settings.public_url,
        max_frame_bytes=settings.max_frame_bytes,
        hello_seconds=settings.hello_seconds,
        ws_per_member=settings.ws_per_member,
        rate_per_second=settings.rate_per_second,
        rate_burst=settings.rate_burst,
    )
    room_sockets = SocketPorts(
        socket_config,
        hub,
        games,
        rooms,
        party,
        lifecycle,
        connect_rate=rate_limit(settings.ws_connects_per_minute, 60, "connects", redis),
        sockets=SocketCount(settings.ws_per_address, settings.ws_total),
    )
    return Root(
        settings,
        db,
        games,
        hub,
        bus,
        driver,
        events,
        hosts,
        rooms,
        room_services,
        party,
        admin,
        logs,
        Gauges(hub, bus, games, db),
        lifecycle,
        admin_rate=rate_limit(settings.admin_failures_per_minute, 60, "admin", redis),
        room_sockets=room_sockets,
    )
