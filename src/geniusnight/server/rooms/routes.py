"""The HTTP API (docs/protocol.md). Thin routes: each parses the request, calls one use case
(:mod:`.usecases`) and shapes its answer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, UploadFile
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ... import i18n
from ...engines import ENGINES
from ...engines.base import LANGUAGE_OPTION
from ...settings import Settings
from ..deps import COOKIE_PREFIX, PartyDep, RoomsDep, SettingsDep, cookie_name, seat_token
from ..edge import MemberId, SeatNumber
from .statements import invite_path
from .usecases import FILE_MAX

router = APIRouter(prefix="/api", tags=["rooms"])


class CreateRoom(BaseModel):
    game: str = Field(examples=["ingenious"])
    options: dict[str, Any] = Field(default_factory=dict)
    name: str = Field(description="Your name, at most 32 characters", examples=["Ada"])
    time_limits: dict[str, int] | None = Field(
        default=None, description="Seconds per phase (see the game's timed_phases)"
    )


class Joined(BaseModel):
    room_id: str
    token: str | None = Field(description="Your seat token (null if you already had one)")
    seat: int | None = Field(description="Your seat, or null for a spectator")
    member_id: int
    invite_url: str | None = None


class JoinRoom(BaseModel):
    name: str = Field(examples=["Grace"])


class UpdateRoom(BaseModel):
    options: dict[str, Any] | None = None
    time_limits: dict[str, int] | None = None


class AddBot(BaseModel):
    bot: str | None = Field(default=None, description="A bot id from the game's info; default: its default_bot")
    name: str | None = None


class PassHost(BaseModel):
    seat: int


class ChatIn(BaseModel):
    text: str


class MuteSwitch(BaseModel):
    muted: bool = Field(description="Whether the member's chat is refused")


class LockSwitch(BaseModel):
    locked: bool = Field(description="Whether the room refuses newcomers")


class CodeSwitch(BaseModel):
    open: bool = Field(description="Whether the room's code lets people join")


def _set_cookie(settings: Settings, response: Response, room_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(room_id),
        token,
        max_age=60 * 60 * 24 * 30,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def _base_url(request: Request, settings: Settings) -> str:
    return settings.public_url or str(request.base_url).rstrip("/")


def _invite_url(request: Request, settings: Settings, invite: str) -> str:
    return _base_url(request, settings) + invite_path(invite)


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.get("/games", summary="The games and their options")
async def list_games() -> list[dict[str, Any]]:
    return [engine.info.to_json() for engine in ENGINES.values()]


def _cards_in_page_language(game: str, options: dict[str, Any], lang: str) -> dict[str, Any]:
    """A new room's language of the cards, unless the host names one: the host's page language
    where the game has content in it (docs/i18n.md, "Game content in several languages")."""
    engine = ENGINES.get(game)
    if engine is None or LANGUAGE_OPTION in options:
        return options
    spec = next((o for o in engine.info.options if o.name == LANGUAGE_OPTION), None)
    return {**options, LANGUAGE_OPTION: lang} if spec is not None and lang in spec.choices else options


@router.post("/rooms", response_model=Joined, summary="Create a room; you are its host")
async def create_room(
    body: CreateRoom, request: Request, response: Response, rooms: RoomsDep, settings: SettingsDep
) -> Joined:
    options = _cards_in_page_language(body.game, body.options, i18n.choose(request))
    joined = await rooms.create(_address(request), body.game, options, body.name, body.time_limits)
    assert joined.token is not None
    _set_cookie(settings, response, joined.room_id, joined.token)
    return Joined(
        room_id=joined.room_id,
        token=joined.token,
        seat=joined.seat,
        member_id=joined.member_id,
        invite_url=_invite_url(request, settings, joined.invite),
    )


@router.post("/join/{invite}", response_model=Joined, summary="Join by invite: a seat, or watch")
async def join_room(
    invite: str, body: JoinRoom, request: Request, response: Response, rooms: RoomsDep, settings: SettingsDep
) -> Joined:
    # a token for this room (cookie or bearer) brings its owner back to the same seat
    joined = await rooms.join(invite, body.name, lambda room_id: seat_token(request, room_id))
    if joined.token is not None:
        _set_cookie(settings, response, joined.room_id, joined.token)
    return Joined(room_id=joined.room_id, token=joined.token, seat=joined.seat, member_id=joined.member_id)


@router.get("/codes/{code}", summary="The room a code names: game, host, players (as the join screen)")
async def find_by_code(code: str, request: Request, party: PartyDep) -> dict[str, Any]:
    _, summary = await party.find_by_code(_address(request), code)
    return summary


@router.post("/codes/{code}/join", response_model=Joined, summary="Join by the room's code: a seat, or watch")
async def join_by_code(
    code: str,
    body: JoinRoom,
    request: Request,
    response: Response,
    party: PartyDep,
    rooms: RoomsDep,
    settings: SettingsDep,
) -> Joined:
    room, _ = await party.find_by_code(_address(request), code)
    return await join_room(room.invite, body, request, response, rooms, settings)


@router.post("/rooms/{room_id}/code", summary="Host: let the room's code admit people, or stop it")
async def switch_code(room_id: str, body: CodeSwitch, request: Request, party: PartyDep) -> dict[str, Any]:
    return await party.set_code_open(room_id, seat_token(request, room_id), body.open)


@router.get("/rooms/{room_id}/qr.svg", summary="The invite link as a QR code (members and the room's screen)")
async def invite_qr(room_id: str, request: Request, party: PartyDep, settings: SettingsDep) -> Response:
    svg = await party.invite_qr(room_id, seat_token(request, room_id), _base_url(request, settings))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, no-store"})


@router.get("/rooms/{room_id}/screen", summary="Host: the shared screen's link")
async def screen_link(room_id: str, request: Request, party: PartyDep) -> dict[str, str]:
    return {"screen_path": await party.screen_path(room_id, seat_token(request, room_id))}


@router.get("/my-rooms", summary="The rooms this browser holds a seat cookie of")
async def my_rooms(request: Request, party: PartyDep, settings: SettingsDep) -> JSONResponse:
    """Read from the browser's HttpOnly seat cookies; the cookies of rooms it is no longer in
    (left, removed, closed) are dropped in the answer."""
    tokens = {
        name.removeprefix(COOKIE_PREFIX): token
        for name, token in request.cookies.items()
        if name.startswith(COOKIE_PREFIX) and token
    }
    rooms, stale = await party.my_rooms(tokens)
    response = JSONResponse({"rooms": rooms}, headers={"Cache-Control": "private, no-store"})
    for room_id in stale:
        _drop_cookie(settings, response, room_id)
    return response


def _drop_cookie(settings: Settings, response: Response, room_id: str) -> None:
    response.delete_cookie(
        cookie_name(room_id),
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


@router.get("/rooms/{room_id}", summary="The room: seats, status, game")
async def get_room(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    return await rooms.room_for(room_id, seat_token(request, room_id))


@router.patch("/rooms/{room_id}", summary="Host: change options or time limits")
async def update_room(room_id: str, body: UpdateRoom, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    return await rooms.update(room_id, seat_token(request, room_id), body.options, body.time_limits)


@router.post("/rooms/{room_id}/options/{name}/file", summary="Host: set a free-form option from a file")
async def upload_option(room_id: str, name: str, file: UploadFile, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    """A custom word list, question pack or fixed deal, read by the game (e.g. JSON or CSV)."""
    data = await file.read(FILE_MAX + 1)  # one byte more tells a file too large
    value = await rooms.upload_option(room_id, seat_token(request, room_id), name, data, file.filename or "")
    return {"option": name, "size": len(value) if hasattr(value, "__len__") else None}


@router.post("/rooms/{room_id}/bots", summary="Host: add a bot seat")
async def add_bot(room_id: str, request: Request, rooms: RoomsDep, body: AddBot | None = None) -> dict[str, Any]:
    body = body or AddBot()
    member = await rooms.add_bot(room_id, seat_token(request, room_id), body.bot, body.name)
    return {"seat": member.seat, "name": member.name, "bot": member.bot}


@router.post("/rooms/{room_id}/seats/{seat}/bot", summary="Host: a bot plays a seat while its player is away")
async def bot_stands_in(room_id: str, seat: SeatNumber, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    """The player keeps their membership and the seat; they take it back by coming back
    (joining again or connecting with their token) or with ``POST .../back``."""
    await rooms.bot_stands_in(room_id, seat_token(request, room_id), seat)
    return {"seat": seat, "away": True}


@router.post("/rooms/{room_id}/away", summary="Let a bot play your seat until you take it back")
async def away(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    return {"seat": await rooms.away(room_id, seat_token(request, room_id)), "away": True}


@router.post("/rooms/{room_id}/back", summary="Take your seat back from the bot playing it")
async def back(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    return {"seat": await rooms.back(room_id, seat_token(request, room_id)), "away": False}


@router.delete("/rooms/{room_id}/seats/{seat}", summary="Host: remove a member (a bot plays a running seat to the end)")
async def kick(room_id: str, seat: SeatNumber, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    await rooms.kick(room_id, seat_token(request, room_id), seat)
    return {"kicked": seat}


@router.get("/rooms/{room_id}/members", summary="Host: everyone in the room, spectators included")
async def list_members(room_id: str, request: Request, rooms: RoomsDep) -> list[dict[str, Any]]:
    return await rooms.members(room_id, seat_token(request, room_id))


@router.delete("/rooms/{room_id}/members/{member_id}", summary="Host: remove a member (a spectator too)")
async def remove_member(room_id: str, member_id: MemberId, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    await rooms.remove_member(room_id, seat_token(request, room_id), member_id)
    return {"removed": member_id}


@router.post("/rooms/{room_id}/members/{member_id}/mute", summary="Host: mute a member's chat, or unmute it")
async def mute_member(
    room_id: str, member_id: MemberId, body: MuteSwitch, request: Request, rooms: RoomsDep
) -> dict[str, Any]:
    await rooms.set_muted(room_id, seat_token(request, room_id), member_id, body.muted)
    return {"member_id": member_id, "muted": body.muted}


@router.post("/rooms/{room_id}/lock", summary="Host: lock the room against newcomers, or unlock it")
async def lock_room(room_id: str, body: LockSwitch, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    return await rooms.set_locked(room_id, seat_token(request, room_id), body.locked)


@router.post("/rooms/{room_id}/invite", summary="Host: a new invite link and room code; the old ones stop working")
async def new_invite(room_id: str, request: Request, rooms: RoomsDep, settings: SettingsDep) -> dict[str, Any]:
    invite, code = await rooms.new_invite(room_id, seat_token(request, room_id))
    return {"invite_path": invite_path(invite), "invite_url": _invite_url(request, settings, invite), "code": code}


@router.post("/rooms/{room_id}/leave", summary="Leave the room for good (a host hands the role on)")
async def leave(
    room_id: str, request: Request, response: Response, rooms: RoomsDep, settings: SettingsDep
) -> dict[str, Any]:
    host = await rooms.leave(room_id, seat_token(request, room_id))
    _drop_cookie(settings, response, room_id)  # the token works no more: "my rooms" forgets it
    return {"left": True, "host_member_id": host}


@router.post("/rooms/{room_id}/host", summary="Host: pass the host role to another seat")
async def pass_host(room_id: str, body: PassHost, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    await rooms.pass_host(room_id, seat_token(request, room_id), body.seat)
    return {"host_seat": body.seat}


@router.post("/rooms/{room_id}/start", summary="Host: start the game")
async def start(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    live = await rooms.begin(room_id, seat_token(request, room_id), rematch=False)
    return {"game_id": live.id, "seq": live.seq}


@router.post("/rooms/{room_id}/rematch", summary="Host: a new game with the same players")
async def rematch(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    live = await rooms.begin(room_id, seat_token(request, room_id), rematch=True)
    return {"game_id": live.id, "seq": live.seq}


@router.get("/rooms/{room_id}/chat", summary="Recent chat messages")
async def get_chat(room_id: str, request: Request, rooms: RoomsDep) -> list[dict[str, Any]]:
    return await rooms.chat_history(room_id, seat_token(request, room_id))


@router.post("/rooms/{room_id}/chat", summary="Say something in the room")
async def post_chat(room_id: str, body: ChatIn, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    return await rooms.say(room_id, seat_token(request, room_id), body.text)


@router.get("/rooms/{room_id}/view", summary="Your own view of the current game (as over the websocket)")
async def my_view(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    live, seat = await rooms.view(room_id, seat_token(request, room_id))
    return {"game_id": live.id, "seq": live.seq, "view": live.view(seat)}
