"""FastAPI dependencies: the objects the composition root (``compose.py``) built, read from
``app.state`` under their names there; a DB session; the caller's seat token.

Every dependency is ``async def``, even one that awaits nothing: FastAPI runs a plain
``def`` dependency in its thread pool, a trip to a worker thread and back through the
event loop on every request, which on a busy server is a wait of a whole loop iteration."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from ..settings import Settings
from ..storage.database import Database
from .admin.service import AdminService
from .lifecycle import Lifecycle
from .limits import RateLimit
from .play.bus import Bus
from .rooms.party import PartyNight
from .rooms.service import RoomService, RoomServices
from .rooms.usecases import RoomUseCases

COOKIE_PREFIX = "gn_seat_"


def cookie_name(room_id: str) -> str:
    return COOKIE_PREFIX + room_id


# --- the root's objects (each read by a function that code outside a route can call too) ---


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def database_of(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def admin_rate_of(request: Request) -> RateLimit:
    """Wrong admin tokens, by address."""
    limit: RateLimit = request.app.state.admin_rate
    return limit


async def get_settings(request: Request) -> Settings:
    return settings_of(request)


SettingsDep = Annotated[Settings, Depends(get_settings)]


async def get_database(request: Request) -> Database:
    return database_of(request)


DatabaseDep = Annotated[Database, Depends(get_database)]


async def get_bus(request: Request) -> Bus:
    bus: Bus = request.app.state.bus
    return bus


BusDep = Annotated[Bus, Depends(get_bus)]


async def get_lifecycle(request: Request) -> Lifecycle:
    lifecycle: Lifecycle = request.app.state.lifecycle
    return lifecycle


LifecycleDep = Annotated[Lifecycle, Depends(get_lifecycle)]


async def get_rooms(request: Request) -> RoomUseCases:
    rooms: RoomUseCases = request.app.state.rooms
    return rooms


RoomsDep = Annotated[RoomUseCases, Depends(get_rooms)]


async def get_party(request: Request) -> PartyNight:
    party: PartyNight = request.app.state.party
    return party


PartyDep = Annotated[PartyNight, Depends(get_party)]


async def get_admin(request: Request) -> AdminService:
    admin: AdminService = request.app.state.admin
    return admin


AdminServiceDep = Annotated[AdminService, Depends(get_admin)]


# --- per request ------------------------------------------------------------------------


async def get_session(db: DatabaseDep) -> AsyncIterator[AsyncSession]:
    async with db.sessions() as s:
        yield s


SessionDep = Annotated[AsyncSession, Depends(get_session)]


async def get_room_service(request: Request, session: SessionDep) -> RoomService:
    room_services: RoomServices = request.app.state.room_services
    return room_services(session)


RoomServiceDep = Annotated[RoomService, Depends(get_room_service)]


def bearer_token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def seat_token(request: Request, room_id: str) -> str | None:
    """A seat token from ``Authorization: Bearer`` or the room's HttpOnly cookie."""
    return bearer_token(request) or request.cookies.get(cookie_name(room_id))
