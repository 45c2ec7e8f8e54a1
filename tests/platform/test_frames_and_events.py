"""Incoming websocket frames are read once into typed values, and bus events turn into and
back from JSON in one place."""

from __future__ import annotations

import json

import pytest

from geniusnight.server.play.events import (
    BadEvent,
    ChatEvent,
    ClosedEvent,
    Event,
    HostEvent,
    KickedEvent,
    RoomEvent,
    RoomSnapshot,
    SeatsEvent,
    StartedEvent,
    StateEvent,
    decode,
    encode,
)
from geniusnight.server.play.frames import Act, Chat, Hello, Ping, Refused, Resume, Unknown, read
from geniusnight.server.play.patches import COMPACT, JSON_PATCH

EVENTS = [
    StateEvent("r", 3, 7),
    StateEvent("r", 3, 7, [{"seq": 7, "seat": 0, "action": {"type": "x"}}]),
    RoomEvent("r"),
    RoomEvent("r", RoomSnapshot({"id": "r", "seats": [{"name": "Ann", "online": False}]}, 4, [12])),
    ChatEvent("r", {"id": 1, "text": "hi"}),
    HostEvent("r", 2, "Grace is the host now."),
    HostEvent("r", None, "Nobody is left."),
    SeatsEvent("r", None),
    SeatsEvent("r", 4),
    StartedEvent("r", 9),
    StartedEvent("r", 9, RoomSnapshot({"seats": [{"bot": "smart", "online": True}, {"online": False}]}, 0, [None, 3])),
    KickedEvent("r", 5, "You left the room."),
    ClosedEvent("r", "Closed."),
]


@pytest.mark.parametrize("event", EVENTS)
def test_every_event_survives_the_wire(event: Event) -> None:
    assert decode(json.loads(json.dumps(encode(event)))) == event


def test_the_wire_form_is_kind_room_and_fields() -> None:
    assert encode(StateEvent("r", 3, 7)) == {"kind": "state", "room": "r", "game": 3, "seq": 7}
    assert encode(KickedEvent("r", 5, "m")) == {"kind": "kicked", "room": "r", "member": 5, "message": "m"}


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"kind": "nope", "room": "r"},
        {"kind": "state", "room": "r", "game": "1", "seq": 1},
        {"kind": "room"},
        {"kind": "room", "room": "r", "snapshot": []},
        {"kind": "room", "room": "r", "snapshot": {"room": {"seats": [{"online": True}]}, "version": 1, "members": []}},
        {"kind": "room", "room": "r", "snapshot": {"room": {"seats": [{}]}, "version": 1, "members": [1]}},
        {"kind": "room", "room": "r", "snapshot": {"room": {"seats": []}, "version": "1", "members": []}},
        {"kind": "started", "room": "r", "game": 1, "snapshot": {"room": {"seats": 3}, "version": 1, "members": []}},
    ],
)
def test_anything_else_on_the_bus_is_refused(data: object) -> None:
    with pytest.raises(BadEvent):
        decode(data)


def test_frames_are_read_into_typed_values() -> None:
    hello = read('{"type": "hello", "token": "t", "patches": true, "game_id": 4, "seq": 2, "seat": 1}', 1024)
    assert hello == Hello(None, token="t", token_given=True, patches=JSON_PATCH, resume=Resume(4, (2, 1)))
    assert read('{"type": "hello", "game_id": 4, "seq": true}', 1024) == Hello(
        None, token=None, token_given=False, patches=None, resume=Resume(4, None)
    )
    assert read('{"type": "hello", "token": 5}', 1024) == Hello(None, None, True, None, None)
    # the compact form by its name; a form this server does not know gets full states
    assert read('{"type": "hello", "patches": "compact"}', 1024) == Hello(None, None, False, COMPACT, None)
    for unknown in ('"gzip"', "1", '["compact"]', "false"):
        assert read(f'{{"type": "hello", "patches": {unknown}}}', 1024) == Hello(None, None, False, None, None)
    assert read('{"type": "act", "ref": "a", "action": {"type": "x"}}', 1024) == Act("a", {"type": "x"})
    assert read('{"type": "chat", "text": 3, "ref": 1}', 1024) == Chat(1, 3)
    assert read('{"type": "ping", "ref": [1]}', 1024) == Ping([1])
    assert read('{"type": "dance", "ref": "d"}', 1024) == Unknown("d", "dance")


def test_refused_frames_carry_the_error_they_get() -> None:
    too_large = read('{"type": "ping"}', 8)
    assert isinstance(too_large, Refused) and too_large.type is None
    assert too_large.error.code == "frame_too_large"
    malformed = read("[1]", 1024)
    assert isinstance(malformed, Refused) and malformed.error.code == "malformed"
    bad_ref = read('{"type": "act", "ref": 5, "action": {}}', 1024)
    assert isinstance(bad_ref, Refused) and bad_ref.type == "act" and bad_ref.ref == 5
    assert json.loads(bad_ref.error.encode()) == {
        "type": "error",
        "ref": None,
        "code": "bad_ref",
        "message": "'ref' must be a string of 1-64 characters.",
    }
    no_action = read('{"type": "act", "ref": "a", "action": 1}', 1024)
    assert isinstance(no_action, Refused) and no_action.error.ref == "a"
    assert no_action.error.code == "malformed"
