"""The events processes tell each other (through the bus; docs/protocol.md describes the
frames each one becomes). Each is a small frozen value; :func:`encode` and :func:`decode` are
the one place they turn into and back from the JSON a Redis bus carries."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class StateEvent:
    """``game`` was committed up to ``seq``; ``moves``: the last moves, for other processes
    to apply without reading the log (only with several processes)."""

    kind: ClassVar[str] = "state"
    room: str
    game: int
    seq: int
    moves: list[dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """A room as every member sees it, read once by the process that announces a change and
    passed to the others with the event, so that they need not read it again.

    Who is online is left to the process that sends it (:meth:`for_online`): each knows its
    own connections best. ``version`` is the room's version when it was read (a process that
    has sent a newer one drops it); ``members`` is each seat's member (None: nobody's).

    >>> snap = RoomSnapshot({"seats": [{"name": "Ann", "online": False}]}, 3, [7])
    >>> snap.for_online({7})["seats"]
    [{'name': 'Ann', 'online': True}]
    """

    room: dict[str, Any]  # its seats' "online": True only for a bot that plays the seat
    version: int
    members: list[int | None]

    def for_online(self, online: set[int]) -> dict[str, Any]:
        """The room frame's ``room``, with ``online`` from the members connected now."""
        seats = [
            {**seat, "online": seat["online"] or member in online}
            for seat, member in zip(self.room["seats"], self.members, strict=True)
        ]
        return {**self.room, "seats": seats}


@dataclass(frozen=True, slots=True)
class RoomEvent:
    """The room changed, or who is online in it: every socket gets its snapshot (read by the
    process that publishes it; None: each process reads it)."""

    kind: ClassVar[str] = "room"
    room: str
    snapshot: RoomSnapshot | None = None


@dataclass(frozen=True, slots=True)
class ChatEvent:
    kind: ClassVar[str] = "chat"
    room: str
    chat: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HostEvent:
    """The host role moved to ``member`` (None: nobody is left to take it)."""

    kind: ClassVar[str] = "host"
    room: str
    member: int | None
    message: str


@dataclass(frozen=True, slots=True)
class SeatsEvent:
    """Who holds or plays which seat changed: every process reloads ``game`` if it caches it,
    and each socket learns its member's seat and roles."""

    kind: ClassVar[str] = "seats"
    room: str
    game: int | None


@dataclass(frozen=True, slots=True)
class StartedEvent:
    """``game`` began in the room (a start or a rematch): each socket learns its member's seat
    in it, the room's snapshot and the first state, in that order, from this one event (a
    start changes only who holds which seat: the host role and stand-ins have their own
    events)."""

    kind: ClassVar[str] = "started"
    room: str
    game: int
    snapshot: RoomSnapshot | None = None


@dataclass(frozen=True, slots=True)
class KickedEvent:
    """``member`` left the room: their sockets are told and closed."""

    kind: ClassVar[str] = "kicked"
    room: str
    member: int
    message: str


@dataclass(frozen=True, slots=True)
class ClosedEvent:
    """The room was closed: its games stop, every socket of it is told and closed."""

    kind: ClassVar[str] = "closed"
    room: str
    message: str


Event = StateEvent | RoomEvent | ChatEvent | HostEvent | SeatsEvent | StartedEvent | KickedEvent | ClosedEvent


class BadEvent(ValueError):
    """A message on the bus that is not an event this server knows."""


def encode(event: Event) -> dict[str, Any]:
    """The event as JSON: ``kind``, ``room`` and its fields (moves and snapshots only if set)."""
    if isinstance(event, StateEvent):  # one a move: its fields written out, not looked up
        state = {"kind": "state", "room": event.room, "game": event.game, "seq": event.seq}
        if event.moves is not None:
            state["moves"] = event.moves
        return state
    data: dict[str, Any] = {"kind": event.kind}
    for field in fields(event):
        value = getattr(event, field.name)
        if isinstance(value, RoomSnapshot):
            data[field.name] = {"room": value.room, "version": value.version, "members": value.members}
        elif not (field.name in ("moves", "snapshot") and value is None):
            data[field.name] = value
    return data


def _int(value: Any, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadEvent(f"not a number: {value!r}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise BadEvent(f"not text: {value!r}")
    return value


def _snapshot(value: Any) -> RoomSnapshot | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("room"), dict):
        raise BadEvent("a room snapshot is an object with the room")
    room, members = value["room"], value.get("members")
    seats = room.get("seats")
    if not (isinstance(seats, list) and all(isinstance(s, dict) and isinstance(s.get("online"), bool) for s in seats)):
        raise BadEvent("a room snapshot's seats are objects that say who is online")
    if not isinstance(members, list) or len(members) != len(seats):
        raise BadEvent("a room snapshot names each seat's member")
    return RoomSnapshot(room, _int(value.get("version")), [_int(m, optional=True) for m in members])


def decode(data: Any) -> Event:
    """An event from its JSON; raises :class:`BadEvent` for anything else."""
    if not isinstance(data, dict):
        raise BadEvent("an event is a JSON object")
    kind, room = data.get("kind"), _str(data.get("room"))
    if kind == "state":
        moves = data.get("moves")
        game, seq = _int(data.get("game")), _int(data.get("seq"))
        return StateEvent(room, game, seq, moves if isinstance(moves, list) else None)
    if kind == "room":
        return RoomEvent(room, _snapshot(data.get("snapshot")))
    if kind == "chat":
        chat = data.get("chat")
        if not isinstance(chat, dict):
            raise BadEvent("a chat event carries its message")
        return ChatEvent(room, chat)
    if kind == "host":
        return HostEvent(room, _int(data.get("member"), optional=True), _str(data.get("message")))
    if kind == "seats":
        return SeatsEvent(room, _int(data.get("game"), optional=True))
    if kind == "started":
        return StartedEvent(room, _int(data.get("game")), _snapshot(data.get("snapshot")))
    if kind == "kicked":
        return KickedEvent(room, _int(data.get("member")), _str(data.get("message", "")))
    if kind == "closed":
        return ClosedEvent(room, _str(data.get("message", "")))
    raise BadEvent(f"unknown event kind {kind!r}")
