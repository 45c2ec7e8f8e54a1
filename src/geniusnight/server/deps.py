"""FastAPI dependencies: the process's services and room use cases, a DB session, the
caller's seat token.

Every dependency is ``async def``, even one that awaits nothing: FastAPI runs a plain
``def`` dependency in its thread pool, a trip to a worker thread and back through the
event loop on every request, which on a busy server is a wait of a whole loop iteration."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from .rooms.party import PartyNight
from .rooms.service import RoomService
from .rooms.usecases import RoomUseCases

if TYPE_CHECKING:
    from .services import Services

COOKIE_PREFIX = "gn_seat_"


def cookie_name(room_id: str) -> str:
    return COOKIE_PREFIX + room_id


def get_services(request: Request) -> Services:
    return request.app.state.services


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with get_services(request).db.sessions() as s:
        yield s


SessionDep = Annotated[AsyncSession, Depends(get_session)]


async def get_room_service(request: Request, session: SessionDep) -> RoomService:
    settings = get_services(request).settings
    return RoomService(session, settings.secret_key, max_members=settings.room_members_max)


RoomServiceDep = Annotated[RoomService, Depends(get_room_service)]


async def get_rooms(request: Request) -> RoomUseCases:
    return get_services(request).rooms


RoomsDep = Annotated[RoomUseCases, Depends(get_rooms)]


async def get_party(request: Request) -> PartyNight:
    return get_services(request).party


PartyDep = Annotated[PartyNight, Depends(get_party)]


def bearer_token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def seat_token(request: Request, room_id: str) -> str | None:
    """A seat token from ``Authorization: Bearer`` or the room's HttpOnly cookie."""
    return bearer_token(request) or request.cookies.get(cookie_name(room_id))
