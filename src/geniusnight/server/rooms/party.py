"""The living-room party night: joining by a room code, the invite as a QR code, the shared
screen, and "my rooms" (docs/product.md, "Party night"; the API in docs/protocol.md).

- A room's **code** (:mod:`.codes`) admits people while its host lets it (``code_open``, on
  from the start, through the lobby, the game and the rematches alike, so that a friend who
  comes late can still join and watch). Wrong codes are counted per client address.
- The **QR code** encodes the invite link, a secret of the room: only its members and its
  shared screen get it.
- The **shared screen** (a TV, a laptop everyone sees) connects with the room's screen key,
  which only the host is given. It holds no seat and no name, is no member, and gets exactly
  what a spectator gets. A new invite link retires the key: the screens opened with it are
  closed, and the host's page gives the new link.
- **My rooms** are the rooms whose seat cookies (``gn_seat_<room_id>``, HttpOnly) the browser
  sends: the browser is the identity, as it is for a seat; no account.
"""

from __future__ import annotations

import hashlib
import hmac
import io
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import segno
from sqlalchemy import select

from ...storage.database import Database
from ...storage.models import Member, Room, RoomStatus
from ..errors import ApiError
from ..limits import RateLimit
from ..play.games import GameService
from .codes import read_code
from .publisher import RoomPublisher
from .refusals import bad_screen_key, not_host, not_member
from .service import RoomService, RoomServices
from .statements import invite_path
from .usecases import RoomUseCases

MY_ROOMS_MAX = 30  # seat cookies read for "my rooms" (a browser in more rooms sees 30 of them)
SCREEN_KEY_CHARS = 32  # 128 bits, as hex


def screen_key(secret_key: str, room_id: str, invite: str) -> str:
    """The key that lets a shared screen watch ``room_id`` while ``invite`` is its invite:
    derived from the server's secret, so it is stored nowhere and is the same every time the
    host asks for it, until a new invite link retires it with the old link."""
    mac = hmac.new(secret_key.encode(), f"screen:{room_id}:{invite}".encode(), hashlib.sha256)
    return mac.hexdigest()[:SCREEN_KEY_CHARS]


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in SVG, black on white with a quiet zone, sized by its viewBox
    (it fills whatever box the page gives it)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=1, border=2, dark="#000", light="#fff", xmldecl=False, omitsize=True
    )
    return out.getvalue()


class PartyNight:
    def __init__(
        self,
        db: Database,
        games: GameService,
        rooms: RoomUseCases,
        events: RoomPublisher,
        room_services: RoomServices,
        *,
        code_rate: RateLimit,
    ) -> None:
        self.room_services = room_services  # screen keys derive from its secret, as seat tokens' hashes do
        self.db = db
        self.games = games
        self.rooms = rooms  # the room's snapshot, as its members see it
        self.events = events
        self.code_rate = code_rate  # wrong room codes, by address

    @asynccontextmanager
    async def _rooms(self) -> AsyncIterator[RoomService]:
        async with self.db.sessions() as s:
            yield self.room_services(s)

    # --- the room code ----------------------------------------------------------------------

    async def find_by_code(self, address: str, typed: str) -> tuple[Room, dict[str, Any]]:
        """The room a typed code names, with what a newcomer may know of it (the join
        screen's summary). Refused: 429 ``too_many_code_tries`` after
        ``GENIUSNIGHT_CODE_MISSES_PER_MINUTE`` wrong codes from this address in the last
        minute (every code is refused then, the right one too); 404 ``no_such_code`` (counted
        as a miss); 403 ``code_closed`` while the host does not let the code admit anyone."""
        if await self.code_rate.full(address):
            per = self.code_rate.limit
            raise ApiError(429, "too_many_code_tries", f"{per} wrong codes in a minute; wait a minute and try again.")
        code = read_code(typed)
        async with self._rooms() as svc:
            room = await svc.room_by_code(code) if code is not None else None
            if room is None:
                await self.code_rate.hit(address)
                raise ApiError(404, "no_such_code", "No room has that code. Check it with the host.")
            if not room.code_open:
                raise ApiError(403, "code_closed", "The host has closed joining by code; ask them for the link.")
            return room, await svc.summary(room)

    async def set_code_open(self, room_id: str, token: str | None, is_open: bool) -> dict[str, Any]:
        """The host lets the room's code admit people, or stops it."""
        async with self._rooms() as svc:
            caller = await svc.member_by_token(room_id, token)

            async def switch(room: Room) -> None:
                svc.require_host(room, caller)  # under the room's lock, as every change of it
                room.code_open = is_open

            room, _ = await svc.seating(room_id, switch)
            answer = {"code": room.code, "code_open": room.code_open}
        await self.events.publish_room(room_id)
        return answer

    # --- the invite's QR code and the shared screen ----------------------------------------------

    def _screen_key(self, room: Room) -> str:
        return screen_key(self.room_services.secret_key, room.id, room.invite)

    def _is_screen(self, room: Room, key: str | None) -> bool:
        return key is not None and hmac.compare_digest(key, self._screen_key(room))

    async def invite_qr(self, room_id: str, token: str | None, base_url: str) -> bytes:
        """The invite link as a QR code, for a member or the room's screen (``token``: a seat
        token or the screen key)."""
        async with self._rooms() as svc:
            room = await svc.room(room_id)
            if not self._is_screen(room, token) and await svc.member_by_token(room_id, token) is None:
                raise not_member()
        return qr_svg(base_url + invite_path(room.invite))

    async def screen_path(self, room_id: str, token: str | None) -> str:
        """The shared screen's link, for the host only: the key travels in the fragment, which
        browsers never send to a server (no access log holds it)."""
        async with self._rooms() as svc:
            room = await svc.room(room_id)
            member = await svc.member_by_token(room_id, token)
            if member is None:
                raise not_member()
            if member.id != room.host_member_id:
                raise not_host()
        return f"/r/{room_id}/screen#{self._screen_key(room)}"

    async def admit_screen(self, room_id: str, key: str | None) -> str:
        """A shared screen opens its socket: 404 for a room that is gone, 401 ``bad_screen_key``
        (a wrong key, or one a new invite link retired). Returns the room's invite path as its
        snapshot names it: the screen's key holds while that stays the room's."""
        async with self._rooms() as svc:
            room = await svc.room(room_id)
        if not self._is_screen(room, key):
            raise bad_screen_key()
        return invite_path(room.invite)

    # --- my rooms ---------------------------------------------------------------------------

    async def my_rooms(self, tokens: Mapping[str, str]) -> tuple[list[dict[str, Any]], list[str]]:
        """The rooms of ``tokens`` (room id -> seat token, from the browser's seat cookies):
        for each, the game, the players, its status, whose turn it is, and the caller's seat.
        Also returns the room ids whose token no longer admits anyone (the member left or was
        removed, the room is closed or gone), so that their cookies can be dropped."""
        wanted = dict(list(tokens.items())[:MY_ROOMS_MAX])
        # a token counts only for the room its cookie names (one token under two names, too)
        by_hash: dict[str, set[str]] = {}
        for room_id, token in wanted.items():
            by_hash.setdefault(self.room_services.token_hash(token), set()).add(room_id)
        async with self._rooms() as svc:
            rows = await svc.s.execute(
                select(Member, Room)
                .join(Room, Room.id == Member.room_id)
                .where(Member.token_hash.in_(list(by_hash)), Member.kicked.is_(False))
            )
            found = [
                (member, room)
                for member, room in rows.tuples()
                if room.id in by_hash.get(member.token_hash or "", ()) and room.status != RoomStatus.CLOSED
            ]
            seats = {room.id: await svc.seat_of(room, member) for member, room in found}
        mine = []
        for member, room in found:
            host, away = member.id == room.host_member_id, member.away_by is not None
            entry = await self._my_room(room, host, seats[room.id], away)
            if entry is not None:
                mine.append(entry)
        # your turn first, then the games under way, the lobbies, the finished games
        order = {"playing": 1, "lobby": 2, "finished": 3}
        mine.sort(key=lambda r: (not r["your_turn"], order.get(r["status"], 4), r["title"]))
        stale = sorted(set(wanted) - {r["room_id"] for r in mine})
        return mine, stale

    async def _my_room(self, room: Room, host: bool, seat: int | None, away: bool) -> dict[str, Any] | None:
        snap = await self.rooms.snapshot(room.id)
        if snap is None:
            return None
        names = {s["seat"]: s["name"] for s in snap["seats"]}
        turn: list[int] = []
        if snap["status"] == RoomStatus.PLAYING and snap["game_id"] is not None:
            live = await self.games.get(snap["game_id"])
            view = live.view(None)  # the public view: whose turn it is, nothing of anyone's hand
            if not live.over and view.get("phase") != "results":
                turn = [s for s in view.get("to_act", []) if isinstance(s, int)]
        return {
            "room_id": room.id,
            "game": snap["game"],
            "title": snap["title"],
            "status": snap["status"],
            "players": [s["name"] for s in snap["seats"]],
            "seat": seat,
            "host": host,
            "turn": [names.get(s, f"Seat {s + 1}") for s in turn],
            "your_turn": seat is not None and not away and seat in turn,  # not while a bot plays it
        }
