"""The narrow interfaces the room use cases, the host watch, the room publisher, the admin
service, the lifecycle and the metrics are given in place of the objects behind them
(``compose.py`` passes those: the hub, the bus, the driver). Each names only what its users
call."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from .play.connection import Connection
from .play.games import LiveGame


class Presence(Protocol):
    """Who is connected to a room, as this process knows it (the hub)."""

    def local_members(self, room_id: str) -> set[int]:
        """Members with a socket open here."""
        ...

    def online_members(self, room_id: str) -> set[int]:
        """Members connected here, plus those other processes last reported."""
        ...

    def watched(self, room_id: str) -> bool:
        """Someone is connected to the room, here or through another process."""
        ...


class Sockets(Protocol):
    """This process's open sockets (the hub)."""

    def connections(self) -> Collection[Connection]:
        """Every socket open here."""
        ...

    def room_connections(self, room_id: str) -> Collection[Connection]:
        """The sockets open here to ``room_id``."""
        ...


class Roster(Protocol):
    """Who is connected to a room through any process, asked now (the bus)."""

    async def online(self, room_id: str) -> set[int]: ...


class Turns(Protocol):
    """Sets a game's bots and phase clock going for its current state (the driver)."""

    def schedule(self, live: LiveGame) -> None: ...
