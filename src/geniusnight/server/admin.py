"""Admin console and API (docs/admin.md): guarded by ``GENIUSNIGHT_ADMIN_TOKEN``.

Two ways in: ``Authorization: Bearer <admin token>`` (scripts) or the session cookie the
``/admin`` login form sets. The cookie never holds the token: it is ``expiry.session.mac`` where
the mac is an HMAC (keyed by ``settings.secret_key``) over the expiry, a random session id and
a digest of the token, so rotating either secret logs every session out; and the session
must still be stored on the server (``admin_sessions``), so a logout ends it for good. With
no admin token configured the whole console answers 404 ``admin_disabled``.

The replay helpers here (:func:`game_log`, :class:`ReplayCache`, built on :mod:`.replayer`) are shared with the
players' after-the-game replay in :mod:`.replay`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import AdminSession, Game, Member, Move, RefusedAction, Room
from ..engines import ENGINES, Engine, get_engine
from ..logs import game_filter
from ..settings import Settings
from .deps import SessionDep, bearer_token, get_services
from .edge import INT64_MAX, GameId, Offset
from .replayer import ReplayError, initial_state, steps
from .rooms import ApiError, seat_entries
from .templating import templates

ADMIN_COOKIE = "gn_admin"
SESSION_SECONDS = 12 * 60 * 60
SESSION_ID_BYTES = 18
LOGIN_FAIL_DELAY = 0.3
EXPORT_FORMAT = "geniusnight-game"
EXPORT_VERSION = 1
STATUSES = ("lobby", "playing", "finished", "closed")

# --- authentication ------------------------------------------------------------------------


def _mac(settings: Settings, expiry: int, session: str) -> str:
    token = settings.admin_token or ""
    token_digest = hashlib.sha256(token.encode()).hexdigest()
    msg = f"admin-session|{expiry}|{session}|{token_digest}".encode()
    return hmac.new(settings.secret_key.encode(), msg, hashlib.sha256).hexdigest()


def make_session_cookie(settings: Settings, now: float | None = None) -> str:
    expiry = int(now if now is not None else time.time()) + SESSION_SECONDS
    session = secrets.token_urlsafe(SESSION_ID_BYTES)
    return f"{expiry}.{session}.{_mac(settings, expiry, session)}"


def session_cookie_valid(settings: Settings, value: str | None, now: float | None = None) -> bool:
    """The cookie's signature and expiry (whether its session still exists is asked apart)."""
    if not value or not settings.admin_token:
        return False
    expiry_text, session, mac = [*value.split("."), "", ""][:3]
    if not (expiry_text.isascii() and expiry_text.isdigit()) or not session or not mac:
        return False
    expiry = int(expiry_text)
    if expiry < (now if now is not None else time.time()):
        return False
    return hmac.compare_digest(mac.encode(), _mac(settings, expiry, session).encode())


def _session_key(cookie: str) -> str:
    return hashlib.sha256(cookie.split(".")[1].encode()).hexdigest()


def token_matches(settings: Settings, token: str | None) -> bool:
    if not token or not settings.admin_token:
        return False
    return hmac.compare_digest(token.encode(), settings.admin_token.encode())


async def is_admin(request: Request) -> bool:
    services = get_services(request)
    if token_matches(services.settings, bearer_token(request)):
        return True
    cookie = request.cookies.get(ADMIN_COOKIE)
    if cookie is None or not session_cookie_valid(services.settings, cookie):
        return False
    async with services.db.sessions() as s:
        return await s.get(AdminSession, _session_key(cookie)) is not None


def require_enabled(request: Request) -> Settings:
    settings = get_services(request).settings
    if not settings.admin_token:
        raise ApiError(404, "admin_disabled", "The admin console is disabled: set GENIUSNIGHT_ADMIN_TOKEN.")
    return settings


async def require_admin(request: Request) -> None:
    require_enabled(request)
    if not await is_admin(request):
        raise ApiError(401, "admin_auth", "Admin authentication required (Bearer token or the admin login).")


AdminDep = Annotated[None, Depends(require_admin)]

router = APIRouter()
api = APIRouter(prefix="/api/admin", tags=["admin"])


class Login(BaseModel):
    token: str = Field(description="The admin token (GENIUSNIGHT_ADMIN_TOKEN)")


class CloseRoom(BaseModel):
    message: str = Field(default="An administrator closed this room.", max_length=300)


@api.post("/login", summary="Log in with the admin token; sets the session cookie")
async def login(body: Login, request: Request, response: Response) -> dict[str, Any]:
    settings = require_enabled(request)
    if not token_matches(settings, body.token):
        await asyncio.sleep(LOGIN_FAIL_DELAY)  # slows guessing down; the token is long anyway
        raise ApiError(401, "admin_auth", "That is not the admin token.")
    cookie = make_session_cookie(settings)
    async with get_services(request).db.sessions() as s, s.begin():
        await s.execute(delete(AdminSession).where(AdminSession.expires_at < datetime.now(UTC)))
        expires = datetime.now(UTC) + timedelta(seconds=SESSION_SECONDS)
        s.add(AdminSession(id=_session_key(cookie), expires_at=expires))
    response.set_cookie(
        ADMIN_COOKIE,
        cookie,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        secure=settings.secure_cookies or request.url.scheme == "https",
        path="/",
    )
    return {"ok": True, "expires_in": SESSION_SECONDS}


@api.post("/logout", summary="Log out: ends the session on the server and clears the cookie")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    services = get_services(request)
    settings = services.settings
    cookie = request.cookies.get(ADMIN_COOKIE)
    if cookie is not None and session_cookie_valid(settings, cookie):
        async with services.db.sessions() as s, s.begin():
            await s.execute(delete(AdminSession).where(AdminSession.id == _session_key(cookie)))
    response.delete_cookie(
        ADMIN_COOKIE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=settings.secure_cookies or request.url.scheme == "https",
    )
    return {"ok": True}


@api.get("/session", summary="Whether this request is authenticated as admin")
async def session_info(_admin: AdminDep) -> dict[str, Any]:
    return {"admin": True}


# --- rooms ---------------------------------------------------------------------------------


def _iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:  # SQLite returns naive datetimes; everything here is UTC
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat()


def _seat_names(room: Room, game: Game | None, seated: list[Member]) -> list[dict[str, Any]]:
    if game is not None and room.status != "lobby":
        return seat_entries(game)
    return [{"seat": m.seat, "name": m.name, "bot": m.bot, "member_id": m.id} for m in seated]


@api.get("/rooms", summary="Rooms, newest first, with filters and search")
async def list_rooms(
    _admin: AdminDep,
    session: SessionDep,
    status: Annotated[
        Literal["live", "playing", "lobby", "finished", "closed"] | None,
        Query(description="live (= playing), lobby, finished or closed"),
    ] = None,
    game: Annotated[str | None, Query(description="A game id, e.g. ingenious")] = None,
    q: Annotated[str | None, Query(max_length=64, description="Room id or player name (substring)")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    stmt = select(Room)
    if status is not None:
        stmt = stmt.where(Room.status == ("playing" if status == "live" else status))
    if game:
        stmt = stmt.where(Room.game == game)
    if q and q.strip():
        needle = q.strip()
        by_name = select(Member.room_id).where(func.lower(Member.name).contains(needle.lower(), autoescape=True))
        stmt = stmt.where(or_(Room.id.contains(needle, autoescape=True), Room.id.in_(by_name)))
    total = await session.scalar(select(func.count()).select_from(stmt.subquery()))
    rooms = list((await session.execute(stmt.order_by(Room.created_at.desc()).limit(limit).offset(offset))).scalars())
    ids = [r.id for r in rooms]
    game_ids = [r.current_game_id for r in rooms if r.current_game_id is not None]
    games = {g.id: g for g in (await session.execute(select(Game).where(Game.id.in_(game_ids)))).scalars()}
    members: dict[str, list[Member]] = {}
    rows = await session.execute(
        select(Member)
        .where(Member.room_id.in_(ids), Member.seat.is_not(None), Member.kicked.is_(False))
        .order_by(Member.seat)
    )
    for m in rows.scalars():
        members.setdefault(m.room_id, []).append(m)
    counts = dict(
        (await session.execute(select(Game.room_id, func.count()).where(Game.room_id.in_(ids)).group_by(Game.room_id)))
        .tuples()
        .all()
    )
    out = []
    for r in rooms:
        current = games.get(r.current_game_id) if r.current_game_id is not None else None
        out.append(
            {
                "id": r.id,
                "game": r.game,
                "status": r.status,
                "players": [s["name"] for s in _seat_names(r, current, members.get(r.id, []))],
                "created_at": _iso(r.created_at),
                "updated_at": _iso(r.updated_at),
                "game_id": r.current_game_id,
                "games": counts.get(r.id, 0),
                "last_seq": current.last_seq if current else None,
                "last_move_at": _iso(current.last_move_at) if current else None,
            }
        )
    return {"total": total or 0, "rooms": out, "games": sorted(ENGINES)}


async def _room_or_404(session: AsyncSession, room_id: str) -> Room:
    room = await session.get(Room, room_id)
    if room is None:
        raise ApiError(404, "no_room", "There is no such room.")
    return room


def _game_summary(g: Game) -> dict[str, Any]:
    return {
        "id": g.id,
        "engine": g.engine,
        "players": g.players,
        "seats": seat_entries(g, member_ids=False),
        "started_at": _iso(g.started_at),
        "finished_at": _iso(g.finished_at),
        "last_seq": g.last_seq,
        "last_move_at": _iso(g.last_move_at),
        "result": g.result,
    }


@api.get("/rooms/{room_id}", summary="A room: seats, members, this process's connections, games")
async def room_detail(room_id: str, request: Request, _admin: AdminDep, session: SessionDep) -> dict[str, Any]:
    room = await _room_or_404(session, room_id)
    all_members = list(
        (await session.execute(select(Member).where(Member.room_id == room_id).order_by(Member.id))).scalars()
    )
    seated = sorted((m for m in all_members if m.seat is not None and not m.kicked), key=lambda m: m.seat or 0)
    games = list((await session.execute(select(Game).where(Game.room_id == room_id).order_by(Game.id))).scalars())
    current = next((g for g in games if g.id == room.current_game_id), None)
    hub = get_services(request).hub
    connections = [
        {"member_id": c.member_id, "seat": c.seat, "name": c.name, "closed": c.closed, "last_seq": c.last_seq}
        for c in sorted(hub.rooms.get(room_id, ()), key=lambda c: (c.seat is None, c.seat or 0, c.name))
    ]
    return {
        "id": room.id,
        "game": room.game,
        "status": room.status,
        "options": room.options,
        "time_limits": room.time_limits,
        "invite_path": f"/join/{room.invite}",
        "host_member_id": room.host_member_id,
        "created_at": _iso(room.created_at),
        "updated_at": _iso(room.updated_at),
        "game_id": room.current_game_id,
        "seats": _seat_names(room, current, seated),
        "members": [
            {
                "id": m.id,
                "name": m.name,
                "seat": m.seat,
                "bot": m.bot,
                "kicked": m.kicked,
                "host": m.id == room.host_member_id,
                "joined_at": _iso(m.created_at),
            }
            for m in all_members
        ],
        "connections": connections,
        "games": [_game_summary(g) for g in games],
    }


@api.post("/rooms/{room_id}/close", summary="Close a room: its players are told; the log stays")
async def close_room(
    room_id: str, request: Request, _admin: AdminDep, session: SessionDep, body: CloseRoom | None = None
) -> dict[str, Any]:
    room = await _room_or_404(session, room_id)
    message = (body or CloseRoom()).message
    already = room.status == "closed"
    room.status = "closed"
    room.updated_at = datetime.now(UTC)
    await session.commit()
    services = get_services(request)
    for live in services.games.live.values():
        if live.room_id == room_id:
            live.closed = True  # bots and clocks stop; every later move is refused
    await services.bus.publish({"kind": "closed", "room": room_id, "message": message})
    return {"room": room_id, "status": "closed", "already_closed": already}


# --- games: log, export, state at any seq ------------------------------------------------


async def _game_or_404(session: AsyncSession, game_id: int) -> Game:
    game = await session.get(Game, game_id)
    if game is None:
        raise ApiError(404, "no_game", "There is no such game.")
    return game


def _engine(game: Game) -> Engine:
    if game.engine not in ENGINES:
        raise ApiError(409, "unknown_engine", f"This server does not have the game {game.engine!r}.")
    return get_engine(game.engine)


def _player(game: Game, seat: int | None) -> str:
    if seat is None:
        return "(system)"
    if 0 <= seat < len(game.seats):
        return str(game.seats[seat].get("name"))
    return f"seat {seat}"


async def moves_of(session: AsyncSession, game_id: int) -> list[Move]:
    return list((await session.execute(select(Move).where(Move.game_id == game_id).order_by(Move.seq))).scalars())


def _seat_filter(seat: str | None) -> tuple[bool, int | None]:
    """``seat`` query: a number, or ``system`` for the system's moves (timeouts)."""
    if seat is None or seat == "":
        return False, None
    if seat == "system":
        return True, None
    if not (seat.isascii() and seat.isdigit()):
        raise ApiError(422, "bad_seat", "seat is a number or 'system'.")
    return True, int(seat)


def _action_type(action: Any) -> str | None:
    return action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None


async def game_log(
    session: AsyncSession,
    game: Game,
    *,
    seat: str | None = None,
    action_type: str | None = None,
    for_players: bool = False,
) -> dict[str, Any]:
    """Every accepted move in order, private parts included (admins; players after the end).

    ``for_players`` hides free-form options (custom packs, fixed deals): a rematch reuses
    them, so their unplayed parts must stay secret, as in the room snapshot."""
    by_seat, want_seat = _seat_filter(seat)
    moves = []
    for m in await moves_of(session, game.id):
        if by_seat and m.seat != want_seat:
            continue
        if action_type and _action_type(m.action) != action_type:
            continue
        moves.append(
            {
                "seq": m.seq,
                "seat": m.seat,
                "player": _player(game, m.seat),
                "at": _iso(m.created_at),
                "type": _action_type(m.action),
                "action": m.action,
                "ref": m.ref,
            }
        )
    options = dict(game.options)
    if for_players:
        secret = {o.name for o in _engine(game).info.options if o.kind == "json"}
        options = {k: v for k, v in options.items() if k not in secret}
    return {"game": _game_summary(game) | {"room_id": game.room_id, "options": options}, "moves": moves}


@api.get("/games/{game_id}/log", summary="A game's full log and its refused actions")
async def admin_game_log(
    game_id: GameId,
    request: Request,
    _admin: AdminDep,
    session: SessionDep,
    seat: Annotated[str | None, Query(description="A seat number, or 'system'")] = None,
    type: Annotated[str | None, Query(description="Only actions of this type", max_length=64)] = None,
) -> dict[str, Any]:
    game = await _game_or_404(session, game_id)
    out = await game_log(session, game, seat=seat, action_type=type)
    keep = get_services(request).settings.refused_keep_days
    cutoff = datetime.now(UTC) - timedelta(days=keep)
    # older ones are past their keep time: hidden here, deleted by the housekeeping task
    by_seat, want_seat = _seat_filter(seat)
    refused = []
    rows = await session.execute(
        select(RefusedAction)
        .where(RefusedAction.game_id == game_id, RefusedAction.created_at >= cutoff)
        .order_by(RefusedAction.id)
    )
    for r in rows.scalars():
        if by_seat and r.seat != want_seat:
            continue
        if type and _action_type(r.action) != type:
            continue
        refused.append(
            {
                "id": r.id,
                "at_seq": r.at_seq,
                "seat": r.seat,
                "player": _player(game, r.seat),
                "at": _iso(r.created_at),
                "code": r.code,
                "message": r.message,
                "action": r.action,
            }
        )
    out["refused"] = refused
    out["refused_keep_days"] = keep
    return out


async def export_game(session: AsyncSession, game: Game) -> dict[str, Any]:
    """The whole game as JSON: enough to replay it anywhere (``geniusnight replay FILE``)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "game": {
            "id": game.id,
            "room_id": game.room_id,
            "engine": game.engine,
            "options": game.options,
            "seed": game.seed,
            "players": game.players,
            "seats": seat_entries(game),
            "time_limits": game.time_limits,
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
            "last_seq": game.last_seq,
        },
        "log": [
            {"seq": m.seq, "seat": m.seat, "action": m.action, "at": _iso(m.created_at), "ref": m.ref}
            for m in await moves_of(session, game.id)
        ],
        "result": game.result,
    }


async def purge_old_refused(session: AsyncSession, keep_days: int, now: datetime | None = None) -> int:
    """Delete refused actions older than ``keep_days`` (they are debugging records only)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=keep_days)
    result = await session.execute(delete(RefusedAction).where(RefusedAction.created_at < cutoff))
    await session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


async def purge_old_rooms(session: AsyncSession, days: int, now: datetime | None = None) -> int:
    """Delete rooms finished or closed more than ``days`` ago, with their games, logs, members
    and chat (docs/admin.md, "Retention": export what you want to keep before then)."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
    result = await session.execute(
        delete(Room).where(Room.status.in_(("finished", "closed")), Room.updated_at < cutoff)
    )
    await session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


@api.get("/games/{game_id}/export", summary="Export a whole game as JSON (a file download)")
async def admin_export(game_id: GameId, _admin: AdminDep, session: SessionDep) -> JSONResponse:
    game = await _game_or_404(session, game_id)
    data = await export_game(session, game)
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="game-{game_id}.json"'})


class ReplayCache:
    """States after each prefix of a game's log, kept for the few games being replayed.

    Engines never mutate a state, so the list holds one shared object per seq. The log only
    grows, so a cached prefix stays valid; new moves extend it.
    """

    def __init__(self, max_games: int = 16) -> None:
        self.max_games = max_games
        self.games: OrderedDict[int, tuple[str, list[Any]]] = OrderedDict()

    async def states(self, session: AsyncSession, game: Game, upto: int) -> list[Any]:
        engine = _engine(game)
        cached = self.games.get(game.id)
        if cached is None or cached[0] != game.engine:
            states = [initial_state(engine, game.players, game.options, game.seed)]
        else:
            states = cached[1]
        if len(states) <= upto:
            # extend a copy: another request may be extending the same prefix meanwhile
            states = list(states)
            rows = await session.execute(
                select(Move)
                .where(Move.game_id == game.id, Move.seq >= len(states), Move.seq <= upto)
                .order_by(Move.seq)
            )
            try:
                for _, state in steps(engine, states[-1], rows.scalars(), after=len(states) - 1):
                    states.append(state)
            except ReplayError as e:
                message = f"Game {game.id}: {e.message}." if e.code == "log_gap" else e.message
                raise ApiError(500, e.code, message) from None
        current = self.games.get(game.id)
        if current is None or current[0] != game.engine or len(current[1]) < len(states):
            self.games[game.id] = (game.engine, states)
        self.games.move_to_end(game.id)
        while len(self.games) > self.max_games:
            self.games.popitem(last=False)
        return states


def replay_cache(request: Request) -> ReplayCache:
    state = request.app.state
    cache = getattr(state, "replay_cache", None)
    if cache is None:
        cache = state.replay_cache = ReplayCache()
    return cache


async def state_at(
    request: Request, session: AsyncSession, game: Game, seq: int | None, *, full: bool = True
) -> dict[str, Any]:
    """Every seat's view and the spectator's at ``seq``, and with ``full`` the whole state
    (engine.dump: the PRNG, undealt cards...), which only admins get."""
    k = game.last_seq if seq is None else seq
    if not 0 <= k <= game.last_seq:
        raise ApiError(422, "bad_seq", f"seq is 0 to {game.last_seq}.")
    engine = _engine(game)
    states = await replay_cache(request).states(session, game, k)
    state = states[k]
    move = None
    if k > 0:
        m = (await session.execute(select(Move).where(Move.game_id == game.id, Move.seq == k))).scalar_one()
        move = {
            "seq": m.seq,
            "seat": m.seat,
            "player": _player(game, m.seat),
            "action": m.action,
            "at": _iso(m.created_at),
        }
    return {
        "game_id": game.id,
        "engine": game.engine,
        "seq": k,
        "last_seq": game.last_seq,
        "phase": engine.phase(state),
        "to_act": sorted(engine.to_act(state)),
        "outcome": engine.outcome(state),
        "move": move,
        **({"state": json.loads(json.dumps(engine.dump(state), default=str))} if full else {}),
        "views": [engine.view(state, s) for s in range(game.players)],
        "spectator": engine.view(state, None),
    }


@api.get("/games/{game_id}/state", summary="The full state at seq k, with every seat's and the spectator's view")
async def admin_state(
    game_id: GameId,
    request: Request,
    _admin: AdminDep,
    session: SessionDep,
    seq: Annotated[int | None, Query(ge=0, le=INT64_MAX, description="Moves replayed; default the last")] = None,
) -> dict[str, Any]:
    game = await _game_or_404(session, game_id)
    return await state_at(request, session, game, seq)


router.include_router(api)

# --- pages ---------------------------------------------------------------------------------

pages = APIRouter(include_in_schema=False)


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status)


async def _guard_page(request: Request) -> HTMLResponse | None:
    """The login form (401) or the 'disabled' notice (404) instead of any admin content."""
    settings = get_services(request).settings
    if not settings.admin_token:
        return _page(request, "admin/disabled.html", status=404)
    if not await is_admin(request):
        return _page(request, "admin/login.html", status=401, next_path=request.url.path)
    return None


@pages.get("/admin", response_class=HTMLResponse)
async def admin_home(request: Request) -> HTMLResponse:
    return await _guard_page(request) or _page(request, "admin/index.html", games=sorted(ENGINES))


@pages.get("/admin/rooms/{room_id}", response_class=HTMLResponse)
async def admin_room_page(request: Request, room_id: str) -> HTMLResponse:
    return await _guard_page(request) or _page(request, "admin/room.html", room_id=room_id)


@pages.get("/admin/games/{game_id}", response_class=HTMLResponse)
async def admin_game_page(request: Request, game_id: int) -> HTMLResponse:
    log_filter = game_filter(get_services(request).settings.json_logs, game_id)
    return await _guard_page(request) or _page(request, "admin/game.html", game_id=game_id, log_filter=log_filter)


router.include_router(pages)
