"""The frames a client sends on the websocket (docs/protocol.md), each read once into a typed
value by :func:`read`. A frame that can't be taken becomes :class:`Refused`, holding the
``error`` frame it gets; the error codes and messages here are the protocol's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..edge import BadInput, strict_json
from .outbound import Error
from .patches import COMPACT, JSON_PATCH, PatchForm

REF_MAX = 64


@dataclass(frozen=True, slots=True)
class Resume:
    """Where a reconnecting client says it is: a view of ``game_id``; ``at`` the seq and seat
    of that view, or None if it named none that could be current (it gets a full state)."""

    game_id: int
    at: tuple[int, int | None] | None


@dataclass(frozen=True, slots=True)
class Hello:
    ref: Any
    token: str | None  # None: no token, or one that is not text (see token_given)
    token_given: bool  # a token was sent (so the cookie does not count, even if it is no text)
    patches: PatchForm | None  # the client takes ``patch`` frames in this form
    resume: Resume | None
    # a shared screen's key (docs/protocol.md, "The shared screen"): "" for one that is no
    # text; None: no screen, a member with a token or the cookie
    screen: str | None = None
    # the client reads a move's ack from the mover's compact patch frame (docs/protocol.md,
    # "The compact form")
    ack_in_patch: bool = False


@dataclass(frozen=True, slots=True)
class Act:
    ref: str | None
    action: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Chat:
    ref: Any
    text: Any  # the room checks the text itself (clean_chat)


@dataclass(frozen=True, slots=True)
class Ping:
    ref: Any  # echoed as it came, whatever it is


@dataclass(frozen=True, slots=True)
class Unknown:
    ref: Any
    type: str


@dataclass(frozen=True, slots=True)
class Refused:
    """A frame that is refused as it stands: ``error`` is the frame its sender gets.
    ``ref`` is the frame's own (a rate-limit error names it); ``type`` is None when the
    frame was not even a JSON object with a type."""

    ref: Any
    error: Error
    type: str | None = None


Frame = Hello | Act | Chat | Ping | Unknown | Refused


def read(text: str, max_bytes: int) -> Frame:
    if len(text.encode()) > max_bytes:
        return Refused(None, Error(None, "frame_too_large", f"Frames are at most {max_bytes // 1024} KiB."))
    try:
        frame = strict_json(text)
    except BadInput as e:
        return Refused(None, Error(None, e.code, e.message))
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return Refused(None, Error(None, "malformed", 'A frame is a JSON object with a "type".'))
    kind, ref = frame["type"], frame.get("ref")
    if kind == "hello":
        token = frame.get("token")
        return Hello(
            ref,
            token=token if isinstance(token, str) and token else None,
            token_given=bool(token),
            patches=_patch_form(frame.get("patches")),
            resume=_resume(frame),
            screen=_screen_key(frame.get("screen")),
            ack_in_patch=frame.get("ack_in_patch") is True,
        )
    if kind == "act":
        if ref is not None and (not isinstance(ref, str) or not 0 < len(ref) <= REF_MAX):
            return Refused(ref, Error(None, "bad_ref", f"'ref' must be a string of 1-{REF_MAX} characters."), kind)
        action = frame.get("action")
        if not isinstance(action, dict):
            return Refused(ref, Error(ref, "malformed", "'action' must be a JSON object."), kind)
        return Act(ref, action)
    if kind == "chat":
        return Chat(ref, frame.get("text"))
    if kind == "ping":
        return Ping(ref)
    return Unknown(ref, kind)


def _screen_key(key: Any) -> str | None:
    """A hello's screen key: None when it names none, "" when it is no text (refused)."""
    if key is None:
        return None
    return key if isinstance(key, str) else ""


def _patch_form(value: Any) -> PatchForm | None:
    """The hello's ``patches``: ``true`` or ``"compact"``; anything else asks for full
    states (a client that names a form this server does not know still gets a game)."""
    if value is True:
        return JSON_PATCH
    return COMPACT if value == COMPACT else None


def _resume(frame: dict[str, Any]) -> Resume | None:
    game_id = frame.get("game_id")
    if type(game_id) is not int or "seq" not in frame:
        return None
    seq, seat = frame["seq"], frame.get("seat")
    if (
        isinstance(seq, int)
        and not isinstance(seq, bool)
        and seq >= 0
        and (seat is None or (isinstance(seat, int) and not isinstance(seat, bool)))
    ):
        return Resume(game_id, (seq, seat))
    return Resume(game_id, None)
