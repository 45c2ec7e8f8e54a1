"""HTML pages: Jinja2 shells; the work happens in plain ES modules under /static."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from ..engines import ENGINES
from .app import TEMPLATE_DIR

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=TEMPLATE_DIR)


def render(request: Request, name: str, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    games = [e.info for e in ENGINES.values()]
    return render(request, "home.html", games=games)


@router.get("/join/{invite}", response_class=HTMLResponse)
async def join(request: Request, invite: str) -> HTMLResponse:
    return render(request, "join.html", invite=invite)


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def room(request: Request, room_id: str) -> HTMLResponse:
    return render(request, "room.html", room_id=room_id)
