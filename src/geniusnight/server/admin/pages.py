"""The admin console's pages: the login form or the 'disabled' notice instead of any admin
content; the pages themselves read the admin API."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...engines import ENGINES
from ...logs import game_filter
from ..deps import SettingsDep, settings_of
from ..templating import templates
from .auth import is_admin

pages = APIRouter(include_in_schema=False)


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status)


async def _guard_page(request: Request) -> HTMLResponse | None:
    """The login form (401) or the 'disabled' notice (404) instead of any admin content."""
    settings = settings_of(request)
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
async def admin_game_page(request: Request, game_id: int, settings: SettingsDep) -> HTMLResponse:
    log_filter = game_filter(settings.json_logs, game_id)
    return await _guard_page(request) or _page(request, "admin/game.html", game_id=game_id, log_filter=log_filter)
