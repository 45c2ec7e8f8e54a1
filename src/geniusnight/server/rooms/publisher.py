"""What every process and socket must hear when a room changes: :class:`RoomPublisher` puts
the events on the bus, and :class:`RoomReader` reads what they carry (the room's snapshot,
who each member is) from the database, for the publisher and the hub alike."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...storage.database import Database
from ..errors import ApiError
from ..play.bus import Bus
from ..play.events import (
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
from ..play.games import LiveGame
from ..ports import Presence
from .service import RoomServices
from .statements import read_snapshot


class RoomReader:
    """A room as its events and frames show it, read from the database."""

    def __init__(self, db: Database, room_services: RoomServices) -> None:
        self.db = db
        self.room_services = room_services

    async def read_snapshot(self, room_id: str) -> RoomSnapshot | None:
        """The room as every member sees it, but for who is online, read on its own: the
        room's row (and its version) first (None: no such room, or it was closed)."""
        return await self.db.read(partial(read_snapshot, room_id=room_id))

    async def identities(self, room_id: str) -> dict[int, dict[str, Any]]:
        """``you`` of every person in the room, by member id (empty: no such room)."""
        async with self.db.sessions() as s:
            svc = self.room_services(s)
            try:
                room = await svc.room(room_id)
            except ApiError:
                return {}
            return await svc.identities(room)


class RoomPublisher:
    """Publishes a room's changes on the bus, for every process's hub."""

    def __init__(self, bus: Bus, presence: Presence, reader: RoomReader, *, multi_process: bool) -> None:
        self.bus = bus
        self.presence = presence
        self.reader = reader
        self.multi_process = multi_process  # other processes apply the moves a state event carries

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
        """Someone is connected to the room: a change of it is worth reading its snapshot for."""
        return self.presence.watched(room_id)

    async def _snapshot_to_share(self, room_id: str) -> RoomSnapshot | None:
        """The room's snapshot, read here once for every process, when the room is watched
        (a process that has connections to the room and gets no snapshot reads it itself)."""
        return await self.reader.read_snapshot(room_id) if self.presence.watched(room_id) else None

    async def publish_chat(self, room_id: str, chat: dict[str, Any]) -> None:
        await self.bus.publish(ChatEvent(room_id, chat))

    async def publish_kicked(self, room_id: str, member_id: int, message: str) -> None:
        """The member left the room: their sockets are told and closed."""
        await self.bus.publish(KickedEvent(room_id, member_id, message))

    async def publish_closed(self, room_id: str, message: str) -> None:
        """The room was closed: every process's games of it stop, its sockets are told and closed."""
        await self.bus.publish(ClosedEvent(room_id, message))

    async def publish_state(self, live: LiveGame) -> None:
        """A move was committed (a listener of the game service's commits)."""
        # with other processes, they apply the last moves instead of reading the log
        moves = live.published_moves() if self.multi_process else None
        self.bus.publish_state(live, StateEvent(live.room_id, live.id, live.seq, moves))
        if live.over:  # the room's status just became "finished"
            await self.publish_room(live.room_id)
