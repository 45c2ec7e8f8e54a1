"""A German Genius Idea game in real Chromium (docs/rules/genius-idea.md, "Options"): a host
whose page is German and a guest whose page is English play a room whose cards are German,
with a bot filling the third seat, to the end; both are dealt German cards and keep their
pages' own language."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect
from test_genius_idea_browser import play_to_the_end

from browser_rooms import DESKTOP, close_all, press
from geniusnight.engines.genius_idea.similarity import builtin_words
from support import ServerProcess


async def page_in(browser: Browser, base: str, lang: str) -> Page:
    """A laptop browser whose page language is ``lang`` (the language switch's cookie)."""
    context = await browser.new_context(**DESKTOP)  # type: ignore[arg-type]
    await context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return await context.new_page()


async def dealt_words(page: Page) -> list[str]:
    cards = page.get_by_test_id("gi-prepare").locator("[data-word]")
    await expect(cards).to_have_count(10)
    return [w for w in await cards.evaluate_all("els => els.map(e => e.dataset.word)")]


async def test_a_german_room_is_played_to_the_end_with_german_cards_on_a_german_and_an_english_page(
    server: ServerProcess, browser: Browser
) -> None:
    host = await page_in(browser, server.base, "de")
    await host.goto(server.base + "/")
    await host.get_by_test_id("game-genius-idea").check(force=True)
    await host.get_by_test_id("opt-language").select_option("de")
    await host.get_by_test_id("host-name").fill("Ada")
    await press(host.get_by_test_id("create-room"))
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    invite = await host.get_by_test_id("invite-url").input_value()
    guest = await page_in(browser, server.base, "en")
    await guest.goto(invite)
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(guest.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await host.get_by_test_id("bot-kind").select_option("sharp")
    await press(host.get_by_test_id("add-bot"))
    await expect(host.get_by_test_id("seats").locator("li")).to_have_count(3)
    await press(host.get_by_test_id("start"))
    pages = [host, guest]

    german = set(builtin_words("de"))
    hands = [await dealt_words(page) for page in pages]
    assert all(set(hand) <= german for hand in hands), hands
    assert not set(hands[0]) & set(hands[1])  # each seat its own 10 cards
    await expect(host.locator("html")).to_have_attribute("lang", "de")
    await expect(guest.locator("html")).to_have_attribute("lang", "en")

    await play_to_the_end(pages)
    for page in pages:
        await expect(page.get_by_test_id("gi-result")).to_be_visible()
        history = page.get_by_test_id("gi-history").locator("[data-round]")
        await expect(history).to_have_count(3)  # a round per player
        answers = await history.locator("strong").all_text_contents()  # each round's answer
        assert len(answers) == 3 and set(answers) <= german, answers
    await close_all(pages)
