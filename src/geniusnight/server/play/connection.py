"""One websocket's outgoing side: frames go out in order, and a slow client holds up nobody.

Also the flood control a socket's incoming frames pass (``TokenBucket``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from starlette.types import Send

from .outbound import Identity, Outbound
from .patches import PatchForm

MAX_BACKLOG = 512  # frames a connection may fall behind before it is dropped (it resyncs)
WRITER_LINGER = 2.0  # seconds a connection's writer waits for more frames before it ends


class TokenBucket:
    """Flood control per connection: ``rate`` frames a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _Resumed:
    """The rest of an awaitable that was run until it first had to wait (on ``waiting``, what
    it yielded): awaiting this waits for that and runs the awaitable on to its end, passing
    on whatever the awaiting task is sent or thrown (a cancellation, say)."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Generator[Any, Any, None], waiting: Any) -> None:
        self.coro, self.waiting = coro, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                sent = yield waiting
            except BaseException as e:
                try:
                    waiting = coro.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration:
                    return

    def close(self) -> None:
        self.coro.close()


@dataclass(eq=False)
class Connection:
    """One websocket. Frames go out in order, and a slow client never holds up a fan-out.

    A frame to a connection with nothing queued is sent at once: the server's ASGI send is
    run until it would wait, and a socket that takes the frame (as nearly every one does)
    never has to. Only a send that must wait (the client's TCP window is full) is finished by
    a writer task, and the frames that come meanwhile queue in a backlog it drains. A writer's
    turn through the loop for every frame would cost CPU on every move and delay every frame
    by a loop iteration (docs/performance.md, D15).

    The writer stays while frames keep coming and ends after ``WRITER_LINGER`` quiet
    seconds: an idle connection (most of them, most of the time) holds no task. One timer a
    connection watches for the quiet, re-armed while frames keep coming, not one a frame:
    each timer lived on in the loop's heap for ``WRITER_LINGER`` seconds after it was
    cancelled."""

    send: Send  # the server's ASGI send for this socket, past the handshake
    room_id: str
    member_id: int | None
    seat: int | None  # the member's seat as last told to the client (``you``); views go by the game's holders
    name: str
    host: bool = False  # the room's host as last told to the client
    away: bool = False  # a bot stands in for the member, as last told to the client
    muted: bool = False  # the host muted the member's chat, as last told to the client
    last_seq: dict[int, int] = field(default_factory=dict)  # game id -> last seq sent
    view_seat: dict[int, int | None] = field(default_factory=dict)  # game id -> seat of that view
    patches: PatchForm | None = None  # the form its ``patch`` and ``room_patch`` frames take (the hello said so)
    # a compact client that reads a move's ack from its patch frame (the hello said so), and
    # the ref of its move under way until the hub folded its ack into one (Hub.send_update)
    acks_in_patch: bool = False
    unacked: str | None = None
    room_held: int | None = None  # the hub's room frame (Hub.room_last) this client holds; None: another
    screen_invite: str | None = None  # a shared screen: the invite path its key holds for (a new one retires it)
    closed: bool = False  # no more frames are taken; the socket closes once the backlog is out
    close_code: int = 1000  # the websocket close code it then closes with (``finish``)
    backlog: deque[str] = field(default_factory=deque)
    # frames the hub sent while the socket's welcome was being read (a list from its hello to
    # its welcome; None: none are held): they follow the welcome, which the protocol sends
    # first (a page draws a game only once it knows the room)
    held: list[str] | None = None
    _writer: asyncio.Task[None] | None = None
    _wake: asyncio.Future[None] | None = None  # set while the writer waits for frames
    _waiting_since: float = 0.0  # loop time the writer began to wait
    _quiet_timer: asyncio.TimerHandle | None = None
    _sending: _Resumed | None = None  # a send that had to wait, for the writer to finish

    def send_frame(self, frame: Outbound) -> None:
        self.send_text(frame.encode())

    def identity(self) -> Identity:
        """Who the member is, as last told to the client."""
        return Identity(self.member_id, self.name, self.seat, self.host, self.away, self.muted)

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        held = self.held
        if held is not None:
            if len(held) >= MAX_BACKLOG:
                self.finish()
            else:
                held.append(text)
            return
        if self._idle():
            self._send_now(text)
            return
        if len(self.backlog) >= MAX_BACKLOG:
            self.finish()  # a client this far behind resyncs when it reconnects
            return
        self.backlog.append(text)
        self._kick()

    def welcome(self, frame: Outbound) -> None:
        """Send the welcome, then the frames held for it (see ``held``), in the order they came."""
        held, self.held = self.held, None
        self.send_frame(frame)
        for text in held or ():
            self.send_text(text)

    def _idle(self) -> bool:
        """Nothing queued, nothing on its way, no writer busy: a frame can go out now."""
        return not self.backlog and self._sending is None and (self._writer is None or self._wake is not None)

    def _send_now(self, text: str) -> None:
        coro = self.send({"type": "websocket.send", "text": text}).__await__()
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # sent
        except Exception:
            self._lost()
        else:
            self._sending = _Resumed(coro, waiting)
        self._kick()

    def _lost(self) -> None:
        """The socket is gone: no more frames are taken, none queued or held is sent, and
        the writer closes it."""
        self.closed = True
        self.backlog.clear()
        self.held = None

    def finish(self, code: int = 1000) -> None:
        """Close after the frames already queued (or held) have gone out, with the websocket
        close ``code`` (a refusal's, as at the hello: 4401 for a key that admits no more).
        A connection already closing keeps the code it was given first."""
        if not self.closed:
            if self.held:  # refused before its welcome: what it was told (why) still goes out
                self.backlog.extend(self.held)
            self.held = None
            self.closed = True
            self.close_code = code
            self._kick()

    async def drain(self, seconds: float) -> None:
        """A connection that was finished (``finish``): wait, at most ``seconds``, for its
        writer to send what was queued and the close frame, as when the handler ends before
        the client replies to the close (refused at its welcome)."""
        task = self._writer
        if self.closed and task is not None and task is not asyncio.current_task():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), seconds)

    async def stop(self) -> None:
        """The socket is gone: drop what is queued and end the writer."""
        self._lost()
        if self._quiet_timer is not None:
            self._quiet_timer.cancel()
            self._quiet_timer = None
        task = self._writer
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._sending is not None:  # the writer never began on it
            self._sending.close()
            self._sending = None

    def _kick(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None:
            if not wake.done():
                wake.set_result(None)
        elif self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                sending = self._sending
                if sending is not None:
                    await sending
                    self._sending = None
                while self.backlog:
                    await self.send({"type": "websocket.send", "text": self.backlog.popleft()})
                if self.closed:
                    break
                self._wake = wake = loop.create_future()
                self._waiting_since = loop.time()
                if self._quiet_timer is None:
                    self._quiet_timer = loop.call_later(WRITER_LINGER, self._check_quiet)
                await wake
                self._wake = None
                if not self.backlog and self._sending is None and not self.closed:
                    return  # quiet for a while: let the task go; the next frame starts another
        except Exception:
            self._lost()
            self._sending = None
        finally:
            self._writer = None
            self._wake = None
        with contextlib.suppress(Exception):
            await self.send({"type": "websocket.close", "code": self.close_code})

    def _check_quiet(self) -> None:
        """The quiet timer: wake a writer that has waited ``WRITER_LINGER`` seconds (it finds
        nothing to send and ends); one that waited less is checked again when that time is
        up. A writer busy sending starts the timer again when it next waits."""
        self._quiet_timer = None
        wake = self._wake
        if wake is None or wake.done():
            return
        loop = asyncio.get_running_loop()
        left = self._waiting_since + WRITER_LINGER - loop.time()
        if left > 0:
            self._quiet_timer = loop.call_later(left, self._check_quiet)
        else:
            wake.set_result(None)
