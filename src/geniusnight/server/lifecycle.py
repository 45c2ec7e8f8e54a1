"""The process's life around its requests: the housekeeping that runs for as long as it
does, and the graceful drain when it shuts down (``draining`` also turns ``/readyz`` to 503
and new sockets away)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from .play.games import GameService
from .play.outbound import Reconnect
from .ports import Sockets

log = logging.getLogger(__name__)

RECONNECT_GRACE = 3.0  # seconds clients get to close their sockets after the reconnect frame
DRAIN_TIMEOUT = 15.0  # seconds a shutdown waits for moves in flight

HOUSEKEEPING_SECONDS = 10.0
PURGE_SECONDS = 3600.0


class Lifecycle:
    def __init__(
        self,
        games: GameService,
        sockets: Sockets,
        *,
        drain_turns: Callable[[], Awaitable[None]],
        purge: Callable[[], Awaitable[None]],
    ) -> None:
        self.games = games
        self.sockets = sockets  # told to reconnect, then waited for
        self.drain_turns = drain_turns  # the driver's drain: bots and clocks take no new job here
        self.purge = purge  # the admin's retention
        self.draining = False  # shutting down: /readyz answers 503, new sockets are sent away
        self.last_purge = 0.0

    async def drain(self, grace: float = RECONNECT_GRACE, timeout: float = DRAIN_TIMEOUT) -> None:
        """A graceful shutdown, once the listener is closed: bots and clocks stop here (a
        survivor's sweep, or this process's next start, takes them over), every socket gets a
        ``reconnect`` frame, moves that still arrive on a socket before its client closes it
        are committed and acknowledged, and this returns when no move is in flight."""
        self.draining = True
        await self.drain_turns()
        conns = self.sockets.connections()
        for conn in conns:
            conn.send_frame(Reconnect())
        log.info("draining: %d sockets asked to reconnect", len(conns))
        loop = asyncio.get_running_loop()
        give_up = loop.time() + grace
        while self.sockets.connections() and loop.time() < give_up:  # clients close their sockets themselves
            await asyncio.sleep(0.02)
        for conn in self.sockets.connections():
            conn.finish()
        if not await self.games.settled(timeout):
            log.error("draining: %d moves still in flight after %.0f s", self.games.in_flight, timeout)
        log.info("drained")

    async def housekeeping(self) -> None:
        """Runs for the life of the process: finished and idle games leave the cache; once an
        hour the admin's retention runs (docs/admin.md, "Retention")."""
        while True:
            await asyncio.sleep(HOUSEKEEPING_SECONDS)
            try:
                self.games.prune()
                if time.monotonic() - self.last_purge > PURGE_SECONDS:
                    self.last_purge = time.monotonic()
                    await self.purge()
            except Exception:
                log.exception("housekeeping failed")
