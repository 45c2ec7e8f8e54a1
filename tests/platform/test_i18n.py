"""English and German (docs/i18n.md): the catalogs match, the templates draw their wording from
them, and a page comes in the language of the ``lang`` cookie, else of Accept-Language, else
in English."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import httpx
import pytest

from geniusnight.i18n import LANGS, catalog, from_accept_language, placeholders
from support import ROOT


def test_every_language_has_the_same_keys_and_placeholders_as_english() -> None:
    english = catalog("en")
    for lang in LANGS:
        other = catalog(lang)
        assert set(other) == set(english), lang
        for key, text in english.items():
            assert placeholders(other[key]) == placeholders(text), (lang, key)
            assert other[key].strip(), (lang, key)


def test_the_catalog_files_are_flat_objects_of_strings() -> None:
    for path in (ROOT / "src" / "geniusnight" / "locales").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), path.name


class _Text(HTMLParser):
    """The text of a template between tags, with Jinja expressions and statements taken out."""

    def __init__(self) -> None:
        super().__init__()
        self.bare: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code"):
            self.skip += 1
        for name, value in attrs:
            # attributes people read: their words come from the catalog too
            if name in ("title", "placeholder", "aria-label", "alt") and value and _words(value):
                self.bare.append(f"{name}={value!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and _words(data):
            self.bare.append(data.strip())


def _words(text: str) -> bool:
    # two or more letters in a row, outside {{ ... }}, {% ... %} and {# ... #}
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "", text, flags=re.S)
    return bool(re.search(r"[A-Za-zÄÖÜäöüß]{2,}", text))


def _templates() -> list[str]:
    root = ROOT / "templates"
    # the admin pages stay English; the rules' own text is written per language (_<game>.<lang>.html)
    names = []
    for path in sorted(root.rglob("*.html")):
        name = str(path.relative_to(root))
        if name.startswith("admin/") or (name.startswith("rules/_") and name != "rules/_rules.html"):
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("name", _templates())
def test_templates_have_no_words_outside_the_translation_function(name: str) -> None:
    source = (ROOT / "templates" / name).read_text(encoding="utf-8")
    parser = _Text()
    parser.feed(re.sub(r"\{#.*?#\}", "", source, flags=re.S))
    assert parser.bare == [], name


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("en-US,en;q=0.9", "en"),
        ("fr-FR,fr;q=0.9,de;q=0.5,en;q=0.4", "de"),
        ("en;q=0.5, de;q=0.8", "de"),
        ("de;q=0, en", "en"),
        ("fr, es", None),
        ("", None),
    ],
)
def test_the_first_language_we_have_by_the_browsers_preference_wins(header: str, lang: str | None) -> None:
    assert from_accept_language(header) == lang


async def test_accept_language_german_gives_german_pages(client: httpx.AsyncClient) -> None:
    for path in ("/", "/rules/ingenious", "/r/doesnotexist"):
        r = await client.get(path, headers={"Accept-Language": "de-DE,de;q=0.9"})
        assert '<html lang="de">' in r.text, path
    home = await client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert "Raum eröffnen" in home.text and "Create room" not in home.text
    missing = await client.get("/r/doesnotexist", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and "Diesen Raum gibt es nicht" in missing.text


async def test_without_a_preference_pages_are_english(client: httpx.AsyncClient) -> None:
    r = await client.get("/")
    assert '<html lang="en">' in r.text and "Create room" in r.text
    r = await client.get("/", headers={"Accept-Language": "fr-FR,fr"})
    assert '<html lang="en">' in r.text


async def test_the_lang_cookie_overrides_the_browser_language(client: httpx.AsyncClient) -> None:
    r = await client.get("/", headers={"Accept-Language": "de", "Cookie": "lang=en"})
    assert '<html lang="en">' in r.text and "Create room" in r.text
    r = await client.get("/", headers={"Accept-Language": "en-US", "Cookie": "lang=de"})
    assert '<html lang="de">' in r.text and "Raum eröffnen" in r.text
    # an unknown value is ignored, not an error
    r = await client.get("/", headers={"Accept-Language": "de", "Cookie": "lang=xx"})
    assert r.status_code == 200 and '<html lang="de">' in r.text


async def test_the_page_carries_its_catalog_for_the_scripts(client: httpx.AsyncClient) -> None:
    r = await client.get("/", headers={"Accept-Language": "de"})
    match = re.search(r'<script type="application/json" id="i18n-catalog">(.*?)</script>', r.text, re.S)
    assert match and json.loads(match.group(1)) == catalog("de")


async def test_the_invite_page_is_german_but_names_stay_as_typed(client: httpx.AsyncClient) -> None:
    created = await client.post("/api/rooms", json={"game": "ingenious", "options": {}, "name": "Ada"})
    room = created.json()
    invite = room["invite_url"].rsplit("/", 1)[-1]
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as guest:
        r = await guest.get(f"/join/{invite}", headers={"Accept-Language": "de"})
    assert "Spiel mit Ada: Einfach Genial" in r.text and "Mitspielen" in r.text


def test_every_key_the_scripts_and_templates_name_is_in_the_catalog() -> None:
    english = catalog("en")
    named: set[tuple[str, str]] = set()
    # t("room.start") in a script (the game modules import it as T), t("home.title") in a template
    call = re.compile(r"""\b[tT]\(\s*["']([a-z][\w.-]*)["']""")
    for folder, pattern in (("static", "*.js"), ("templates", "*.html")):
        for path in (ROOT / folder).rglob(pattern):
            if "admin" in path.parts:
                continue
            named |= {(path.name, key) for key in call.findall(path.read_text(encoding="utf-8"))}
    # "game." ~ id: a prefix that some key must start with
    missing = sorted(
        (name, key)
        for name, key in named
        if key not in english and not (key.endswith(".") and any(k.startswith(key) for k in english))
    )
    assert named and missing == []


@pytest.mark.parametrize("game", ["genius-idea", "ingenious", "brainiac"])
async def test_each_games_rules_are_written_in_german_too(client: httpx.AsyncClient, game: str) -> None:
    german = await client.get(f"/rules/{game}", headers={"Accept-Language": "de"})
    english = await client.get(f"/rules/{game}", headers={"Accept-Language": "en"})
    assert "in einer Minute" in german.text and "in one minute" not in german.text
    assert "in one minute" in english.text
