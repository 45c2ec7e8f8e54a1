"""The admin API (docs/admin.md): thin routes over :mod:`.auth` and :mod:`.service`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ...settings import Settings
from ..deps import AdminServiceDep, DatabaseDep, SettingsDep
from ..edge import INT64_MAX, GameId, LogSeat, LogType, Offset
from .auth import ADMIN_COOKIE, SESSION_SECONDS, AdminDep, log_in, log_out

api = APIRouter(prefix="/api/admin", tags=["admin"])


class Login(BaseModel):
    token: str = Field(description="The admin token (GENIUSNIGHT_ADMIN_TOKEN)")


class CloseRoom(BaseModel):
    message: str = Field(default="An administrator closed this room.", max_length=300)


def _secure(request: Request, settings: Settings) -> bool:
    return settings.secure_cookies or request.url.scheme == "https"


@api.post("/login", summary="Log in with the admin token; sets the session cookie")
async def login(body: Login, request: Request, response: Response, settings: SettingsDep) -> dict[str, Any]:
    cookie = await log_in(request, body.token)
    response.set_cookie(
        ADMIN_COOKIE,
        cookie,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        secure=_secure(request, settings),
        path="/",
    )
    return {"ok": True, "expires_in": SESSION_SECONDS}


@api.post("/logout", summary="Log out: ends the session on the server and clears the cookie")
async def logout(request: Request, response: Response, settings: SettingsDep, db: DatabaseDep) -> dict[str, Any]:
    await log_out(settings, db, request.cookies.get(ADMIN_COOKIE))
    secure = _secure(request, settings)
    response.delete_cookie(ADMIN_COOKIE, path="/", httponly=True, samesite="strict", secure=secure)
    return {"ok": True}


@api.get("/session", summary="Whether this request is authenticated as admin")
async def session_info(_admin: AdminDep) -> dict[str, Any]:
    return {"admin": True}


@api.get("/rooms", summary="Rooms, newest first, with filters and search")
async def list_rooms(
    _admin: AdminDep,
    admin: AdminServiceDep,
    status: Annotated[
        Literal["live", "playing", "lobby", "finished", "closed"] | None,
        Query(description="live (= playing), lobby, finished or closed"),
    ] = None,
    game: Annotated[str | None, Query(description="A game id, e.g. ingenious")] = None,
    q: Annotated[str | None, Query(max_length=64, description="Room id or player name (substring)")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    return await admin.rooms(status, game, q, limit, offset)


@api.get("/rooms/{room_id}", summary="A room: seats, members, this process's connections, games")
async def room_detail(room_id: str, _admin: AdminDep, admin: AdminServiceDep) -> dict[str, Any]:
    return await admin.room(room_id)


@api.post("/rooms/{room_id}/close", summary="Close a room: its players are told; the log stays")
async def close_room(
    room_id: str, _admin: AdminDep, admin: AdminServiceDep, body: CloseRoom | None = None
) -> dict[str, Any]:
    already = await admin.close(room_id, (body or CloseRoom()).message)
    return {"room": room_id, "status": "closed", "already_closed": already}


@api.get("/games/{game_id}/log", summary="A game's full log and its refused actions")
async def admin_game_log(
    game_id: GameId,
    _admin: AdminDep,
    admin: AdminServiceDep,
    seat: LogSeat = None,
    type: LogType = None,
) -> dict[str, Any]:
    return await admin.game_log(game_id, seat, type)


@api.get("/games/{game_id}/export", summary="Export a whole game as JSON (a file download)")
async def admin_export(game_id: GameId, _admin: AdminDep, admin: AdminServiceDep) -> JSONResponse:
    data = await admin.export(game_id)
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="game-{game_id}.json"'})


@api.get("/games/{game_id}/state", summary="The full state at seq k, with every seat's and the spectator's view")
async def admin_state(
    game_id: GameId,
    _admin: AdminDep,
    admin: AdminServiceDep,
    seq: Annotated[int | None, Query(ge=0, le=INT64_MAX, description="Moves replayed; default the last")] = None,
) -> dict[str, Any]:
    return await admin.state(game_id, seq)
