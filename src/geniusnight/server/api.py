"""The HTTP API (docs/protocol.md). Thin routes: the work is in :mod:`.rooms`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, UploadFile
from pydantic import BaseModel, Field

from ..db import Member, Room
from ..engines import ENGINES
from .deps import RoomServiceDep, ServicesDep, cookie_name, seat_token
from .edge import SeatNumber
from .rooms import ApiError, RoomService, chat_json

router = APIRouter(prefix="/api", tags=["rooms"])
FILE_MAX = 1 << 20


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
    services = request.app.state.services
    response.set_cookie(
        cookie_name(room_id),
        token,
        max_age=60 * 60 * 24 * 30,
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookies,
        path="/",
    )


def _invite_url(request: Request, room: Room) -> str:
    base = request.app.state.services.settings.public_url or str(request.base_url).rstrip("/")
    return f"{base}/join/{room.invite}"


async def _caller(svc: RoomService, request: Request, room_id: str) -> tuple[Room, Member | None]:
    room = await svc.room(room_id)
    return room, await svc.member_by_token(room_id, seat_token(request, room_id))


async def _host(svc: RoomService, request: Request, room_id: str) -> Room:
    room, member = await _caller(svc, request, room_id)
    svc.require_host(room, member)
    return room


@router.get("/games", summary="The games and their options")
async def list_games() -> list[dict[str, Any]]:
    return [engine.info.to_json() for engine in ENGINES.values()]


@router.post("/rooms", response_model=Joined, summary="Create a room; you are its host")
async def create_room(
    body: CreateRoom, request: Request, response: Response, svc: RoomServiceDep, services: ServicesDep
) -> Joined:
    if not services.room_rate.hit(request.client.host if request.client else ""):
        per = services.settings.rooms_per_minute
        raise ApiError(429, "too_many_rooms", f"At most {per} new rooms a minute from one address; wait a moment.")
    room, member, token = await svc.create(body.game, body.options, body.name, body.time_limits)
    await svc.s.commit()
    _set_cookie(request, response, room.id, token)
    return Joined(
        room_id=room.id,
        token=token,
        seat=member.seat,
        member_id=member.id,
        invite_url=_invite_url(request, room),
    )


@router.post("/join/{invite}", response_model=Joined, summary="Join by invite: a seat, or watch")
async def join_room(
    invite: str,
    body: JoinRoom,
    request: Request,
    response: Response,
    svc: RoomServiceDep,
    services: ServicesDep,
) -> Joined:
    room_id = (await svc.room_by_invite(invite)).id
    # a token for this room (cookie or bearer) brings its owner back to the same seat
    room, member, new_token = await svc.join(invite, body.name, seat_token(request, room_id))
    if new_token is None and member.away_by == "host":
        # coming back ends the bot's stand-in the host made while they were away
        room, _ = await svc.seating(room_id, _taking_back(svc, member.id, only_by="host"))
        await services.seats_changed(room_id, room.current_game_id)
    seat = await svc.seat_of(room, member)
    if new_token is not None:
        _set_cookie(request, response, room.id, new_token)
        await services.publish_room(room.id)
    return Joined(room_id=room.id, token=new_token, seat=seat, member_id=member.id)


@router.get("/rooms/{room_id}", summary="The room: seats, status, game")
async def get_room(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    room, member = await _caller(svc, request, room_id)
    snap = await svc.snapshot(room, services.hub.online_members(room_id))
    snap["you"] = await svc.you(room, member) if member is not None else None
    if member is None:
        del snap["invite_path"]  # the invite lets anyone join: only members see it
    return snap


@router.patch("/rooms/{room_id}", summary="Host: change options or time limits")
async def update_room(
    room_id: str, body: UpdateRoom, request: Request, svc: RoomServiceDep, services: ServicesDep
) -> dict[str, Any]:
    room = await _host(svc, request, room_id)
    await svc.update(room, body.options, body.time_limits)
    await svc.s.commit()
    await services.publish_room(room_id)
    return await svc.snapshot(room, services.hub.online_members(room_id))


@router.post("/rooms/{room_id}/options/{name}/file", summary="Host: set a free-form option from a file")
async def upload_option(
    room_id: str, name: str, file: UploadFile, request: Request, svc: RoomServiceDep, services: ServicesDep
) -> dict[str, Any]:
    """A custom word list, question pack or fixed deal, read by the game (e.g. JSON or CSV)."""
    room = await _host(svc, request, room_id)
    data = await file.read(FILE_MAX + 1)
    if len(data) > FILE_MAX:
        raise ApiError(413, "file_too_large", f"Files are at most {FILE_MAX // 1024} KiB.")
    value = svc.import_option(room, name, data, file.filename or "")
    await svc.update(room, {name: value})
    await svc.s.commit()
    await services.publish_room(room_id)
    return {"option": name, "size": len(value) if hasattr(value, "__len__") else None}


@router.post("/rooms/{room_id}/bots", summary="Host: add a bot seat")
async def add_bot(
    room_id: str,
    request: Request,
    svc: RoomServiceDep,
    services: ServicesDep,
    body: AddBot | None = None,
) -> dict[str, Any]:
    await _host(svc, request, room_id)
    body = body or AddBot()
    member = await svc.add_bot(room_id, body.bot, body.name)
    await services.publish_room(room_id)
    return {"seat": member.seat, "name": member.name, "bot": member.bot}


def _taking_back(svc: RoomService, member_id: int, only_by: str | None = None) -> Any:
    """The change that gives ``member_id`` their seat back (only from a stand-in ``only_by``
    made, if given: a race with another change may have ended it already)."""

    async def take_back(room: Room) -> int | None:
        member = await svc.s.get(Member, member_id)
        if member is None or member.kicked:
            raise ApiError(401, "not_member", "You are not in this room.")
        if only_by is not None and member.away_by != only_by:
            return await svc.seat_of(room, member)
        return await svc.back(room, member)

    return take_back


@router.post("/rooms/{room_id}/seats/{seat}/bot", summary="Host: a bot plays a seat while its player is away")
async def bot_stands_in(
    room_id: str, seat: SeatNumber, request: Request, svc: RoomServiceDep, services: ServicesDep
) -> dict[str, Any]:
    """The player keeps their membership and the seat; they take it back by coming back
    (joining again or connecting with their token) or with ``POST .../back``."""
    caller = svc.require_host(*await _caller(svc, request, room_id))

    async def hand_over(room: Room) -> int:
        target = await svc.holder(room, seat)
        if target is None:
            raise ApiError(404, "no_seat", f"Seat {seat} is empty.")
        return await svc.away(room, target, "self" if target.id == caller.id else "host")

    room, _ = await svc.seating(room_id, hand_over)
    await services.seats_changed(room_id, room.current_game_id)
    return {"seat": seat, "away": True}


@router.post("/rooms/{room_id}/away", summary="Let a bot play your seat until you take it back")
async def away(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    _, member = await _caller(svc, request, room_id)
    if member is None:
        raise ApiError(401, "not_member", "You are not in this room.")
    member_id = member.id

    async def hand_over(room: Room) -> int:
        me = await svc.s.get(Member, member_id)
        assert me is not None
        return await svc.away(room, me, "self")

    room, seat = await svc.seating(room_id, hand_over)
    await services.seats_changed(room_id, room.current_game_id)
    return {"seat": seat, "away": True}


@router.post("/rooms/{room_id}/back", summary="Take your seat back from the bot playing it")
async def back(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    _, member = await _caller(svc, request, room_id)
    if member is None:
        raise ApiError(401, "not_member", "You are not in this room.")
    room, seat = await svc.seating(room_id, _taking_back(svc, member.id))
    await services.seats_changed(room_id, room.current_game_id)
    return {"seat": seat, "away": False}


@router.delete("/rooms/{room_id}/seats/{seat}", summary="Host: remove a member (a bot plays a running seat to the end)")
async def kick(
    room_id: str, seat: SeatNumber, request: Request, svc: RoomServiceDep, services: ServicesDep
) -> dict[str, Any]:
    await _host(svc, request, room_id)
    room, target = await svc.kick(room_id, seat)
    await _removed(services, room, target.id, "The host removed you from the room.")
    return {"kicked": seat}


async def _removed(services: Any, room: Room, member_id: int, message: str) -> None:
    """A member left the room: every process's cached game and connections learn who holds
    which seat now, and the member's own sockets are told and closed."""
    await services.publish_seats(room.id, room.current_game_id)
    if room.current_game_id is not None and room.status == "playing":
        services.driver.schedule(await services.games.get(room.current_game_id))
    await services.bus.publish({"kind": "kicked", "room": room.id, "member": member_id, "message": message})
    await services.publish_room(room.id)


@router.post("/rooms/{room_id}/leave", summary="Leave the room for good (a host hands the role on)")
async def leave(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    _, member = await _caller(svc, request, room_id)
    if member is None:
        raise ApiError(401, "not_member", "You are not in this room.")
    room, gone, successor = await svc.leave(room_id, member.id, await services.bus.online(room_id))
    await _removed(services, room, gone.id, "You left the room.")
    if successor is not None:
        await services.host_changed(room_id, successor.id, f"{gone.name} left; {successor.name} is the host now.")
    return {"left": True, "host_member_id": room.host_member_id}


@router.post("/rooms/{room_id}/host", summary="Host: pass the host role to another seat")
async def pass_host(
    room_id: str, body: PassHost, request: Request, svc: RoomServiceDep, services: ServicesDep
) -> dict[str, Any]:
    room = await _host(svc, request, room_id)
    new = await svc.pass_host(room, body.seat)
    await svc.s.commit()
    await services.host_changed(room_id, new.id, f"{new.name} is the host now.")
    return {"host_seat": body.seat}


async def _begin(room_id: str, request: Request, svc: RoomService, services: Any, rematch: bool) -> dict[str, Any]:
    room = await _host(svc, request, room_id)
    game = await (svc.rematch(room) if rematch else svc.start(room))
    await svc.s.commit()
    live = services.games.adopt(game)
    await services.games.start_clock(live)
    await services.publish_seats(room_id, None)  # each connection learns its seat in the new game
    await services.publish_room(room_id)
    await services.publish_state(live)
    services.driver.schedule(live)
    return {"game_id": game.id, "seq": live.seq}


@router.post("/rooms/{room_id}/start", summary="Host: start the game")
async def start(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    return await _begin(room_id, request, svc, services, rematch=False)


@router.post("/rooms/{room_id}/rematch", summary="Host: a new game with the same players")
async def rematch(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    return await _begin(room_id, request, svc, services, rematch=True)


@router.get("/rooms/{room_id}/chat", summary="Recent chat messages")
async def get_chat(room_id: str, request: Request, svc: RoomServiceDep) -> list[dict[str, Any]]:
    room, member = await _caller(svc, request, room_id)
    if member is None:
        raise ApiError(401, "not_member", "You are not in this room.")
    return await svc.recent_chat(room.id)


@router.post("/rooms/{room_id}/chat", summary="Say something in the room")
async def post_chat(
    room_id: str, body: ChatIn, request: Request, svc: RoomServiceDep, services: ServicesDep
) -> dict[str, Any]:
    room, member = await _caller(svc, request, room_id)
    if member is None:
        raise ApiError(401, "not_member", "You are not in this room.")
    services.allow_chat(member.id)
    msg = await svc.chat(room, member, body.text)
    await svc.s.commit()
    payload = chat_json(msg)
    await services.bus.publish({"kind": "chat", "room": room_id, "chat": payload})
    return payload


@router.get("/rooms/{room_id}/view", summary="Your own view of the current game (as over the websocket)")
async def my_view(room_id: str, request: Request, svc: RoomServiceDep, services: ServicesDep) -> dict[str, Any]:
    room, member = await _caller(svc, request, room_id)
    if member is None:
        raise ApiError(401, "not_member", "You are not in this room.")
    if room.current_game_id is None:
        raise ApiError(409, "no_game", "No game has started in this room.")
    live = await services.games.get(room.current_game_id)
    return {"game_id": live.id, "seq": live.seq, "view": live.view(live.seat_of(member.id))}
