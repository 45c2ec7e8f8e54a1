"""Cross-site checks: what a browser's cookie authenticates must come from the site's own pages.

A seat cookie is ``SameSite=Lax``: a page on another port or on a sibling subdomain is the
same *site* to the browser, which sends the cookie along. Browsers name the page a request
comes from in ``Origin`` on every request that changes something (not GET/HEAD/OPTIONS) and
on every websocket; where it is missing, the ``Referer`` stands in. So such a request that
names a page must name one of the public URL (``GENIUSNIGHT_PUBLIC_URL``; unset: the
request's own host). Scripts, which name none, authenticate with ``Authorization: Bearer``
(or the websocket ``hello`` token).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..settings import Settings

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


def origin_allowed(settings: Settings, origin: str, host: str | None) -> bool:
    if settings.public_url:
        public = urlsplit(settings.public_url)
        return origin.rstrip("/") == f"{public.scheme}://{public.netloc}"
    return host is not None and urlsplit(origin).netloc == host


def from_another_site(settings: Settings, headers: Headers) -> bool:
    origin = request_origin(headers)
    return origin is not None and not origin_allowed(settings, origin, headers.get("host"))


class OriginGuard:
    """ASGI middleware: refuses cross-site unsafe HTTP requests with 403 (websockets check
    the same in :mod:`.ws`, where the token's source is known)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        unsafe = scope["type"] == "http" and scope["method"] not in SAFE_METHODS
        if unsafe and from_another_site(self.settings, Headers(scope=scope)):
            body = {"code": "bad_origin", "message": "Requests must come from this site's own pages."}
            await JSONResponse(body, status_code=403)(scope, receive, send)
            return
        await self.app(scope, receive, send)
