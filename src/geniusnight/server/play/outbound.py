"""Every frame the server sends on the websocket (docs/protocol.md, "Websocket"), each a
typed value that owns its encoding: ``encode()`` gives the frame's text, compact JSON as
:func:`.patches.encode` writes it, with its keys in the order the protocol shows them.

The frames come from here and nowhere else, so a frame's shape is written once; the
websocket route, the hub and the shutdown only choose which frame to send and to whom.
``state`` and ``patch`` frames are encoded once per seat and seq, and every connection of
that seat shares the text: :class:`StateFrames` keeps them for one seq, and a
:class:`PatchFrame`'s text is kept by the live game on its step (``LiveGame.step_text``).

A client that takes the compact form (``"patches": "compact"``) gets the frames of the game
(``state``, ``patch``, ``ack``, ``room_patch``) as arrays that the first item names
(docs/protocol.md, "The compact form"); :func:`expand` reads one back as its object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .patches import COMPACT, JSON_PATCH, PatchForm, Step, write_ops
from .patches import encode as encode_json


class Outbound(Protocol):
    """A frame the server sends."""

    def encode(self) -> str:
        """The frame's text, as it goes on the wire."""
        ...


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a socket's member is: ``you`` in the welcome and ``you`` frames."""

    member_id: int | None
    name: str
    seat: int | None
    host: bool
    away: bool
    muted: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "member_id": self.member_id,
            "name": self.name,
            "seat": self.seat,
            "host": self.host,
            "away": self.away,
            "muted": self.muted,
        }


@dataclass(frozen=True, slots=True)
class Welcome:
    """The first frame after a hello: the room, who you are, recent chat."""

    seat: int | None
    room: dict[str, Any] | None
    you: Identity
    chat: list[dict[str, Any]]

    def encode(self) -> str:
        return encode_json(
            {"type": "welcome", "seat": self.seat, "room": self.room, "you": self.you.as_json(), "chat": self.chat}
        )


@dataclass(frozen=True, slots=True)
class Ack:
    """A move was committed (or had been, under the same ``ref``: ``duplicate``); in the
    compact form ``["a", ref, seq]``, with ``true`` after it for a duplicate."""

    ref: str | None
    seq: int
    duplicate: bool
    form: PatchForm | None = None  # the connection's patch form

    def encode(self) -> str:
        if self.form == COMPACT:
            return encode_json(["a", self.ref, self.seq, True] if self.duplicate else ["a", self.ref, self.seq])
        return encode_json({"type": "ack", "ref": self.ref, "seq": self.seq, "duplicate": self.duplicate})


@dataclass(frozen=True, slots=True)
class Error:
    """A frame or a move was refused; ``ref`` is named back if it is a string or a number."""

    ref: Any
    code: str
    message: str

    def encode(self) -> str:
        ref = self.ref if isinstance(self.ref, str | int) else None
        return encode_json({"type": "error", "ref": ref, "code": self.code, "message": self.message})


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to a ping: its ``ref``, as it came."""

    ref: Any

    def encode(self) -> str:
        return encode_json({"type": "pong", "ref": self.ref})


@dataclass(frozen=True, slots=True)
class Room:
    """The room as it is now (seats, who is online, the game, the settings)."""

    room: dict[str, Any]

    def encode(self) -> str:
        return encode_json({"type": "room", "room": self.room})


@dataclass(frozen=True, slots=True)
class RoomPatch:
    """What changed in the room since the ``room`` (or ``room_patch``) frame this connection
    got last: an RFC 6902 JSON Patch of the room object, for clients that take patches, in
    the form they take (compact: ``["r", ops]``)."""

    ops: list[dict[str, Any]]
    form: PatchForm = JSON_PATCH

    def encode(self) -> str:
        ops = write_ops(self.ops, self.form)
        return encode_json(["r", ops] if self.form == COMPACT else {"type": "room_patch", "ops": ops})


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line, its fields (``id``, ``name``, ``seat``, ``text``, ``at``) as the room
    stored them."""

    chat: dict[str, Any]

    def encode(self) -> str:
        return encode_json({"type": "chat", **self.chat})


@dataclass(frozen=True, slots=True)
class Host:
    """The host role moved to ``member_id`` (None: nobody is left to take it)."""

    member_id: int | None
    message: str

    def encode(self) -> str:
        return encode_json({"type": "host", "member_id": self.member_id, "message": self.message})


@dataclass(frozen=True, slots=True)
class You:
    """Who the socket's member is now (a seat, the host role, a stand-in or a mute changed)."""

    you: Identity

    def encode(self) -> str:
        return encode_json({"type": "you", "you": self.you.as_json()})


@dataclass(frozen=True, slots=True)
class Kicked:
    """The member was removed from the room; the socket closes after this frame."""

    message: str

    def encode(self) -> str:
        return encode_json({"type": "kicked", "message": self.message})


@dataclass(frozen=True, slots=True)
class Closed:
    """The room was closed; the socket closes after this frame."""

    message: str

    def encode(self) -> str:
        return encode_json({"type": "closed", "message": self.message})


@dataclass(frozen=True, slots=True)
class Reconnect:
    """The process is shutting down: connect again (to another one) and resume."""

    message: str = "This server is restarting. Connect again and send hello with your last seq."

    def encode(self) -> str:
        return encode_json({"type": "reconnect", "message": self.message})


class StateFrames:
    """The ``state`` frame of each seat at one seq (and deadline) of one game: the view's part
    every seat sees alike (``shared``) is encoded once, with the frame's head; each seat's frame
    adds its own part (``seat_view``), once, and every connection of that seat (or every
    spectator) gets the same string. In the compact form a state frame is ``["s", game_id,
    seq, deadline, seat, view]``."""

    __slots__ = ("_compact_head", "_open", "_seat_view", "_shared", "_texts")

    def __init__(
        self,
        game_id: int,
        seq: int,
        deadline: float | None,  # epoch ms
        shared: dict[str, Any],
        seat_view: Callable[[int | None], dict[str, Any]],
    ) -> None:
        head = encode_json({"type": "state", "game_id": game_id, "seq": seq, "deadline": deadline})
        self._shared = encode_json(shared)[:-1]  # its closing brace left off: each seat's part goes there
        self._open = f'{head[:-1]},"view":{self._shared}'
        self._compact_head = f'["s",{game_id},{seq},{encode_json(deadline)},'
        self._seat_view = seat_view
        self._texts: dict[tuple[int | None, bool], str] = {}  # by seat, and whether compact

    def encode(self, seat: int | None, form: PatchForm | None = None) -> str:
        """``seat``'s frame, compact for a client of that ``form``, else the object (one
        string for RFC 6902 clients and those that take no patches alike)."""
        compact = form == COMPACT
        key = (seat, compact)
        text = self._texts.get(key)
        if text is None:
            own = encode_json(self._seat_view(seat))
            own_part = "" if own == "{}" else f",{own[1:-1]}"
            if compact:
                text = f"{self._compact_head}{encode_json(seat)},{self._shared}{own_part}}}]"
            else:
                text = f'{self._open}{own_part}}},"seat":{encode_json(seat)}}}'
            self._texts[key] = text
        return text


@dataclass(frozen=True, slots=True)
class PatchFrame:
    """``seat``'s ``patch`` frame for one ``step`` of a game: the operations that take its view
    from the step's base to its seq. The frame's head, alike for every seat, is written once
    per step and kept on it (it holds only numbers). A patch has no ``seat`` (it is the seat
    of the view it applies to) and names a ``deadline`` only when there is one: the frame a
    client gets after every move holds no more than it needs. In the compact form it is
    ``["p", game_id, seq, base, ops]``, the deadline after the operations if there is one;
    the mover's own frame, with ``ack``, is ``["p", game_id, seq, base, ops, deadline, ref]``
    (the deadline null if there is none): the patch, then the ack of the move ``ref``, which
    the step made, as ``["a", ref, seq]`` would say."""

    game_id: int
    step: Step
    deadline: float | None  # epoch ms
    seat: int | None
    form: PatchForm = JSON_PATCH
    ack: str | None = None  # the ref of the move the step made, to its mover (compact only)

    def encode(self) -> str:
        """The frame's text; the step must hold its operations in ``form``."""
        step = self.step
        ops = step.ops_text(self.seat, self.form)
        assert ops is not None, "the step was made before a client took this form"
        if self.form == COMPACT:
            if self.ack is not None:
                tail = f",{encode_json(self.deadline)},{encode_json(self.ack)}"
            else:
                tail = "" if self.deadline is None else f",{encode_json(self.deadline)}"
            return f'["p",{self.game_id},{step.seq},{step.base},[{ops}]{tail}]'
        assert self.ack is None, "an ack rides only in the compact form"
        head = step.head
        if not head:
            clock = "" if self.deadline is None else f'"deadline":{encode_json(self.deadline)},'
            head = step.head = (
                f'{{"type":"patch","game_id":{self.game_id},"seq":{step.seq},"base":{step.base},{clock}"ops":['
            )
        return f"{head}{ops}]}}"


def expand(frame: Any) -> Any:
    """A frame as a client decoded it, with a compact one (an array) as its object form.

    >>> expand(["p", 7, 13, 12, [["=", "/turn", 1]]])
    {'type': 'patch', 'game_id': 7, 'seq': 13, 'base': 12, 'ops': [['=', '/turn', 1]]}
    >>> expand(["p", 7, 14, 13, [["=", "/turn", 0]], None, "c-18"])["ack"]
    'c-18'
    >>> expand(["a", "c-17", 13]), expand({"type": "pong", "ref": 1})
    ({'type': 'ack', 'ref': 'c-17', 'seq': 13, 'duplicate': False}, {'type': 'pong', 'ref': 1})
    """
    if not isinstance(frame, list):
        return frame
    match frame:
        case ["s", game_id, seq, deadline, seat, view]:
            return {"type": "state", "game_id": game_id, "seq": seq, "deadline": deadline, "view": view, "seat": seat}
        case ["p", game_id, seq, base, ops, *tail]:
            out = {"type": "patch", "game_id": game_id, "seq": seq, "base": base, "ops": ops}
            if tail and tail[0] is not None:
                out["deadline"] = tail[0]
            if len(tail) > 1:
                out["ack"] = tail[1]  # the mover's frame: the ack of its move ``ref``, at ``seq``
            return out
        case ["a", ref, seq, *duplicate]:
            return {"type": "ack", "ref": ref, "seq": seq, "duplicate": bool(duplicate and duplicate[0])}
        case ["r", ops]:
            return {"type": "room_patch", "ops": ops}
    raise ValueError(f"not a compact frame: {frame!r}")
