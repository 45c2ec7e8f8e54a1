"""Text frames written straight to the socket, when the server is uvicorn.

A frame sent through ASGI goes through Starlette's ``WebSocket.send``, the send wrapper of
its exception handling, and uvicorn's ``send``: a message dict, three coroutines and an
``Event.wait`` for each frame, for the four or five frames of every move
(docs/performance.md, D14). :class:`FramesProtocol` is
uvicorn's own websocket protocol (the ``websockets`` sans-I/O one, uvicorn's default) that
also offers the app, under the ASGI scope's extensions, a function that writes text frames
at once, several in one write (a move's patch and its ack, say). With a compression the
client agreed on, the ``websockets`` protocol object makes the frames; without, their
headers are written here (two to ten bytes), as a frame object cost more than its bytes.

:class:`..realtime.Connection` uses it when the scope offers it, and the ASGI send when it
does not (another server, the tests' in-memory client) or when the socket can't take a frame
now (it is closing, or its write buffer is full: the ASGI send waits for it). The protocol
offers its ASGI receive there too, which the socket's loop reads frames with (Starlette's
``WebSocket.receive`` around it checked and wrapped every message again).
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, apply_mask
from websockets.protocol import State

# the names of the scope extensions FramesProtocol offers
FRAMES = "geniusnight.frames"  # its frame writer
RECEIVE = "geniusnight.receive"  # its own ASGI receive

# writes the text frames now and returns True, or writes nothing and returns False
WriteFrames = Callable[[Sequence[str]], bool]
Receive = Callable[[], Awaitable[Any]]


def frames_receiver(ws: Any) -> Receive | None:
    """The server's ASGI receive of websocket ``ws``, if its server offers it: the socket's
    loop reads its frames with it rather than through Starlette's ``WebSocket.receive``,
    which checks and wraps each message again (1 % of a move's instructions)."""
    receive: Receive | None = _extension(ws, RECEIVE)
    return receive


def frames_writer(ws: Any) -> WriteFrames | None:
    """The scope's frame writer of websocket ``ws``, if its server offers one."""
    writer: WriteFrames | None = _extension(ws, FRAMES)
    return writer


def _extension(ws: Any, name: str) -> Any:
    """The callable the server offers under the scope extension ``name``, or None."""
    extensions = getattr(ws, "scope", {}).get("extensions") or {}
    found = extensions.get(name)
    return found if callable(found) else None


class Inbox:
    """What the protocol queues for its one reader, the app's receive: the ``asyncio.Queue``
    calls uvicorn's protocol makes (``put_nowait``, ``get``, ``empty``), without the queue's
    bookkeeping for many readers, a bound and ``join``. Every frame a client sends passes
    through it: the queue's ``get`` and its wake-up were 2 % of the server's time in a move."""

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._items: deque[Any] = deque()
        self._loop = loop  # kept, not asked for: on Python 3.11 asking costs a getpid() system call
        self._waiter: asyncio.Future[None] | None = None  # the reader's, while it waits

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Any:
        while not self._items:
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:  # cancelled while waiting
                    self._waiter = None
        return self._items.popleft()


# seconds a client may take over one message sent in fragments, from its first fragment to
# its last; then the socket is closed (1008). The size of a message is bounded by uvicorn's
# ``ws_max_size`` (cli.WS_MAX_MESSAGE_BYTES), a frame left half-sent by the keepalive pings
# (the client cannot answer one in the middle of a frame); a message left unfinished while
# the client answers the pings is what this ends.
MESSAGE_SECONDS = 10.0


class FramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, plus the ``geniusnight.frames`` and ``geniusnight.receive``
    scope extensions, an :class:`Inbox` for its queue, and a deadline for fragmented messages
    (``MESSAGE_SECONDS``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox(self.loop)  # type: ignore[assignment]  # the queue's calls, for one reader
        self.message_deadline: asyncio.TimerHandle | None = None  # while a fragmented message comes

    def handle_text(self, event: Frame) -> None:
        self._message_begins(event)
        super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        self._message_begins(event)
        super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        if event.fin:
            self._message_ends()
        super().handle_cont(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._message_ends()
        super().connection_lost(exc)

    def _message_begins(self, event: Frame) -> None:
        if not event.fin and self.message_deadline is None:
            self.message_deadline = self.loop.call_later(MESSAGE_SECONDS, self._message_too_slow)

    def _message_ends(self) -> None:
        if self.message_deadline is not None:
            self.message_deadline.cancel()
            self.message_deadline = None

    def _message_too_slow(self) -> None:
        """The client began a message ``MESSAGE_SECONDS`` ago and has not finished it: close
        the socket (what it sent of the message is freed with it)."""
        self.message_deadline = None
        if self.transport.is_closing():
            return
        self.conn.fail(1008, "message not finished in time")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.close()

    async def run_asgi(self) -> None:
        scope: dict[str, Any] = self.scope  # type: ignore[assignment]  # an extension of our own
        scope["extensions"] = {**(scope.get("extensions") or {}), FRAMES: self.write_texts, RECEIVE: self.receive}
        await super().run_asgi()

    def data_received(self, data: bytes) -> None:
        """What the client sent. The usual case, one whole text frame that came alone in
        one read (a move, a ping), goes to the app at once (``_one_text``); anything else
        goes through the ``websockets`` protocol object, as uvicorn's does."""
        text = self._one_text(data)
        if text is None:
            super().data_received(data)
        else:
            self.queue.put_nowait({"type": "websocket.receive", "text": text})

    def _one_text(self, data: bytes) -> str | None:
        """``data``'s text, if ``data`` is exactly one unfragmented, masked text frame the
        open connection takes as it stands (no extension, no message or bytes part-read,
        within the size limit, valid UTF-8); else None, and nothing was read.

        The ``websockets`` protocol object reads such a frame through a chain of generators
        and uvicorn wraps it in an event and a list: 4 % of the server's time in a move
        (docs/performance.md, D14). Skipping it changes nothing
        the object keeps between frames: it waits for the next frame's first byte either way."""
        size = len(data)
        if size < 6 or data[0] != 0x81 or not data[1] & 0x80:
            return None
        length = data[1] & 0x7F
        if length < 126:
            start = 6
        elif length == 126 and size >= 8:
            length, start = (data[2] << 8) | data[3], 8
        else:
            return None
        conn = self.conn
        if (
            size != start + length
            or conn.state is not State.OPEN
            or conn.extensions
            or getattr(conn, "current_size", 0) is not None  # a message part-read (or another websockets)
            or conn.reader.buffer
            or conn.reader.eof
            or self.frames
            or self.close_sent
            or not self.handshake_complete
        ):
            return None
        limit = conn.max_message_size
        if (limit is not None and length > limit) or (
            conn.max_fragment_size is not None and length > conn.max_fragment_size
        ):
            return None
        try:
            text: str = apply_mask(data[start:], data[start - 4 : start]).decode()
        except UnicodeDecodeError:
            return None  # the protocol object closes the connection for it
        return text

    def write_texts(self, texts: Sequence[str]) -> bool:
        """Write ``texts`` as text frames, in order, in one write to the socket; or, when the
        connection is not open for it or its write buffer is full, write nothing and say so."""
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        conn = self.conn
        if conn.state is not State.OPEN or conn.expect_continuation_frame:
            return False  # the client's close came in: the ASGI send tells the app so
        if conn.extensions:  # compression: the protocol object makes the frames
            for text in texts:
                conn.send_text(text.encode())
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        out = conn.data_to_send()  # nothing, but for what uvicorn has not written yet
        for text in texts:
            payload = text.encode()
            out.append(frame_header(len(payload)))
            out.append(payload)
        self.transport.write(b"".join(out))
        return True


def frame_header(size: int) -> bytes:
    """The header of an unmasked, unfragmented text frame of ``size`` bytes (RFC 6455,
    5.2), as a server sends it: what ``websockets`` writes, without making a frame object.

    >>> frame_header(5), frame_header(300)[:2], len(frame_header(70_000))
    (b'\\x81\\x05', b'\\x81~', 10)
    """
    if size < 126:
        return bytes((0x81, size))
    if size < 1 << 16:
        return _SHORT.pack(0x81, 126, size)
    return _LONG.pack(0x81, 127, size)


_SHORT = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")
