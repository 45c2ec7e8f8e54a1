"""The events processes tell each other (through the bus; docs/protocol.md describes the
frames each one becomes). Each is a small frozen value; :func:`encode` and :func:`decode` are
the one place they turn into and back from the JSON a Redis bus carries, and :func:`pack` and
:func:`unpack` the one place a bus message is put together and taken apart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import orjson

from .patches import encode as encode_json


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


# --- bus messages ----------------------------------------------------------------------------

Brief = tuple[str, str, int | None]  # an event's kind, room and (a state event's) game


def brief(event: Event) -> Brief:
    """What a bus message's head line says of ``event`` (see :func:`pack`)."""
    return (event.kind, event.room, event.game if isinstance(event, StateEvent) else None)


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON bytes, on one line (JSON text escapes every newline inside
    a string): :func:`.patches.encode`'s text, made as bytes at once when orjson takes it."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is one
        return encode_json(value).encode()


def pack(origin: str, sent: float, events: Sequence[tuple[Brief, bytes]]) -> bytes:
    """A bus message: a head line ``{origin, sent, index}`` whose ``index`` holds each
    event's :func:`brief`, then one line per event, its :func:`encode` as JSON (``dumps``).

    A process reads the head and then only the events it has a use for: most of a busy
    server's messages are moves of rooms another process serves, and reading them whole
    (every event with its last moves) was most of what a second process cost the first.

    >>> message = pack("me", 1.5, [(brief(e), dumps(encode(e))) for e in [StateEvent("r", 7, 3)]])
    >>> message
    b'{"origin":"me","sent":1.5,"index":[["state","r",7]]}\\n{"kind":"state","room":"r","game":7,"seq":3}'
    >>> [(b, decode(read(body))) for b, body in unpack(message)[2]]
    [(('state', 'r', 7), StateEvent(room='r', game=7, seq=3, moves=None))]
    """
    head = dumps({"origin": origin, "sent": sent, "index": [b for b, _ in events]})
    return b"\n".join([head, *(body for _, body in events)])


def unpack(data: bytes) -> tuple[Any, Any, list[tuple[Brief | None, Any]]]:
    """A bus message's origin, the time it was sent, and its events, each as its brief and
    its body (:func:`read` gives the JSON value :func:`decode` takes). Raises ``ValueError``
    when its head is not a JSON object.

    Releases before this one sent a single JSON object, ``{origin, sent, events: [...]}`` (and
    before that one event's fields): their events come with no brief, and read already."""
    head, _, rest = data.partition(b"\n")
    top = orjson.loads(head)
    if not isinstance(top, dict):
        raise ValueError("a bus message is a JSON object")
    index = top.get("index")
    if isinstance(index, list) and rest:
        briefs = [_brief(entry) for entry in index]
        return top.get("origin"), top.get("sent"), list(zip(briefs, rest.split(b"\n"), strict=False))
    events = top.get("events")
    older = events if isinstance(events, list) else [top]
    return top.get("origin"), top.get("sent"), [(None, item) for item in older]


def _brief(entry: Any) -> Brief | None:
    """A head line's entry as a brief, or None when it is not one (its event is then read)."""
    if isinstance(entry, list) and len(entry) == 3:
        kind, room, game = entry
        if isinstance(kind, str) and isinstance(room, str) and (game is None or type(game) is int):
            return kind, room, game
    return None


def read(body: Any) -> Any:
    """An event's JSON value from its body as :func:`unpack` gives it; raises ``ValueError``
    when it is not JSON."""
    return orjson.loads(body) if isinstance(body, bytes) else body
