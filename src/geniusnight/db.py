"""The names ``geniusnight.db`` had, kept while modules still import them from here: the
tables are in ``storage.models``, the database in ``storage.database``."""

from .storage.database import Database, make_engine
from .storage.models import (
    AdminSession,
    Base,
    ChatMessage,
    Game,
    GameSeat,
    Member,
    Move,
    RefusalCount,
    RefusedAction,
    Room,
    RoomEvent,
    RoomStatus,
    dumps_json,
    utcnow,
)

__all__ = [
    "AdminSession",
    "Base",
    "ChatMessage",
    "Database",
    "Game",
    "GameSeat",
    "Member",
    "Move",
    "RefusalCount",
    "RefusedAction",
    "Room",
    "RoomEvent",
    "RoomStatus",
    "dumps_json",
    "make_engine",
    "utcnow",
]
