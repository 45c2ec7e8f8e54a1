"""Every frame the server sends encodes to the shape docs/protocol.md shows: the same keys, in
the same order, as compact JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from geniusnight.server.play import outbound
from geniusnight.server.play.frames import Refused, read
from geniusnight.server.play.patches import COMPACT, JSON_PATCH, OpsText, Step

PROTOCOL = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
YOU = outbound.Identity(member_id=3, name="Ada", seat=0, host=True, away=False, muted=False)


def keys(shape: str) -> list[str]:
    """The top-level keys of a frame as the protocol writes it: ``{"type": "chat", "id", ...}``
    (a key alone, or with a value, which may nest and is passed over)."""
    found, depth, before = [], 0, ""
    for token in re.findall(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]', shape):
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif token.startswith('"') and depth == 1 and before in "{,":
            found.append(json.loads(token))
        before = token
    return found


def documented(shape: str) -> list[str]:
    assert shape in " ".join(PROTOCOL.split()), f"docs/protocol.md no longer shows {shape}"
    return keys(shape)


FRAMES: list[tuple[Any, str]] = [
    (
        outbound.Welcome(seat=0, room={"code": "AB12"}, you=YOU, chat=[]),
        '{"type": "welcome", "seat": 0 | null, "room": {...}, '
        '"you": {"member_id", "name", "seat", "host", "away", "muted"}, "chat": [...]}',
    ),
    (outbound.Ack("c-17", 13, False), '{"type": "ack", "ref": "c-17", "seq": 13, "duplicate": false}'),
    (
        outbound.Error("c-17", "not_your_turn", "It is Ada's turn."),
        '{"type": "error", "ref": "c-17", "code": "not_your_turn", "message": "It is Ada\'s turn."}',
    ),
    (outbound.Pong("p"), '{"type": "pong", "ref"}'),
    (outbound.Room({"code": "AB12"}), '{"type": "room", "room": {...}}'),
    (
        outbound.RoomPatch([{"op": "replace", "path": "/status", "value": "playing"}]),
        '{"type": "room_patch", "ops": [{"op": "replace", "path": "/status", "value": "playing"}, ...]}',
    ),
    (
        outbound.Chat({"id": 1, "name": "Ada", "seat": 0, "text": "hi", "at": "2026-12-07T12:00:00"}),
        '{"type": "chat", "id", "name", "seat", "text", "at"}',
    ),
    (outbound.You(YOU), '{"type": "you", "you": {"member_id", "name", "seat", "host", "away", "muted"}}'),
    (outbound.Host(4, "Bo is the host now."), '{"type": "host", "member_id", "message"}'),
    (outbound.Kicked("You were removed."), '{"type": "kicked", "message"}'),
    (outbound.Closed("This room was closed."), '{"type": "closed", "message"}'),
    (outbound.Reconnect(), '{"type": "reconnect", "message": "This server is restarting. ..."}'),
]


@pytest.mark.parametrize(("frame", "shape"), FRAMES, ids=[type(f).__name__ for f, _ in FRAMES])
def test_each_frame_encodes_to_the_documented_shape(frame: Any, shape: str) -> None:
    text = frame.encode()
    value = json.loads(text)
    assert list(value) == documented(shape)
    assert value["type"] == json.loads(shape.split(",")[0] + "}")["type"]
    assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)  # compact, as ever


def test_you_is_the_same_identity_in_welcome_and_you_frames() -> None:
    you = ["member_id", "name", "seat", "host", "away", "muted"]
    assert list(json.loads(outbound.You(YOU).encode())["you"]) == you
    assert json.loads(outbound.Welcome(None, None, YOU, []).encode())["you"] == YOU.as_json()


def test_frames_encode_byte_for_byte_as_before() -> None:
    assert outbound.Ack("c-1", 2, True).encode() == '{"type":"ack","ref":"c-1","seq":2,"duplicate":true}'
    ops = [{"op": "replace", "path": "/status", "value": "playing"}, {"op": "remove", "path": "/result"}]
    assert outbound.RoomPatch(ops, JSON_PATCH).encode() == (
        '{"type":"room_patch","ops":[{"op":"replace","path":"/status","value":"playing"},'
        '{"op":"remove","path":"/result"}]}'
    )
    assert outbound.Chat({"id": 1, "text": "é"}).encode() == '{"type":"chat","id":1,"text":"é"}'
    assert outbound.Pong({"any": 1}).encode() == '{"type":"pong","ref":{"any":1}}'


def test_the_compact_form_writes_the_frames_of_every_move_as_arrays_its_first_item_names() -> None:
    ops = [{"op": "replace", "path": "/status", "value": "playing"}, {"op": "remove", "path": "/result"}]
    compact_ops = [["=", "/status", "playing"], ["-", "/result"]]
    cases = [
        (outbound.Ack("c-1", 2, False, COMPACT), '["a","c-1",2]', outbound.Ack("c-1", 2, False)),
        (outbound.Ack("c-1", 2, True, COMPACT), '["a","c-1",2,true]', outbound.Ack("c-1", 2, True)),
        (outbound.RoomPatch(ops, COMPACT), '["r",[["=","/status","playing"],["-","/result"]]]', None),
    ]
    for frame, text, plain in cases:
        assert frame.encode() == text
        # read back, the object the RFC 6902 client gets (a room patch's operations as arrays)
        whole = json.loads(plain.encode()) if plain is not None else {"type": "room_patch", "ops": compact_ops}
        assert outbound.expand(json.loads(text)) == whole
    with pytest.raises(ValueError):
        outbound.expand(["x", 1])


def test_an_error_names_a_ref_only_if_it_is_a_string_or_a_number() -> None:
    assert json.loads(outbound.Error(7, "c", "m").encode())["ref"] == 7
    assert json.loads(outbound.Error({"x": 1}, "c", "m").encode())["ref"] is None
    refused = read('{"type": "act", "ref": 5, "action": {}}', 1024)
    assert isinstance(refused, Refused) and json.loads(refused.error.encode())["ref"] is None


def test_state_and_patch_frames_encode_to_the_documented_shape() -> None:
    frames = outbound.StateFrames(
        7, 12, None, {"board": [1]}, lambda seat: {"hand": [seat]} if seat is not None else {}
    )
    state = json.loads(frames.encode(0))
    assert list(state) == documented(
        '{"type": "state", "game_id": 7, "seq": 12, "deadline": <epoch ms or null>, "view": {...}, "seat": 0 | null}'
    )
    assert state == {
        "type": "state",
        "game_id": 7,
        "seq": 12,
        "deadline": None,
        "view": {"board": [1], "hand": [0]},
        "seat": 0,
    }
    assert json.loads(frames.encode(None))["view"] == {"board": [1]}
    assert frames.encode(0) is frames.encode(0)  # one string for every connection of the seat

    step = Step(
        12,
        13,
        {
            JSON_PATCH: OpsText(
                '{"op":"replace","path":"/board/0","value":2}', {0: '{"op":"add","path":"/hand/1","value":5}'}
            ),
            COMPACT: OpsText('["=","/board/0",2]', {0: '["+","/hand/1",5]'}),
        },
    )
    patch = json.loads(outbound.PatchFrame(7, step, 1.5e12, 0).encode())
    assert list(patch) == documented(
        '{"type": "patch", "game_id": 7, "seq": 13, "base": 12, "deadline": <epoch ms>, '
        '"ops": [{"op": "add", "path": "/tiles/31", "value": [...]}, ...]}'
    )
    assert patch["ops"] == [
        {"op": "replace", "path": "/board/0", "value": 2},
        {"op": "add", "path": "/hand/1", "value": 5},
    ]
    assert outbound.PatchFrame(7, step, 1.5e12, None).encode() == (
        '{"type":"patch","game_id":7,"seq":13,"base":12,"deadline":1500000000000.0,'
        '"ops":[{"op":"replace","path":"/board/0","value":2}]}'
    )
    # no clock: no deadline at all (the seat's own operations follow the shared ones)
    unclocked = Step(
        12,
        13,
        {
            JSON_PATCH: OpsText(
                '{"op":"replace","path":"/board/0","value":2}', {1: '{"op":"add","path":"/hand/0","value":1}'}
            )
        },
    )
    assert outbound.PatchFrame(7, unclocked, None, 1).encode() == (
        '{"type":"patch","game_id":7,"seq":13,"base":12,"ops":[{"op":"replace","path":"/board/0","value":2},'
        '{"op":"add","path":"/hand/0","value":1}]}'
    )
    # the compact form: ["p", game_id, seq, base, ops], the deadline (if any) after them, each
    # operation an array [sign, path, value]; read back, the same frame
    compact = outbound.PatchFrame(7, step, 1.5e12, 0, COMPACT).encode()
    assert compact == '["p",7,13,12,[["=","/board/0",2],["+","/hand/1",5]],1500000000000.0]'
    assert outbound.expand(json.loads(compact)) == {**patch, "ops": [["=", "/board/0", 2], ["+", "/hand/1", 5]]}
    assert outbound.PatchFrame(7, step, None, 1, COMPACT).encode() == '["p",7,13,12,[["=","/board/0",2]]]'
