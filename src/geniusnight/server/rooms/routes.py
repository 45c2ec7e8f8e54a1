"""The HTTP API (docs/protocol.md). Thin routes: each parses the request, calls one use case
(:mod:`.usecases`) and shapes its answer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, UploadFile
from pydantic import BaseModel, Field

from ...engines import ENGINES
from ..deps import RoomsDep, cookie_name, get_services, seat_token
from ..edge import SeatNumber
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


def _set_cookie(request: Request, response: Response, room_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(room_id),
        token,
        max_age=60 * 60 * 24 * 30,
        httponly=True,
        samesite="lax",
        secure=get_services(request).settings.secure_cookies,
        path="/",
    )


def _invite_url(request: Request, invite: str) -> str:
    base = get_services(request).settings.public_url or str(request.base_url).rstrip("/")
    return f"{base}/join/{invite}"


@router.get("/games", summary="The games and their options")
async def list_games() -> list[dict[str, Any]]:
    return [engine.info.to_json() for engine in ENGINES.values()]


@router.post("/rooms", response_model=Joined, summary="Create a room; you are its host")
async def create_room(body: CreateRoom, request: Request, response: Response, rooms: RoomsDep) -> Joined:
    address = request.client.host if request.client else ""
    joined = await rooms.create(address, body.game, body.options, body.name, body.time_limits)
    assert joined.token is not None
    _set_cookie(request, response, joined.room_id, joined.token)
    return Joined(
        room_id=joined.room_id,
        token=joined.token,
        seat=joined.seat,
        member_id=joined.member_id,
        invite_url=_invite_url(request, joined.invite),
    )


@router.post("/join/{invite}", response_model=Joined, summary="Join by invite: a seat, or watch")
async def join_room(invite: str, body: JoinRoom, request: Request, response: Response, rooms: RoomsDep) -> Joined:
    # a token for this room (cookie or bearer) brings its owner back to the same seat
    joined = await rooms.join(invite, body.name, lambda room_id: seat_token(request, room_id))
    if joined.token is not None:
        _set_cookie(request, response, joined.room_id, joined.token)
    return Joined(room_id=joined.room_id, token=joined.token, seat=joined.seat, member_id=joined.member_id)


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


@router.post("/rooms/{room_id}/leave", summary="Leave the room for good (a host hands the role on)")
async def leave(room_id: str, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    host = await rooms.leave(room_id, seat_token(request, room_id))
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
