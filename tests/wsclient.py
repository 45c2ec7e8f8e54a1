"""A small websocket client for tests: speaks the protocol of docs/protocol.md."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import httpx
import websockets

from geniusnight.server.play.outbound import expand
from geniusnight.server.play.patches import apply_patch
from support import TLS

_refs = itertools.count(1)


class Player:
    """One connection. With ``patches`` it says so in ``hello`` and applies each ``patch``
    frame to the view it holds, as the browser does; ``state`` is then always the whole frame
    as the server would send it in full, and ``stale`` counts patches that did not fit. It
    applies each ``room_patch`` to the room it holds too (``room``), and :meth:`recv` gives it
    as the whole ``room`` frame it makes (``frames`` keeps what came).
    ``headers`` go with the websocket handshake (a ``lang`` cookie, as a browser sends it)."""

    def __init__(
        self,
        ws_base: str,
        room_id: str,
        token: str | None,
        patches: bool | str = False,  # the hello's patches: true, or "compact"
        headers: dict[str, str] | None = None,
        ack_in_patch: bool = False,  # the hello's ack_in_patch: a move's ack may come in its patch
    ) -> None:
        self.url = f"{ws_base}/ws/{room_id}"
        self.token = token
        self.patches = patches
        self.ack_in_patch = ack_in_patch
        self.unread: list[dict[str, Any]] = []  # an ack that came in a patch frame, read next
        self.headers = headers or {}
        self.ws: Any = None
        self.welcome: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.frames: list[dict[str, Any]] = []
        self.stale = 0
        self.room: dict[str, Any] | None = None  # the room of the last welcome, room or room_patch

    async def connect(self, seq: int | None = None, resume: bool = False) -> Player:
        """Open and say hello. With ``resume``, the hello names the view held (a reconnect):
        the server then sends only what was missed, so no ``state`` is awaited here."""
        self.ws = await websockets.connect(self.url, max_size=1 << 22, additional_headers=self.headers)
        hello: dict[str, Any] = {"type": "hello", "token": self.token, "seq": seq}
        if self.patches:
            hello["patches"] = self.patches
        if self.ack_in_patch:
            hello["ack_in_patch"] = True
        if resume:
            hello.update(game_id=self.state["game_id"], seq=self.state["seq"], seat=self.state["seat"])
        await self.ws.send(json.dumps(hello))
        self.welcome = await self.expect("welcome")
        self.room = self.welcome["room"]
        if self.welcome["room"]["game_id"] is not None and not resume:
            self.state = await self.expect("state")
        return self

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        if self.unread:
            return self.unread.pop(0)
        # a compact frame (an array) as its object form
        frame = expand(json.loads(await asyncio.wait_for(self.ws.recv(), timeout)))
        self.frames.append(frame)
        if frame["type"] == "patch" and "ack" in frame:  # the mover's patch, then its ack
            ack = {"type": "ack", "ref": frame["ack"], "seq": frame["seq"], "duplicate": False}
            self.frames.append(ack)
            self.unread.append(ack)
        if frame["type"] == "state":
            self.state = frame
        elif frame["type"] == "patch":
            held = self.state
            if held.get("game_id") == frame["game_id"] and held.get("seq") == frame["base"]:
                view = apply_patch(held["view"], frame["ops"])
                # a patch names a deadline only when there is one, and keeps the held seat
                self.state = {
                    "type": "state",
                    "game_id": frame["game_id"],
                    "seq": frame["seq"],
                    "deadline": frame.get("deadline"),
                    "seat": held["seat"],
                    "view": view,
                }
            else:
                self.stale += 1
        elif frame["type"] == "room":
            self.room = frame["room"]
        elif frame["type"] == "room_patch":
            assert self.room is not None, "a room_patch before any whole room"
            self.room = apply_patch(self.room, frame["ops"])
            return {"type": "room", "room": self.room}
        return frame

    async def expect(self, kind: str, timeout: float = 5, **match: Any) -> dict[str, Any]:
        while True:
            frame = await self.recv(timeout)
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def send(self, payload: Any) -> None:
        await self.ws.send(payload if isinstance(payload, str) else json.dumps(payload))

    async def act(self, action: dict[str, Any], ref: str | None = None) -> dict[str, Any]:
        """Send a move; return its ack or error frame."""
        ref = ref or f"r{next(_refs)}"
        await self.send({"type": "act", "ref": ref, "action": action})
        while True:
            frame = await self.recv()
            if frame["type"] in ("ack", "error") and frame.get("ref") == ref:
                return frame

    async def wait_state(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        """Wait for a state frame whose view satisfies ``predicate``."""
        if self.state and predicate(self.state["view"]):
            return self.state
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            frame = await self.recv(max(0.05, end - loop.time()))
            if frame["type"] in ("state", "patch") and predicate(self.state["view"]):
                return self.state

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def room_frames(player: Player, seconds: float) -> list[dict[str, Any]]:
    """The ``room`` frames ``player`` gets within ``seconds`` (a room_patch as the whole room
    frame it makes)."""
    loop = asyncio.get_running_loop()
    end, frames = loop.time() + seconds, []
    while (left := end - loop.time()) > 0:
        try:
            frame = await player.recv(timeout=left)
        except TimeoutError:
            break
        if frame["type"] == "room":
            frames.append(frame)
    return frames


async def make_room(
    base: str, game: str = "count21", options: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, str, str]:
    """Create a room; return (room_id, host token, invite token)."""
    async with httpx.AsyncClient(base_url=base, verify=TLS) as c:
        r = await c.post("/api/rooms", json={"game": game, "options": options or {}, "name": "Host", **extra})
        r.raise_for_status()
        body = r.json()
        return body["room_id"], body["token"], body["invite_url"].rsplit("/", 1)[-1]


async def join(base: str, invite: str, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, verify=TLS) as c:
        r = await c.post(f"/api/join/{invite}", json={"name": name})
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]


async def host_post(base: str, room_id: str, token: str, path: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base, verify=TLS) as c:
        return await c.post(f"/api/rooms/{room_id}{path}", json=body, headers={"Authorization": f"Bearer {token}"})
