"""Who is an admin: guarded by ``GENIUSNIGHT_ADMIN_TOKEN``.

Two ways in: ``Authorization: Bearer <admin token>`` (scripts) or the session cookie the
``/admin`` login form sets. The cookie never holds the token: it is ``expiry.session.mac`` where
the mac is an HMAC (keyed by ``settings.secret_key``) over the expiry, a random session id and
a digest of the token, so rotating either secret logs every session out; and the session
must still be stored on the server (``admin_sessions``), so a logout ends it for good. With
no admin token configured the whole console answers 404 ``admin_disabled``.

Guessing is throttled: each wrong token (a login or a bearer token) counts against the
caller's address, and an address with ``GENIUSNIGHT_ADMIN_FAILURES_PER_MINUTE`` wrong tokens in
the last minute gets 429 ``admin_throttled`` for every token it sends, the right one too (a
throttled guess is never confirmed), until the oldest of them is a minute old.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import delete

from ...settings import Settings
from ...storage.database import Database
from ...storage.models import AdminSession
from ..deps import admin_rate_of, bearer_token, database_of, settings_of
from ..errors import ApiError

ADMIN_COOKIE = "gn_admin"
SESSION_SECONDS = 12 * 60 * 60
SESSION_ID_BYTES = 18


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


def enabled(settings: Settings) -> Settings:
    if not settings.admin_token:
        raise ApiError(404, "admin_disabled", "The admin console is disabled: set GENIUSNIGHT_ADMIN_TOKEN.")
    return settings


async def token_admitted(request: Request, token: str | None) -> bool:
    """Whether ``token`` is the admin token; a wrong one counts against the caller's address,
    and an address over its limit is refused whatever it sends (see the module's docstring)."""
    settings, admin_rate = settings_of(request), admin_rate_of(request)
    address = request.client.host if request.client else ""
    if await admin_rate.full(address):
        per = settings.admin_failures_per_minute
        raise ApiError(429, "admin_throttled", f"More than {per} wrong admin tokens a minute from here; wait a minute.")
    if token_matches(settings, token):
        return True
    await admin_rate.hit(address)
    return False


async def log_in(request: Request, token: str) -> str:
    """A new session for the holder of the admin token: its cookie's value."""
    settings, db = enabled(settings_of(request)), database_of(request)
    if not await token_admitted(request, token):
        raise ApiError(401, "admin_auth", "That is not the admin token.")
    cookie = make_session_cookie(settings)
    async with db.sessions() as s, s.begin():
        await s.execute(delete(AdminSession).where(AdminSession.expires_at < datetime.now(UTC)))
        expires = datetime.now(UTC) + timedelta(seconds=SESSION_SECONDS)
        s.add(AdminSession(id=_session_key(cookie), expires_at=expires))
    return cookie


async def log_out(settings: Settings, db: Database, cookie: str | None) -> None:
    """The session of ``cookie`` ends on the server (if it is one)."""
    if cookie is not None and session_cookie_valid(settings, cookie):
        async with db.sessions() as s, s.begin():
            await s.execute(delete(AdminSession).where(AdminSession.id == _session_key(cookie)))


async def is_admin(request: Request) -> bool:
    settings = settings_of(request)
    bearer = bearer_token(request)
    if bearer is not None and settings.admin_token and await token_admitted(request, bearer):
        return True
    cookie = request.cookies.get(ADMIN_COOKIE)
    if cookie is None or not session_cookie_valid(settings, cookie):
        return False
    async with database_of(request).sessions() as s:
        return await s.get(AdminSession, _session_key(cookie)) is not None


def require_enabled(request: Request) -> Settings:
    return enabled(settings_of(request))


async def require_admin(request: Request) -> None:
    require_enabled(request)
    if not await is_admin(request):
        raise ApiError(401, "admin_auth", "Admin authentication required (Bearer token or the admin login).")


AdminDep = Annotated[None, Depends(require_admin)]
