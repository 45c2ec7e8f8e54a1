"""How the server reads what a client sends on its websocket: a whole frame alone in a read,
a frame split over reads, several in one, a fragmented message and control frames must give
the app the same messages, and bad frames must close the connection with the code RFC 6455
gives them.

The client here is a raw socket, so that the test decides how the bytes are cut."""

from __future__ import annotations

import asyncio
import json
import os
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from inprocess import serve

TEXT, CONT, CLOSE, PING, PONG = 0x1, 0x0, 0x8, 0x9, 0xA


def frame(payload: bytes, opcode: int = TEXT, *, fin: bool = True, masked: bool = True) -> bytes:
    """A client's frame (RFC 6455, 5.2), masked with a random key unless told not to."""
    head = bytes([(0x80 if fin else 0) | opcode])
    size = len(payload)
    length = bytes([size]) if size < 126 else bytes([126]) + struct.pack("!H", size)
    if not masked:
        return head + length + payload
    key = os.urandom(4)
    body = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return head + bytes([length[0] | 0x80]) + length[1:] + key + body


def ping(ref: str, pad: int = 0) -> bytes:
    return json.dumps({"type": "ping", "ref": ref, "pad": "x" * pad}).encode()


class RawSocket:
    """A websocket client on a bare TCP stream: it writes bytes as given and reads frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def write(self, *chunks: bytes) -> None:
        for chunk in chunks:  # each its own write, with a pause: each its own read on the server
            self.writer.write(chunk)
            await self.writer.drain()
            await asyncio.sleep(0.02)

    async def next_frame(self) -> tuple[int, bytes]:
        head = await asyncio.wait_for(self.reader.readexactly(2), 5)
        size = head[1] & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return head[0] & 0x0F, await self.reader.readexactly(size)

    async def next_message(self) -> dict[str, Any]:
        """The next text frame but ``room`` frames, as JSON."""
        while True:
            opcode, payload = await self.next_frame()
            if opcode == TEXT and json.loads(payload)["type"] != "room":
                message: dict[str, Any] = json.loads(payload)
                return message

    async def close_code(self) -> int:
        """The code of the close frame the server sends (text frames before it are skipped)."""
        while True:
            opcode, payload = await self.next_frame()
            if opcode == CLOSE:
                code: int = struct.unpack("!H", payload[:2])[0]
                return code


@asynccontextmanager
async def seated_client(db_url: str) -> AsyncIterator[RawSocket]:
    """A raw websocket client, welcomed into a room of its own."""
    async with serve(db_url) as srv, httpx.AsyncClient(base_url=srv.base) as http:
        made = (await http.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
        host, port = srv.base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            (
                f"GET /ws/{made['room_id']} HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {srv.base}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
            ).encode()
        )
        response = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert response.startswith(b"HTTP/1.1 101")
        sock = RawSocket(reader, writer)
        await sock.write(frame(json.dumps({"type": "hello", "token": made["token"]}).encode()))
        assert (await sock.next_message())["type"] == "welcome"
        try:
            yield sock
        finally:
            writer.close()


async def test_frames_cut_every_way_reach_the_app_alike(db_url: str) -> None:
    async with seated_client(db_url) as sock:
        whole, longer = frame(ping("alone")), frame(ping("longer", pad=300))  # 7- and 16-bit lengths
        split = frame(ping("split"))
        two = frame(ping("first")) + frame(ping("second"))
        first, rest = ping("fragmented")[:10], ping("fragmented")[10:]
        fragmented = frame(first, fin=False) + frame(rest, CONT)
        await sock.write(whole, longer, split[:3], split[3:], two, fragmented, frame(b"hi", PING))
        refs = [(await sock.next_message())["ref"] for _ in range(6)]
        assert refs == ["alone", "longer", "split", "first", "second", "fragmented"]
        assert await sock.next_frame() == (PONG, b"hi")
        await sock.write(frame(ping("after")))  # and the reading goes on from where it was
        assert (await sock.next_message())["ref"] == "after"


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        (frame(b'{"type": "ping", "ref": "\xff"}'), 1007),  # not UTF-8
        (frame(ping("bare"), masked=False), 1002),  # a client masks every frame
        (frame(ping("cont"), CONT), 1002),  # a continuation of nothing
    ],
    ids=["not_utf8", "unmasked", "stray_continuation"],
)
async def test_a_bad_frame_closes_the_connection_with_its_code(db_url: str, sent: bytes, code: int) -> None:
    async with seated_client(db_url) as sock:
        await sock.write(sent)
        assert await sock.close_code() == code
