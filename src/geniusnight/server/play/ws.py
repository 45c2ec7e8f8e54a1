"""The websocket ``/ws/{room_id}`` (documented in docs/protocol.md).

Every frame is read once into a typed value (:func:`.frames.read`: size, JSON, type, fields)
and checked here for flood rate and seat before the engine sees it. A refused frame gets an
``error`` frame and changes nothing; the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...logs import fields
from ..deps import cookie_name
from ..errors import ApiError
from ..lifecycle import Lifecycle
from ..limits import RateLimit, SocketCount
from ..origin import origin_allowed, says_where_from
from ..rooms.party import PartyNight
from ..rooms.usecases import RoomUseCases
from . import frames, outbound
from .connection import Connection, TokenBucket
from .frames import Act, Chat, Hello, Ping, Refused, Unknown
from .games import GameService
from .hub import Hub
from .patches import COMPACT

log = logging.getLogger(__name__)

# how long a socket the server closed (a retired screen) may take to get its last frames and
# the close out, before it is dropped
CLOSE_SECONDS = 5.0

# what a socket refused before its hello is told, by code (then it is closed: 4429)
SOCKET_REFUSALS = {
    "too_many_connects": "Too many new connections from here; wait a minute.",
    "too_many_sockets": "Too many open connections; close some and retry.",
    "server_full": "Too many open connections; close some and retry.",
}


@dataclass(frozen=True, slots=True)
class SocketConfig:
    """The settings the room socket reads (``compose.py`` fills it from the settings of the
    same names)."""

    public_url: str  # the one origin a browser's socket may come from ("": the request's host)
    max_frame_bytes: int  # of one incoming frame
    hello_seconds: float  # a new socket must say hello this soon
    ws_per_member: int  # open sockets of one member in one room (and of a room's screens)
    rate_per_second: float  # frames a second one socket may send, on average
    rate_burst: int  # frames it may send at once above that pace


@dataclass(frozen=True, slots=True)
class SocketPorts:
    """What the room socket works with; ``compose.py`` builds it, ``app.py`` hands it to
    :class:`RoomSocket`."""

    config: SocketConfig
    hub: Hub
    games: GameService
    rooms: RoomUseCases
    party: PartyNight
    lifecycle: Lifecycle  # draining: sockets opened now are sent away
    connect_rate: RateLimit  # websockets opened, by address
    sockets: SocketCount  # open sockets, by address and in all


class RoomSocket:
    """``/ws/{room_id}`` as a plain ASGI app (Starlette runs a route whose endpoint is not a
    function as one): no dependencies to solve and nothing FastAPI keeps per connection,
    because a connection lives for hours and most of it idles. The handshake and the hello go
    through Starlette's ``WebSocket``; after them the socket's frames are read and written with
    the server's own ASGI ``receive`` and ``send``, without ``WebSocket``'s checks and
    wrapping of every message (docs/performance.md, D14)."""

    def __init__(self, ports: SocketPorts) -> None:
        self.ports = ports

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await room_socket(WebSocket(scope, receive, send), receive, send, self.ports)


async def room_socket(ws: WebSocket, receive: Receive, send: Send, ports: SocketPorts) -> None:
    """One socket, from the origin check to its close; ``receive`` and ``send`` are ``ws``'s
    own ASGI channels."""
    room_id: str = ws.path_params["room_id"]
    origin = ws.headers.get("origin")
    fetch_site = ws.headers.get("sec-fetch-site")
    if (origin is not None and not origin_allowed(ports.config.public_url, origin, ws.headers.get("host"))) or (
        origin is None and fetch_site is not None and fetch_site != "same-origin"
    ):
        await ws.close(code=4403)  # before the handshake: the browser sees 403
        return
    address = ws.client.host if ws.client else ""
    refused = "too_many_connects" if not await ports.connect_rate.hit(address) else ports.sockets.open(address)
    await ws.accept()
    if refused is not None:
        with contextlib.suppress(Exception):
            await ws.send_text(outbound.Error(None, refused, SOCKET_REFUSALS[refused]).encode())
            await ws.close(code=4429)
        return
    try:
        if ports.lifecycle.draining:  # accepted just before the listener closed
            with contextlib.suppress(Exception):
                await ws.send_text(outbound.Reconnect().encode())
                await ws.close(code=1012)
            return
        # a task of its own: every time the connection's coroutine resumes (each frame in,
        # each move's commit) it then goes through its own few frames, not again through
        # the twenty of the middleware and routing it was called from
        await asyncio.get_running_loop().create_task(_connect(ws, receive, send, ports, room_id))
    finally:
        ports.sockets.close(address)


async def _connect(ws: WebSocket, receive: Receive, send: Send, ports: SocketPorts, room_id: str) -> None:
    try:
        admitted = await _admit(ws, send, ports, room_id)
    except (WebSocketDisconnect, RuntimeError):
        return
    if admitted is None:
        return
    conn, hello = admitted
    where = fields(room_id, seat=conn.seat)
    log.info("socket open: member %s", conn.member_id, extra=where)
    hub = ports.hub
    try:
        await _welcome(ports, conn, hello)
        # the member just came online (a shared screen is nobody: it comes and goes unseen)
        if conn.member_id is not None and hub.member_sockets(room_id, conn.member_id) == 1:
            await ports.rooms.came_online(room_id)
        await _serve(receive, ports, conn)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("socket failed", extra=where)
    finally:
        log.info("socket closed: member %s", conn.member_id, extra=where)
        hub.remove(conn)
        await conn.drain(CLOSE_SECONDS)  # one closed by the server says why and closes
        await conn.stop()
        # the member's last socket here
        if conn.member_id is not None and hub.member_sockets(room_id, conn.member_id) == 0:
            with contextlib.suppress(Exception):
                await ports.rooms.went_offline(room_id, conn.member_id, conn.host)


async def _admit(ws: WebSocket, send: Send, ports: SocketPorts, room_id: str) -> tuple[Connection, Hello] | None:
    """The hello, the seat token, the room: a Connection in the hub and the hello; or None
    (refused and closed). Everything looked up here is dropped on return: an idle
    connection keeps only its Connection."""
    config = ports.config
    hello = await _hello(ws, config.max_frame_bytes, config.hello_seconds)
    if hello is None:
        return None
    if hello.screen is not None:
        return await _admit_screen(ws, send, ports, room_id, hello)
    token = hello.token
    if not hello.token_given:
        # the cookie authenticates only a socket whose browser said where it comes from
        if not says_where_from(ws.headers) and ws.cookies.get(cookie_name(room_id)):
            message = "Send your token in hello, or connect from this site's pages."
            await ws.send_text(outbound.Error(None, "bad_origin", message).encode())
            await ws.close(code=4403)
            return None
        token = ws.cookies.get(cookie_name(room_id))
    try:
        admitted = await ports.rooms.admit(room_id, token)
    except ApiError as e:
        await ws.send_text(outbound.Error(None, e.code, e.message).encode())
        await ws.close(code=4401 if e.code == "not_member" else 4404)
        return None
    if ports.hub.member_sockets(room_id, admitted.member_id) >= config.ws_per_member:
        message = f"You have {config.ws_per_member} connections open in this room; close one (a tab) first."
        await ws.send_text(outbound.Error(None, "too_many_tabs", message).encode())
        await ws.close(code=4429)
        return None
    conn = Connection(
        send=send,
        room_id=room_id,
        member_id=admitted.member_id,
        seat=admitted.seat,
        name=admitted.name,
        host=admitted.host,
        away=admitted.away,
        muted=admitted.muted,
        patches=hello.patches,
        acks_in_patch=hello.ack_in_patch and hello.patches == COMPACT,
        held=[],  # until its welcome
    )
    ports.hub.add(conn)
    return conn, hello


async def _admit_screen(
    ws: WebSocket, send: Send, ports: SocketPorts, room_id: str, hello: Hello
) -> tuple[Connection, Hello] | None:
    """A shared screen: no member, no seat, no name; it gets what a spectator gets. A room's
    screens together may hold as many sockets as one member (``GENIUSNIGHT_WS_PER_MEMBER``).
    Its connection keeps the invite its key holds for: a new invite link closes it (see
    ``Hub.keeps_screen``)."""
    config = ports.config
    try:
        invite_path = await ports.party.admit_screen(room_id, hello.screen)
    except ApiError as e:
        await ws.send_text(outbound.Error(None, e.code, e.message).encode())
        await ws.close(code=4401 if e.status == 401 else 4404)
        return None
    if ports.hub.member_sockets(room_id, None) >= config.ws_per_member:
        message = f"This room has {config.ws_per_member} shared screens open; close one first."
        await ws.send_text(outbound.Error(None, "too_many_tabs", message).encode())
        await ws.close(code=4429)
        return None
    conn = Connection(
        send=send,
        room_id=room_id,
        member_id=None,
        seat=None,
        name="",
        patches=hello.patches,
        screen_invite=invite_path,
        held=[],  # until its welcome
    )
    ports.hub.add(conn)
    return conn, hello


async def _welcome(ports: SocketPorts, conn: Connection, hello: Hello) -> None:
    """The welcome frame (room, who you are, recent chat), then the current game's state,
    or only the patches since the view the hello says the client holds.

    The connection is in the hub while the welcome is read: what the room did meanwhile (a
    game's start, a move) is held and follows the welcome (``Connection.held``)."""
    chat = await ports.rooms.recent_chat(conn.room_id)
    snap = await ports.rooms.snapshot(conn.room_id)
    if snap is not None and not ports.hub.keeps_screen(conn, snap.get("invite_path")):
        return  # retired since its hello
    # a room frame held (room_held is then set) comes after the welcome, and the client ends
    # on the hub's last room frame as every other connection; else the next one is whole
    conn.welcome(outbound.Welcome(conn.seat, snap, conn.identity(), chat))
    await _send_current_state(ports, conn, snap.get("game_id") if snap else None, hello)


async def _hello(ws: WebSocket, max_bytes: int, seconds: float) -> Hello | None:
    """The first frame must be a hello; anything else gets an error and another chance, but
    the deadline stays: a socket that never says hello is closed (slow clients hold nothing)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        try:
            text = await asyncio.wait_for(ws.receive_text(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            await ws.send_text(outbound.Error(None, "hello_timeout", "Say hello first.").encode())
            await ws.close(code=4408)
            return None
        frame = frames.read(text, max_bytes)
        if isinstance(frame, Hello):
            return frame
        if isinstance(frame, Refused) and frame.type is None:
            await ws.send_text(frame.error.encode())  # not even a frame
        else:
            await ws.send_text(
                outbound.Error(None, "hello_first", 'The first frame must be {"type": "hello"}.').encode()
            )


async def _send_current_state(ports: SocketPorts, conn: Connection, game_id: int | None, hello: Hello) -> None:
    if game_id is None or (conn.last_seq and max(conn.last_seq) > game_id):
        return  # no game, or a newer one's state went out with the welcome (held)
    # with several processes this one's cache may lag behind the log: read the new moves first
    games = ports.games
    live = await (games.catch_up(game_id) if games.multi_process else games.get(game_id))
    if game_id in conn.last_seq:
        ports.hub.send_update(conn, live)  # the hub sent its state meanwhile: only what is newer
    elif hello.resume is not None and hello.resume.game_id == game_id:
        ports.hub.resume(conn, live, hello.resume.at)
    else:
        ports.hub.send_state(conn, live)


async def _serve(receive: Receive, ports: SocketPorts, conn: Connection) -> None:
    """The socket's frames after the hello, until it closes: ``receive`` is the server's
    ASGI receive, whose messages are now a frame's text (or bytes) or the disconnect."""
    config = ports.config
    bucket = TokenBucket(config.rate_per_second, config.rate_burst)
    while not conn.closed:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            conn.send_frame(outbound.Error(None, "malformed", "Send text frames with JSON."))
            continue
        frame = frames.read(text, config.max_frame_bytes)
        if not bucket.take():
            conn.send_frame(outbound.Error(frame.ref, "rate_limited", "Too many frames; slow down."))
            continue
        match frame:
            case Refused(error=refusal):
                conn.send_frame(refusal)
            case Act():
                await _act(ports, conn, frame)
            case Hello():
                # a client that saw a gap in seq asks again: send the room and the current state
                snap = await ports.rooms.snapshot(conn.room_id)
                if snap is not None and ports.hub.keeps_screen(conn, snap.get("invite_path")):
                    conn.send_frame(outbound.Room(snap))
                    conn.room_held = None  # not the hub's last room frame: the next one is whole
                    await _send_fresh_state(ports, conn, snap.get("game_id"))
            case Chat(ref=ref, text=said):
                try:
                    await ports.rooms.say_as(conn.room_id, conn.member_id, said)
                except ApiError as e:
                    conn.send_frame(outbound.Error(ref, e.code, e.message))
            case Ping(ref=ref):
                conn.send_frame(outbound.Pong(ref))
            case Unknown(ref=ref, type=kind):
                conn.send_frame(outbound.Error(ref, "unknown_type", f"Unknown frame type {kind!r}."))


async def _send_fresh_state(ports: SocketPorts, conn: Connection, game_id: int | None) -> None:
    if game_id is None:
        return
    live = await ports.games.catch_up(game_id)
    ports.hub.send_state(conn, live)


async def _act(ports: SocketPorts, conn: Connection, frame: Act) -> None:
    ref, action = frame.ref, frame.action
    if conn.seat is None:
        conn.send_frame(outbound.Error(ref, "spectator", "Spectators can watch but not play."))
        return
    # the newest game this connection was sent a state of is the room's current one
    snap_game = max(conn.last_seq) if conn.last_seq else None
    if snap_game is None:
        conn.send_frame(outbound.Error(ref, "no_game", "The game has not started."))
        return
    if action.get("type") == "timeout":
        conn.send_frame(outbound.Error(ref, "system_only", "Only the server applies timeouts."))
        return
    assert conn.member_id is not None
    # the hub folds the ack into the mover's patch frame when it can (Hub.send_update)
    folds = conn.acks_in_patch and ref is not None
    conn.unacked = ref if folds else None
    try:
        outcome = await ports.games.submit_for(snap_game, conn.member_id, action, ref)
    finally:
        folded = folds and conn.unacked is None
        conn.unacked = None
    if outcome.ok:
        if not folded:
            conn.send_frame(outbound.Ack(ref, outcome.seq, outcome.duplicate, conn.patches))
    else:
        conn.send_frame(outbound.Error(ref, outcome.code, outcome.message))
