"""The page's language: English or German, and the message catalogs both are drawn from.

Catalogs are flat JSON objects (``locales/en.json``, ``locales/de.json``) mapping a key such as
``room.start`` to a text with ``{name}`` placeholders. Templates call ``t(key, **params)``; the
room's JavaScript gets the same catalog in the page (``static/js/i18n.js``). Only the site's
own wording lives here: what players type (names, chat, clues, card content) is never translated.

The language is the ``lang`` cookie (set by the EN | DE switch), else the browser's
Accept-Language, else English. The admin pages stay English.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from typing import Any

from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from starlette.requests import HTTPConnection

LANGS = ("en", "de")
DEFAULT = "en"
COOKIE = "lang"

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` (read once from the package's ``locales/``)."""
    text = (files(__package__) / "locales" / f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


@cache
def catalog_script(lang: str) -> Markup:
    """The catalog of ``lang`` encoded for a page's ``<script type="application/json">``
    (as Jinja's ``tojson`` would), once per language rather than on every page."""
    return htmlsafe_json_dumps(catalog(lang))


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def translate(lang: str, key: str, fallback: str | None = None, **params: Any) -> str:
    """The text for ``key`` in ``lang`` (English if German lacks it; else ``fallback``, e.g. an
    added game's own title; else the key itself), its ``{name}`` placeholders filled from ``params``."""
    text = catalog(lang).get(key) or catalog(DEFAULT).get(key) or fallback or key
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), text)


def from_accept_language(header: str) -> str | None:
    """The best of ``LANGS`` in an Accept-Language header (``de-DE,de;q=0.9,en;q=0.8``), by q."""
    best: tuple[float, int, str] | None = None
    for index, part in enumerate(header.split(",")):
        tag, _, rest = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in LANGS:
            continue
        q = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q <= 0:
            continue
        # higher q wins; among equal q, the one listed first
        if best is None or (q, -index) > (best[0], best[1]):
            best = (q, -index, primary)
    return best[2] if best else None


def choose(conn: HTTPConnection) -> str:
    """The language of a request: the ``lang`` cookie, else Accept-Language, else English.
    The admin pages are English only (an operator's console, not the players' pages)."""
    if conn.url.path.startswith("/admin"):
        return DEFAULT
    cookie = conn.cookies.get(COOKIE, "")
    if cookie in LANGS:
        return cookie
    return from_accept_language(conn.headers.get("accept-language", "")) or DEFAULT


def page_context(conn: HTTPConnection) -> dict[str, Any]:
    """What every template gets: ``lang``, ``t`` and the encoded catalog for the page's scripts."""
    lang = choose(conn)

    def t(key: str, fallback: str | None = None, **params: Any) -> str:
        return translate(lang, key, fallback, **params)

    return {"lang": lang, "langs": LANGS, "t": t, "catalog_script": catalog_script(lang)}
