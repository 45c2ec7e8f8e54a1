"""The language of the cards in real Chromium (docs/i18n.md, "Game content in several
languages"): the create form starts with the host's page language, and a German Brainiac game
is played to the end by a German host, an English guest and a bot, both people seeing the
same German questions on pages that keep their own language."""

from __future__ import annotations

import contextlib
import re

from playwright.async_api import Browser, Page, expect
from playwright.async_api import Error as PlaywrightError

from browser_rooms import DESKTOP, can_use, close_all, continue_reveal, open_room, press
from geniusnight.engines.brainiac import packs
from support import ServerProcess


async def page_in(browser: Browser, base: str, lang: str) -> Page:
    """A laptop browser whose page language is ``lang`` (the EN | DE switch's cookie)."""
    context = await browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    await context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return await context.new_page()


async def step(page: Page, n: int) -> bool:
    """One move of whatever this person is asked to do now, if anything."""
    try:
        for test_id in ("bq-keep", "bq-judge-confirm", "bq-accuse-none", "bq-dispute-done"):
            if await can_use(page, f'[data-testid="{test_id}"]'):
                await press(page.get_by_test_id(test_id))
                return True
        asks = page.locator('[data-testid^="bq-ask-"]:not([disabled])')
        if await asks.count() and await asks.first.is_visible():
            await press(asks.first)
            return True
        if await can_use(page, '[data-testid="bq-answer-input"]'):
            await page.get_by_test_id("bq-answer-input").fill(f"keine Ahnung {n}")
            await press(page.get_by_test_id("bq-answer-submit"))
            await expect(page.get_by_test_id("bq-answer-input")).to_be_hidden()
            return True
    except PlaywrightError:
        return False
    return False


async def test_the_create_form_starts_with_the_hosts_page_language(server: ServerProcess, browser: Browser) -> None:
    for lang, label, choice in (("de", "Sprache der Karten", "Deutsch"), ("en", "Language of the cards", "English")):
        page = await page_in(browser, server.base, lang)
        await page.goto(server.base + "/")
        await page.get_by_test_id("game-brainiac").check(force=True)
        select = page.get_by_test_id("opt-language")
        await expect(select).to_have_value(lang)
        await expect(select.locator("option:checked")).to_have_text(choice)
        await expect(page.locator("label.field", has=select)).to_contain_text(label)
        await expect(select.locator("option")).to_have_text(["English", "Deutsch"])  # each in itself
        await page.context.close()


async def test_a_german_game_is_played_to_the_end_with_german_questions_on_both_pages(
    server: ServerProcess, browser: Browser
) -> None:
    # no language picked: the room takes the host's page language
    pages = await open_room(
        browser,
        server.base,
        "brainiac",
        ["Ada", "Grace"],
        bots=["trivia"],
        phone_first=False,
        langs=["de", "en"],
        start=False,
    )
    host, guest = pages
    await expect(host.get_by_test_id("opt-language")).to_have_value("de")  # the lobby's form: the room's choice
    await press(host.get_by_test_id("start"))
    await expect(host.locator("html")).to_have_attribute("lang", "de")
    await expect(guest.locator("html")).to_have_attribute("lang", "en")

    german = {q["q"] for card in packs.load_builtin_cards("de") for q in card}
    seen: set[str] = set()
    for n in range(1500):
        if await host.get_by_test_id("bq-result").is_visible():
            break
        acted = False
        shown = []
        for page in pages:
            box = page.locator('[data-testid="bq-question"] .bq-qbig')
            if await box.count():
                with contextlib.suppress(PlaywrightError):
                    shown.append(await box.first.text_content(timeout=200))
            acted = await continue_reveal(page) or acted
            acted = await step(page, n) or acted
        for text in shown:
            assert text in german, text
            seen.add(text or "")
        if not acted:
            await host.wait_for_timeout(50)
    for page in pages:
        await expect(page.get_by_test_id("bq-result")).to_be_visible()
    assert len(seen) >= 9  # a question a round, everyone Genius three times at a table of three
    # the same German questions, told in each page's own words
    await expect(guest.get_by_test_id("announcer")).to_contain_text(re.compile(r"Round \d+ .*asked “"))
    await expect(host.get_by_test_id("announcer")).to_contain_text(re.compile(r"Runde \d+.* fragte „"))
    await close_all(pages)
