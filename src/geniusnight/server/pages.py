"""HTML pages: Jinja2 shells; the work happens in plain ES modules under /static.

The room and invite pages are decided here, before any script runs: the invite link and the
room code show a newcomer the join screen; a room's address opened by someone who is not a
member only asks them for the invite or the code (the address is no way in: a new invite link
or the lock must keep out whoever knows it); an unknown room gets one plain "no such room" page.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..engines import ENGINES
from .deps import PartyDep, RoomServiceDep, seat_token
from .errors import ApiError
from .templating import TEMPLATE_DIR, templates

router = APIRouter(include_in_schema=False)


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def no_room(request: Request, code: str, status_code: int = 404) -> HTMLResponse:
    """The "no such room" page; ``code`` (an ApiError's) picks its sentence from the catalog."""
    return render(request, "no_room.html", status_code=status_code, code=code)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    games = [e.info for e in ENGINES.values()]
    return render(request, "home.html", games=games, rules={g.id for g in games if has_rules(g.id)})


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(request: Request, game: str) -> HTMLResponse:
    if not has_rules(game):
        return no_room(request, "no_such_game")
    return render(request, "rules/page.html", game=ENGINES[game].info, game_id=game)


def has_rules(game: str) -> bool:
    return game in ENGINES and (TEMPLATE_DIR / "rules" / f"_{game}.html").is_file()


@router.get("/join/{invite}", response_class=HTMLResponse)
async def join(request: Request, invite: str, svc: RoomServiceDep) -> Response:
    try:
        room = await svc.room_by_invite(invite)
    except ApiError as e:
        return no_room(request, e.code)
    if await svc.member_by_token(room.id, seat_token(request, room.id)) is not None:
        # already in the room (a seat a bot keeps for them included): straight back to it,
        # not a join screen offering to "watch"
        return RedirectResponse(f"/r/{room.id}", status_code=303)
    return render(request, "join.html", invite=invite, room_id=room.id, summary=await svc.summary(room))


@router.get("/code/{code}", response_class=HTMLResponse)
async def join_by_code(request: Request, code: str, party: PartyDep, svc: RoomServiceDep) -> Response:
    """The join screen of the room a code names (the home page's "Join with code" box leads
    here); wrong codes count against the address, as in the API."""
    try:
        room, summary = await party.find_by_code(request.client.host if request.client else "", code)
    except ApiError as e:
        return no_room(request, e.code, e.status)
    if await svc.member_by_token(room.id, seat_token(request, room.id)) is not None:
        return RedirectResponse(f"/r/{room.id}", status_code=303)
    return render(request, "join.html", invite="", code=room.code, room_id="", summary=summary)


@router.get("/r/{room_id}/screen", response_class=HTMLResponse)
async def screen(request: Request, room_id: str, svc: RoomServiceDep) -> HTMLResponse:
    """The shared screen: a shell; its key is in the link's fragment, which its script sends
    in the socket's hello (the server never sees it in a request line)."""
    try:
        found = await svc.room(room_id)
    except ApiError as e:
        return no_room(request, e.code)
    title = ENGINES[found.game].info.title
    return render(request, "screen.html", room_id=room_id, game=found.game, title=title)


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def room(request: Request, room_id: str, svc: RoomServiceDep) -> HTMLResponse:
    try:
        found = await svc.room(room_id)
    except ApiError as e:
        return no_room(request, e.code)
    member = await svc.member_by_token(room_id, seat_token(request, room_id))
    if member is None:
        # not the invite: they need the link or the code from the host (a box to type it in)
        return render(request, "ask_host.html", summary=await svc.summary(found))
    return render(
        request, "room.html", room_id=room_id, game=found.game, game_id=found.game, rules=has_rules(found.game)
    )
