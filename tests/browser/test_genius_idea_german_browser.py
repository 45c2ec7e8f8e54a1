"""A German Genius Idea game in real Chromium (docs/rules/genius-idea.md, "Options"): a host
whose page is German and a guest whose page is English play a room whose cards are German,
with a bot filling the third seat, to the end; both are dealt German cards and keep their
pages' own language."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect
from test_genius_idea_browser import play_to_the_end

from browser_rooms import close_all, open_room
from geniusnight.engines.genius_idea.similarity import builtin_words
from support import ServerProcess


async def dealt_words(page: Page) -> list[str]:
    cards = page.get_by_test_id("gi-prepare").locator("[data-word]")
    await expect(cards).to_have_count(10)
    return [w for w in await cards.evaluate_all("els => els.map(e => e.dataset.word)")]


async def test_a_german_room_is_played_to_the_end_with_german_cards_on_a_german_and_an_english_page(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(
        browser,
        server.base,
        "genius-idea",
        ["Ada", "Grace"],
        options={"language": "de"},
        bots=["sharp"],
        phone_first=False,
        langs=["de", "en"],
    )
    host, guest = pages

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
