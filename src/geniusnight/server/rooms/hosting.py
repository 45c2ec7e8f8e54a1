"""The host role passes on when its host is gone for good.

A host who leaves the room hands the role on at once (:meth:`RoomService.leave`). A host
whose last socket closed is watched here: once they have been gone for
``GENIUSNIGHT_HOST_AWAY_SECONDS`` (on the server's clock) and somebody else is connected,
the longest-standing connected person becomes the host, and the whole room is told. Whoever
connects to a room checks it too, so a host who left while nobody else was there hands the
role to the first person who comes.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

from ...clock import Clock
from ...logs import fields
from ...storage.database import Database
from ..errors import ApiError
from ..ports import Presence, Roster
from .publisher import RoomPublisher
from .service import RoomServices

log = logging.getLogger(__name__)

FORGET_AFTER = timedelta(days=1)  # a room nobody came back to stops being watched


class HostWatch:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        events: RoomPublisher,
        presence: Presence,
        roster: Roster,
        *,
        room_services: RoomServices,
        seconds: float,
    ) -> None:
        self.db = db
        self.clock = clock
        self.events = events
        self.presence = presence  # who has a socket open here
        self.roster = roster  # who is connected through any process
        self.room_services = room_services
        self.seconds = seconds  # how long a host may be gone (GENIUSNIGHT_HOST_AWAY_SECONDS)
        self.gone: dict[str, tuple[int, datetime]] = {}  # room -> (host member id, gone since)
        self._tasks: set[asyncio.Task[None]] = set()

    def socket_closed(self, room_id: str, member_id: int | None, host: bool) -> None:
        """A socket closed: if it was the host's last one here, start their clock."""
        if not host or member_id is None or member_id in self.presence.local_members(room_id):
            return
        since = self.clock.now()
        self.gone[room_id] = (member_id, since)
        task = asyncio.create_task(self._wait(room_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _wait(self, room_id: str) -> None:
        await self.clock.sleep(self.seconds)
        try:
            await self.check(room_id)
        except Exception:
            log.exception("host check failed", extra=fields(room_id))

    async def check(self, room_id: str) -> None:
        """Pass the host role on if its host has been gone long enough and someone is here."""
        gone = self.gone.get(room_id)
        if gone is None:
            return
        member_id, since = gone
        online = await self.roster.online(room_id)
        now = self.clock.now()
        if member_id in online or now - since > FORGET_AFTER:
            self.gone.pop(room_id, None)
            return
        if (now - since).total_seconds() < self.seconds or not online:
            return  # not yet; or nobody to hand it to (the next to connect checks again)
        self.gone.pop(room_id, None)
        await self.pass_on(room_id, member_id, online)

    async def pass_on(self, room_id: str, gone_id: int, online: set[int]) -> None:
        async with self.db.sessions() as s:
            svc = self.room_services(s)

            async def change(room: Any) -> tuple[str, Any] | None:
                if room.host_member_id != gone_id:
                    return None  # the role moved on meanwhile
                new = await svc.successor(room, online - {gone_id})
                if new is None:
                    return None
                room.host_member_id = new.id
                return await svc.holder_name(gone_id), new

            try:
                _, names = await svc.seating(room_id, change)
            except ApiError:
                return  # the room was closed
        if names is not None:
            old, new = names
            message = f"{old} has been away for a while; {new.name} is the host now."
            await self.events.host_changed(room_id, new.id, message)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
