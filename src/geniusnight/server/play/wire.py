"""Text frames written straight to the socket, when the server is uvicorn.

A frame sent through ASGI goes through Starlette's ``WebSocket.send``, the send wrapper of
its exception handling, and uvicorn's ``send``: a message dict, three coroutines and an
``Event.wait`` for each frame, for the four or five frames of every move
(docs/benchmarks.md, "Frames written straight to the socket"). :class:`FramesProtocol` is
uvicorn's own websocket protocol (the ``websockets`` sans-I/O one, uvicorn's default) that
also offers the app, under the ASGI scope's extensions, a function that writes text frames
at once, several in one write (a move's patch and its ack, say). The frames are made by the
same ``websockets`` protocol object, so a compression the client agreed on still applies.

:class:`..realtime.Connection` uses it when the scope offers it, and the ASGI send when it
does not (another server, the tests' in-memory client) or when the socket can't take a frame
now (it is closing, or its write buffer is full: the ASGI send waits for it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

FRAMES = "geniusnight.frames"  # the scope extension's name

# writes the text frames now and returns True, or writes nothing and returns False
WriteFrames = Callable[[Sequence[str]], bool]


def frames_writer(ws: Any) -> WriteFrames | None:
    """The scope's frame writer of websocket ``ws``, if its server offers one."""
    extensions = getattr(ws, "scope", {}).get("extensions") or {}
    writer = extensions.get(FRAMES)
    return writer if callable(writer) else None


class FramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, plus the ``geniusnight.frames`` scope extension."""

    async def run_asgi(self) -> None:
        scope: dict[str, Any] = self.scope  # type: ignore[assignment]  # an extension of our own
        scope["extensions"] = {**(scope.get("extensions") or {}), FRAMES: self.write_texts}
        await super().run_asgi()

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
        try:
            for text in texts:
                conn.send_text(text.encode())
        except InvalidState:  # the client's close came in: nothing was queued before it
            return False
        self.transport.write(b"".join(conn.data_to_send()))
        return True
