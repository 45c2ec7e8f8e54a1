"""Cross-site checks: what a browser's cookie authenticates must come from the site's own pages.

A seat cookie is ``SameSite=Lax``: a page on another port or on a sibling subdomain is the
same *site* to the browser, which sends the cookie along. So a request that changes something
(not GET/HEAD/OPTIONS), and every websocket, must show it comes from the site's own pages:

1. ``Origin``, which browsers send on every such request and every websocket, must be the
   public URL's (``GENIUSNIGHT_PUBLIC_URL``; unset: the request's own host).
2. Without an ``Origin``, ``Sec-Fetch-Site`` (sent by current browsers) must be
   ``same-origin``.
3. Without either, a ``Referer`` of another site is refused, and so is a request that only our
   cookie would authenticate (a seat or admin cookie, no ``Authorization: Bearer``): a browser
   always says where such a request comes from, so one that does not is not trusted with
   the browser's cookie.

Scripts, which send none of these headers, authenticate with ``Authorization: Bearer`` (or
the websocket ``hello`` token) and stay allowed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .admin.auth import ADMIN_COOKIE
from .deps import COOKIE_PREFIX, cookie_name

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def request_origin(headers: Headers) -> str | None:
    """The page a browser request came from: its Origin, else its Referer's origin."""
    origin = headers.get("origin")
    if origin is not None:
        return origin
    referer = headers.get("referer")
    if referer:
        parts = urlsplit(referer)
        return f"{parts.scheme}://{parts.netloc}"
    return None


def origin_allowed(public_url: str, origin: str, host: str | None) -> bool:
    """``origin`` is the site's own: the public URL's (``GENIUSNIGHT_PUBLIC_URL``), or while
    that is unset (""), the request's own host."""
    if public_url:
        public = urlsplit(public_url)
        return origin.rstrip("/") == f"{public.scheme}://{public.netloc}"
    return host is not None and urlsplit(origin).netloc == host


def cookie_only(path: str, headers: Headers) -> bool:
    """Only one of our cookies would authenticate this request: it carries no bearer token,
    and a cookie that counts for ``path`` (the room's seat cookie for ``/api/rooms/{id}/…``,
    any seat cookie for ``/api/join/…`` and ``/api/codes/…``, whose invite or code names a
    room, the admin cookie for the admin console). Creating a room authenticates nobody."""
    if headers.get("authorization", "").lower().startswith("bearer "):
        return False
    names = {part.split("=", 1)[0].strip() for part in headers.get("cookie", "").split(";")}
    parts = path.split("/")
    if path.startswith("/api/rooms/") and len(parts) > 3:
        return cookie_name(parts[3]) in names
    if path.startswith(("/api/join/", "/api/codes/")):
        return any(name.startswith(COOKIE_PREFIX) for name in names)
    if path.startswith(("/api/admin/", "/admin")):
        return ADMIN_COOKIE in names
    return False


def says_where_from(headers: Headers) -> bool:
    """A browser named the page or the site relation (``Origin`` or ``Sec-Fetch-Site``)."""
    return "origin" in headers or "sec-fetch-site" in headers


def from_another_site(public_url: str, path: str, headers: Headers) -> bool:
    """True for a request that changes something and may come from another site's page."""
    origin = headers.get("origin")
    if origin is not None:
        return not origin_allowed(public_url, origin, headers.get("host"))
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site != "same-origin"
    referer = request_origin(headers)
    if referer is not None and not origin_allowed(public_url, referer, headers.get("host")):
        return True
    return cookie_only(path, headers)


class OriginGuard:
    """ASGI middleware: refuses cross-site unsafe HTTP requests with 403 (websockets check
    the same in :mod:`.play.ws`, where the token's source is known)."""

    def __init__(self, app: ASGIApp, public_url: str) -> None:
        self.app = app
        self.public_url = public_url  # GENIUSNIGHT_PUBLIC_URL ("": each request's own host)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        unsafe = scope["type"] == "http" and scope["method"] not in SAFE_METHODS
        if unsafe and from_another_site(self.public_url, scope["path"], Headers(scope=scope)):
            body = {"code": "bad_origin", "message": "Requests must come from this site's own pages."}
            await JSONResponse(body, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)
