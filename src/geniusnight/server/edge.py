"""The edge: every HTTP request and websocket frame is checked here before a route sees it.

Whatever passes can be stored and read back: JSON that parses to finite numbers within
64 bits, strings without lone surrogates (they cannot be encoded as UTF-8) or control
characters (PostgreSQL refuses NUL; none belongs in a name, a chat line or a move), and
nesting that any reader can walk. A refusal is a :class:`BadInput` with a stable code.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Annotated, Any
from urllib.parse import unquote

import orjson
from fastapi import Path, Query
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

INT64_MAX = (1 << 63) - 1
TWO_63 = float(1 << 63)
MAX_DEPTH = 32  # no action, option or body needs more
# control characters but tab, newline and carriage return; and lone surrogates
FORBIDDEN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# a number with a fraction or an exponent, or a digit run long enough to leave 64 bits
_NOT_A_SMALL_INTEGER = re.compile(r"[0-9](?:[.eE]|[0-9]{18})")

# ids and counters in paths and query strings: what the database's 64-bit integers hold
GameId = Annotated[int, Path(ge=1, le=INT64_MAX, description="A game id")]
SeatNumber = Annotated[int, Path(ge=0, le=INT64_MAX, description="A seat number")]
# a member's id: the members table's 32-bit integer
MemberId = Annotated[int, Path(ge=1, le=(1 << 31) - 1, description="A member id")]
# a game log's filters (the admin's log and the players' replay log take the same)
LogSeat = Annotated[str | None, Query(description="A seat number, or 'system'")]
LogType = Annotated[str | None, Query(description="Only actions of this type", max_length=64)]
Offset = Annotated[int, Query(ge=0, le=INT64_MAX)]


class BadInput(Exception):
    """Input refused at the edge: a stable code and a message for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status

    def frame(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


def check_text(text: str) -> str:
    if FORBIDDEN_TEXT.search(text):
        raise BadInput("bad_text", "Text may not hold control characters or lone surrogates.")
    return text


def _refuse_constant(name: str) -> Any:
    raise BadInput("bad_number", f"{name} is not a number here.")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadInput("bad_number", "Numbers must be finite.")
    return value


def _parse_int(text: str) -> int:
    if len(text) > 20:  # int() of a long digit string is slow, and is out of range anyway
        raise BadInput("bad_number", "Integers must fit in 64 bits.")
    value = int(text)
    if not -INT64_MAX - 1 <= value <= INT64_MAX:
        raise BadInput("bad_number", "Integers must fit in 64 bits.")
    return value


def check_value(value: Any) -> Any:
    """Refuse what could not be stored and read back: see the module's docstring."""
    _check(value)
    return value


# the types a JSON value is made of, bool before int (a bool is an int)
_JSON_TYPES = (str, bool, int, float, dict, list, tuple, type(None))


def _check(value: Any) -> bool:
    """Raises as ``check_value`` does; else whether ``value`` holds a float of 2**63 or more
    in size (orjson reads an integer literal too long for 64 bits as such a float).

    Walked a level at a time, the exact types orjson gives tried first, and each level's
    strings searched in one go (a character class matches within one string or another,
    never across two): every frame a player sends passes here, and this is twice as fast
    as an item at a time."""
    big_float = False
    level = [value]
    depth = 0
    while level:
        below: list[Any] = []
        texts: list[str] = []
        for item in level:
            kind = type(item)
            if kind not in _JSON_TYPES:  # a subclass (a str or int enum): checked as its base
                kind = next((t for t in _JSON_TYPES if isinstance(item, t)), kind)
            if kind is str:
                texts.append(item)
            elif kind is int:
                if not -INT64_MAX - 1 <= item <= INT64_MAX:
                    raise BadInput("bad_number", "Integers must fit in 64 bits.")
            elif kind is bool or item is None:
                continue
            elif kind is float:
                if not math.isfinite(item):
                    raise BadInput("bad_number", "Numbers must be finite.")
                big_float = big_float or abs(item) >= TWO_63
            elif kind is dict or kind is list or kind is tuple:
                if depth >= MAX_DEPTH:
                    raise BadInput("too_deep", f"JSON may nest at most {MAX_DEPTH} levels.")
                if kind is dict:
                    below += item.keys()
                    below += item.values()
                else:
                    below += item
            else:
                raise BadInput("malformed_json", f"Unexpected value of type {type(item).__name__}.")
        if texts:
            check_text("".join(texts))
        level = below
        depth += 1
    return big_float


def strict_json(data: str | bytes) -> Any:
    """``json.loads`` that accepts only what :func:`check_value` does.

    orjson reads it first: every frame and body passes here, and it is several times as
    fast as the standard library with a hook on every number. Whatever is refused, and a
    value where orjson may have read a too-long integer as a float, the standard library
    reads again: it is the rule, and the code of a refusal is always its own.

    >>> strict_json('{"n": [1, 2.5, "x"]}')
    {'n': [1, 2.5, 'x']}
    >>> strict_json('{"n": 99999999999999999999}')
    Traceback (most recent call last):
    geniusnight.server.edge.BadInput: Integers must fit in 64 bits.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput("malformed_json", "The body is not UTF-8.") from None
    try:
        value = orjson.loads(data)
        if _plain(data) or not _check(value):
            return value
    except (orjson.JSONDecodeError, BadInput):
        pass
    return strict_stdlib_json(data)


def _plain(text: str) -> bool:
    """Whether a JSON text orjson has read holds nothing :func:`_check` could refuse: only
    printable ASCII (no control character, none escaped: no backslash at all), no number but
    integers of at most 18 digits, and no more brackets in all than the nesting allowed. Then
    the walk is skipped: a move's frame is plain like this, and the scan costs a third of
    the walk.

    >>> _plain('{"type":"act","action":{"cells":[[1,-2],[2,-2]]}}'), _plain('{"n":1.5}')
    (True, False)
    """
    return (
        text.isascii()
        and text.isprintable()
        and "\\" not in text
        and text.count("[") + text.count("{") <= MAX_DEPTH
        and _NOT_A_SMALL_INTEGER.search(text) is None
    )


def strict_stdlib_json(data: str) -> Any:
    """What :func:`strict_json` accepts and refuses, read by the standard library alone."""
    try:
        value = json.loads(data, parse_constant=_refuse_constant, parse_float=_parse_float, parse_int=_parse_int)
    except RecursionError:
        raise BadInput("too_deep", f"JSON may nest at most {MAX_DEPTH} levels.") from None
    except ValueError:
        raise BadInput("malformed_json", "That is not valid JSON.") from None
    return check_value(value)


# --- HTTP ------------------------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


class EdgeMiddleware:
    """Refuses, before any route runs: a path or query string holding control characters or
    lone surrogates, a body over ``max_body_bytes``, and a body that is not strict JSON
    (forms and file uploads excepted). A body that passes is handed on unchanged."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            check_text(scope.get("path", ""))
            query = scope.get("query_string", b"").decode("utf-8", "surrogateescape")
            check_text(unquote(query, errors="surrogateescape"))
        except BadInput as e:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4400})
            else:
                await _refuse(scope, send, e)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        length = headers.get("content-length", "")
        if length.isascii() and length.isdigit() and int(length) > self.max_body_bytes:
            await _refuse(scope, send, _too_large(self.max_body_bytes))
            return
        body, more, messages = b"", True, []
        while more:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body_bytes:
                await _refuse(scope, send, _too_large(self.max_body_bytes))
                return
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if body.strip() and content_type not in FORM_TYPES:
            try:
                strict_json(body)
            except BadInput as e:
                await _refuse(scope, send, e)
                return
        pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
        pending += [m for m in messages if m["type"] != "http.request"]

        async def replay() -> Message:
            return pending.pop(0) if pending else await receive()

        await self.app(scope, replay, send)


def _too_large(limit: int) -> BadInput:
    return BadInput("body_too_large", f"Request bodies are at most {limit // 1024} KiB.", status=413)


async def _refuse(scope: Scope, send: Send, e: BadInput) -> None:
    response = JSONResponse(e.frame(), status_code=e.status)
    await response(scope, _drain, send)


async def _drain() -> Message:
    return {"type": "http.disconnect"}


HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


async def http_error(_request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (no such route, a method the route lacks) in the same
    ``{code, message}`` shape as every other error."""
    assert isinstance(exc, StarletteHTTPException)
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    return JSONResponse({"code": code, "message": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422, with a stable code and without echoing the input back (which may be
    anything the edge let through: a huge string, another field's value)."""
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": [str(part) for part in err.get("loc", ())], "type": str(err.get("type", "")), "msg": err.get("msg")}
        for err in exc.errors()
    ]
    first = errors[0] if errors else {"loc": [], "msg": "invalid"}
    where = ".".join(first["loc"][1:] if len(first["loc"]) > 1 else first["loc"])
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return JSONResponse(
        {"code": "invalid_request", "message": message, "errors": errors},
        status_code=422,
    )


# --- security headers ------------------------------------------------------------------------

# The pages load their scripts and styles from /static only (no inline script, no style
# attribute), talk to this origin only, and may not be framed: a page of another origin
# cannot overlay the admin console's buttons or a player's seat. Images may also be data:
# URLs (the tab's turn-cue icon is an SVG made in the page).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's API explorer pages load Swagger UI or ReDoc from their CDN and start them inline
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")
DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "worker-src blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders:
    """Adds the security headers to every HTTP response: the content security policy (with
    ``frame-ancestors 'none'``), ``X-Frame-Options: DENY`` for older browsers, ``nosniff``
    and ``Referrer-Policy: same-origin`` (invite links and room ids stay on this site)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_CONTENT_SECURITY_POLICY if scope.get("path") in DOCS_PATHS else CONTENT_SECURITY_POLICY
        added = [(b"content-security-policy", policy.encode()), *SECURITY_HEADERS]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in added if name not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
