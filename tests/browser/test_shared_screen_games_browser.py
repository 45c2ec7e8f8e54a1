"""Whole games watched on the shared screen in real Chromium (docs/product.md, "Party night"):
the host on a laptop opens the shared screen on a 1920x1080 TV (and on a 1280x720 one: a 720p
TV, or a laptop's screen shared), a friend joins on a phone,
a bot takes the third seat, and the people play Genius Idea, then Brainiac, to the end through
their pages. The screen shows every round's reveal (the last one's, which the game's end skips
on the players' pages, with the final result), each whole within the TV's height with nobody
to scroll it, the players' list or the result beside it, and never anything private: every frame its
socket gets is exactly a spectator's view of the game's log at that seq with nothing secret in
it (tests/hidden_info.py), and no private value the phone showed its player ever appears in
the screen's text."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Locator, Page, ViewportSize, WebSocket, expect
from playwright.async_api import Error as PlaywrightError
from test_brainiac_browser import step as brainiac_step
from test_genius_idea_browser import step as genius_step

from browser_rooms import PHONE, PHONES, can_use, close_all, continue_reveal, drawn_box, open_room, press, screen_path
from geniusnight.engines import get_engine
from geniusnight.server.play.outbound import expand
from geniusnight.server.play.patches import apply_patch
from hidden_info import check_view, secret_texts
from support import ServerProcess

ADMIN = {"Authorization": "Bearer " + "t" * 32}  # support.ServerProcess's admin token
# keeps, in the screen page, every text its body has held (each change of the DOM)
RECORD_TEXTS = """
window.screenTexts = new Set();
document.addEventListener("DOMContentLoaded", () => {
  const keep = () => window.screenTexts.add(document.body.textContent);
  new MutationObserver(keep).observe(document.body, { childList: true, subtree: true, characterData: true });
  keep();
});
"""

Step = Callable[[Page, int], Awaitable[bool]]
LAST_GI_ANSWER = '[data-testid="gi-history"] li:last-child strong'  # the last round's answer, once over
GI_POINTS = '[data-testid="reveal"] [data-testid="gi-reveal-points"]'  # a reveal's "Points: ..." line
# a reveal's lowest line of points: the last player's, with why they got them
BQ_POINTS = '[data-testid="bq-reveal-screen"] .bq-reveal-row:last-child'


# a TV, and a 720p TV or a laptop's screen shared on it
TV_SIZES = pytest.mark.parametrize(
    "tv",
    [ViewportSize(width=1920, height=1080), ViewportSize(width=1280, height=720)],
    ids=["1920x1080", "1280x720"],
)


class SharedScreen:
    """The host's "Open shared screen" link, opened on the TV (a page of ``size``) in a browser of
    its own (a page in the host's browser would be a background tab there, and Chromium slows
    the host's page down). Every frame its socket receives is kept, and every text its page
    has shown."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        page.on("websocket", self._watch)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(expand(json.loads(payload))))

    @classmethod
    async def open(cls, browser: Browser, host: Page, base: str, size: ViewportSize) -> SharedScreen:
        href = await screen_path(host)
        page = await (await browser.new_context(viewport=size)).new_page()
        await page.add_init_script(RECORD_TEXTS)
        screen = cls(page)
        await page.goto(base + href)
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
        await expect(page.get_by_test_id("screen-players")).to_contain_text("Ada")
        return screen

    async def texts(self) -> list[str]:
        return await self.page.evaluate("[...window.screenTexts]")


async def friend_joins_on_a_phone(browser: Browser, host: Page, screen: SharedScreen) -> Page:
    """Grace opens the invite on her phone, joins, and the screen lists her."""
    invite = await host.get_by_test_id("invite-url").input_value()
    phone = await (await browser.new_context(**PHONE)).new_page()  # type: ignore[arg-type]
    PHONES.add(phone)
    await phone.goto(invite)
    await phone.get_by_test_id("join-name").fill("Grace")
    await press(phone.get_by_test_id("join-room"))
    await expect(phone.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(screen.page.get_by_test_id("screen-players")).to_contain_text("Grace")
    return phone


async def add_bot_and_start(host: Page, screen: SharedScreen, pages: list[Page]) -> str:
    """The host adds one bot (the game's default kind) and starts; returns the bot's name."""
    await press(host.get_by_test_id("add-bot"))
    await expect(host.get_by_test_id("seats").locator("li")).to_have_count(3)
    await expect(screen.page.get_by_test_id("screen-players").locator("li")).to_have_count(3)
    bot = await screen.page.locator('[data-testid="screen-players"] li[data-seat="2"] .name').text_content()
    await press(host.get_by_test_id("start"))
    for page in pages:
        await expect(page.get_by_test_id("room-status")).to_contain_text("Playing")
    return bot or ""


async def play_watched(
    pages: list[Page],
    screen: SharedScreen,
    step: Step,
    result_testid: str,
    same_on_screen: str,
    last_on_page: str,
    points_on_screen: str,
    look: Callable[[int], Awaitable[None]] | None = None,
    limit: int = 1500,
) -> list[int]:
    """The people play until their result shows. Each round's reveal is seen on the screen
    before anyone presses Continue: its round and ``same_on_screen`` (a selector in the reveal)
    as the player's page shows them, and the whole reveal down to its points
    (``points_on_screen``) on the TV without scrolling. The last round's, which the game's end
    skips on the players' pages, is seen on the screen with the result: its round, and
    ``same_on_screen`` as ``last_on_page`` (a selector in the player's page, once over) shows
    it. Returns the rounds whose reveal the screen showed, the last included."""
    rounds: list[int] = []
    for n in range(limit):
        if await pages[0].get_by_test_id(result_testid).is_visible():
            last = await last_reveal_on_screen(
                pages[0], screen, result_testid, same_on_screen, last_on_page, points_on_screen
            )
            return [*rounds, last]
        if look is not None:
            await look(n)
        acted = False
        for page in pages:
            if await can_use(page, '[data-testid="reveal-continue"]'):
                title = await page.get_by_test_id("reveal-title").text_content(timeout=5000) or ""
                match = re.match(r"Round (\d+)", title)
                assert match, title
                if int(match[1]) not in rounds:
                    shown = await page.locator(same_on_screen).text_content(timeout=5000) or ""
                    await expect(screen.page.get_by_test_id("reveal-title")).to_have_text(
                        re.compile(rf"^Round {match[1]}\b")
                    )
                    await expect(screen.page.locator(same_on_screen)).to_have_text(shown)
                    await in_sight(screen.page, screen.page.get_by_test_id("reveal"))
                    await in_sight(screen.page, screen.page.locator(points_on_screen))
                    await in_sight(screen.page, screen.page.get_by_test_id("screen-players"))
                    await in_sight(screen.page, screen.page.get_by_test_id("screen-qr"))
                    await nothing_focused(screen.page)
                    rounds.append(int(match[1]))
                acted = await continue_reveal(page) or acted
            acted = await step(page, n) or acted
        if not acted:
            await pages[0].wait_for_timeout(50)
    raise AssertionError("the game did not end")


async def last_reveal_on_screen(
    page: Page, screen: SharedScreen, result_testid: str, same_on_screen: str, last_on_page: str, points: str
) -> int:
    """The game is over: the screen shows the result and, with it, the last round's reveal
    (nobody to wait for, no Continue, no clock), as ``page`` tells of that round, both whole
    on the TV down to the reveal's points (``points``). Returns its round."""
    await expect(screen.page.get_by_test_id(result_testid)).to_be_visible()
    await expect(screen.page.get_by_test_id("screen-winner")).to_be_visible()
    title = screen.page.get_by_test_id("reveal-title")
    await expect(title).to_have_text(re.compile(r"^Round \d+\b"))
    match = re.match(r"Round (\d+)", await title.text_content() or "")
    assert match
    await expect(screen.page.locator(same_on_screen)).to_have_text(
        await page.locator(last_on_page).text_content() or ""
    )
    for testid in ("reveal-continue", "reveal-waiting", "reveal-count"):
        assert await screen.page.get_by_test_id(testid).count() == 0, testid
    for shown in ("screen-result", "screen-winner", "reveal", "screen-qr"):
        await in_sight(screen.page, screen.page.get_by_test_id(shown))
    await in_sight(screen.page, screen.page.locator(points))
    await nothing_focused(screen.page)
    return int(match[1])


async def in_sight(page: Page, loc: Locator) -> None:
    """``loc`` is wholly inside the page's viewport as it first opened, unscrolled: a TV has
    nobody to scroll it."""
    box = await drawn_box(loc)
    size = page.viewport_size
    assert box is not None and size is not None
    scrolled = await page.evaluate("[scrollX, scrollY]")
    assert scrolled == [0, 0], f"the screen scrolled to {scrolled}"
    bottom, right = box["y"] + box["height"], box["x"] + box["width"]
    inside = box["y"] >= 0 and box["x"] >= 0 and bottom <= size["height"] and right <= size["width"]
    text = (await loc.inner_text())[:60]
    assert inside, f"{text!r} spans {box} on a {size['width']}x{size['height']} screen"


async def nothing_focused(page: Page) -> None:
    """Nobody holds the TV's keyboard: the reveal puts the focus on no element there (whose
    focus ring would box in a line of the board), as it does on a player's page."""
    focused = await page.evaluate("document.activeElement && document.activeElement.outerHTML.slice(0, 80)")
    assert focused is None or focused.startswith("<body"), f"the shared screen focused {focused}"


async def logged_states(base: str, engine_id: str, game_id: int) -> list[Any]:
    """The game's state at every seq, replayed from the admin's export of its log."""
    async with httpx.AsyncClient(base_url=base) as c:
        export = (await c.get(f"/api/admin/games/{game_id}/export", headers=ADMIN)).json()
    engine = get_engine(engine_id)
    g = export["game"]
    states = [engine.setup(g["players"], g["options"], g["seed"])]
    for entry in export["log"]:
        states.append(engine.apply(states[-1], entry["seat"], entry["action"]))
    return states


def strings(value: Any) -> set[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


async def screen_saw_nothing_private(
    base: str, engine_id: str, screen: SharedScreen, seen_on_phone: set[str], word: bool
) -> dict[str, Any]:
    """Every view the screen's socket got (a patch: the view it makes) is the spectator's
    view of the log at its seq, the game's oracle finds nothing secret in it or in the frame,
    and no frame is a seat's (``you``) or an ``error``. Of the values the phone showed its
    player, those no spectator's view ever held appear in no text the screen showed (as
    whole words with ``word``). Returns the last view."""
    frames = screen.frames
    assert not [f for f in frames if f["type"] in ("you", "error", "kicked")]
    game_ids = {f["game_id"] for f in frames if f["type"] == "state"}
    assert len(game_ids) == 1, game_ids
    states = await logged_states(base, engine_id, game_ids.pop())
    engine = get_engine(engine_id)
    rng = random.Random(7)
    held: dict[str, Any] = {}
    views: list[tuple[int, Any]] = []
    for frame in frames:
        if frame["type"] not in ("state", "patch"):
            continue
        assert frame.get("seat") is None  # a state's seat is None; a patch keeps it
        seq = frame["seq"]
        text = json.dumps(frame)
        for secret in secret_texts(engine_id, states[seq], None):
            assert secret not in text, f"the screen's frame at seq {seq} holds the secret {secret}"
        if frame["type"] == "state":
            held = frame
        elif held.get("seq") == frame["base"]:
            held = {**held, "seq": seq, "view": apply_patch(held["view"], frame["ops"])}
        else:
            continue  # a patch that did not fit: the page asks for the whole view again
        views.append((seq, held["view"]))
    assert len(views) > 10
    public: set[str] = set()
    for seq, view in views:
        assert view == json.loads(json.dumps(engine.view(states[seq], None)))
        check_view(engine_id, states[seq], None, view, rng)
    for state in states:
        public |= strings(json.loads(json.dumps(engine.view(state, None))))
    private = seen_on_phone - public
    assert private, "the phone showed nothing private to check the screen against"
    texts = await screen.texts()
    assert len(texts) > 10
    for value in private:
        pattern = re.compile(rf"\b{re.escape(value)}\b" if word else re.escape(value))
        shown = [t for t in texts if pattern.search(t)]
        assert not shown, f"the screen showed {value!r}, private to the phone's player"
    assert screen.errors == []
    return views[-1][1]


async def expect_winner_on_screen(screen: SharedScreen, result: dict[str, Any], names: list[str]) -> None:
    winners = [names[s] for s in result["winners"]]
    text = f"{winners[0]} wins!" if len(winners) == 1 else f"{', '.join(winners)} win!"
    await expect(screen.page.get_by_test_id("screen-winner")).to_have_text(text)
    for name in names:
        await expect(screen.page.get_by_test_id("screen-result")).to_contain_text(name)


@TV_SIZES
async def test_a_genius_idea_game_on_the_shared_screen(
    server: ServerProcess, browser: Browser, tv: ViewportSize
) -> None:
    (host,) = await open_room(browser, server.base, "genius-idea", ["Ada"], phone_first=False, start=False)
    screen = await SharedScreen.open(browser, host, server.base, tv)
    phone = await friend_joins_on_a_phone(browser, host, screen)
    pages = [host, phone]
    bot = await add_bot_and_start(host, screen, pages)
    # three players: competitive, one riddle each, three rounds
    hand = phone.get_by_test_id("gi-prepare").locator("[data-word]")
    await expect(hand).to_have_count(10)
    phone_words = {await card.get_attribute("data-word") or "" for card in await hand.all()}
    await expect(screen.page.get_by_test_id("gi-round")).to_have_text("Round 1 of 3")

    rounds = await play_watched(
        pages, screen, genius_step, "gi-result", '[data-testid="gi-reveal-answer"]', LAST_GI_ANSWER, GI_POINTS
    )
    assert rounds == [1, 2, 3]  # every round's reveal, the last one's with the result
    await expect(screen.page.get_by_test_id("gi-result")).to_be_visible()
    history = screen.page.get_by_test_id("gi-history").locator("[data-round]")
    await expect(history).to_have_count(3)
    answers = await phone.get_by_test_id("gi-history").locator("[data-round] strong").all_text_contents()
    await expect(history.locator("strong")).to_have_text(answers)

    last = await screen_saw_nothing_private(server.base, "genius-idea", screen, phone_words, word=True)
    await expect_winner_on_screen(screen, last["result"], ["Ada", "Grace", bot])
    await screen.page.context.close()
    await close_all(pages)


# six cards of four questions, each question its own text, all answered "the eye"; with
# ``shuffle`` off the cards are dealt in this order and the secret cards are the fixed deal
HURRICANE = "What is the calm centre of a hurricane called?"
CARDS = [[{"q": f"{HURRICANE} (card {c}, question {j})", "a": ["Eye", "The eye"]} for j in range(4)] for c in range(6)]
QUESTION_SHOWN = '[data-testid="bq-reveal-screen"] .bq-qtext'  # the question a reveal is about
LAST_BQ_QUESTION = '[data-testid="bq-reveal"] .bq-qtext'  # the last round's, on a player's page once over


async def upload_cards(host: Page) -> None:
    """In the lobby the host loads the question pack from a file."""
    pack = json.dumps(CARDS).encode()
    async with host.expect_response(lambda r: "/options/cards/file" in r.url) as answer:
        await host.get_by_test_id("file-cards").set_input_files(
            files=[{"name": "hurricanes.json", "mimeType": "application/json", "buffer": pack}]
        )
    response = await answer.value
    assert response.ok, await response.text()
    await expect(host.locator("#toasts")).to_contain_text("Loaded hurricanes.json")


async def brainiac_move(page: Page, n: int) -> bool:
    """A person's move: Grace (on the phone) knows the answer; disputes are let stand."""
    try:
        if await can_use(page, '[data-testid="bq-dispute-done"]'):
            await press(page.get_by_test_id("bq-dispute-done"))
            return True
        if page in PHONES and await can_use(page, '[data-testid="bq-answer-input"]'):
            identity = await page.get_by_test_id("bq-identity").get_attribute("data-identity")
            if identity != "idiot":
                await page.get_by_test_id("bq-answer-input").fill("the eye")
                await press(page.get_by_test_id("bq-answer-submit"))
                await expect(page.get_by_test_id("bq-answer-input")).to_be_hidden()
                return True
    except PlaywrightError:
        return False
    return await brainiac_step(page, n)


@TV_SIZES
async def test_a_brainiac_game_on_the_shared_screen(server: ServerProcess, browser: Browser, tv: ViewportSize) -> None:
    options = {"shuffle": False}
    (host,) = await open_room(browser, server.base, "brainiac", ["Ada"], options, phone_first=False, start=False)
    await upload_cards(host)
    screen = await SharedScreen.open(browser, host, server.base, tv)
    phone = await friend_joins_on_a_phone(browser, host, screen)
    pages = [host, phone]
    bot = await add_bot_and_start(host, screen, pages)
    await expect(phone.get_by_test_id("bq-card")).to_contain_text(f"{HURRICANE} (card 1, question 0)")

    # the questions on Grace's own card, read off her phone whenever it shows one
    phone_questions: set[str] = set()

    async def read_phone_card(n: int) -> None:
        try:
            if await phone.get_by_test_id("bq-card").is_visible():
                phone_questions.update(await phone.locator('[data-testid="bq-card"] .bq-qtext').all_text_contents())
        except PlaywrightError:
            pass  # the card went away under our eyes; it is read again

    rounds = await play_watched(
        pages, screen, brainiac_move, "bq-result", QUESTION_SHOWN, LAST_BQ_QUESTION, BQ_POINTS, look=read_phone_card
    )
    # every round's reveal, the last one's with the result; the log has them all
    assert rounds == list(range(1, len(rounds) + 1)) and len(rounds) >= 6, rounds
    await expect(screen.page.locator('[data-testid^="bq-log-"]')).to_have_count(len(rounds))

    last = await screen_saw_nothing_private(server.base, "brainiac", screen, phone_questions, word=False)
    assert len(last["history"]) == len(rounds)
    await expect_winner_on_screen(screen, last["result"], ["Ada", "Grace", bot])
    await screen.page.context.close()
    await close_all(pages)


@TV_SIZES
async def test_a_six_player_brainiac_reveal_is_whole_on_the_tv(
    server: ServerProcess, browser: Browser, tv: ViewportSize
) -> None:
    """Brainiac's biggest table, six players (Ada and five bots): a round's reveal has a line
    for each, and it is still whole on the TV with the players' list beside it."""
    (host,) = await open_room(browser, server.base, "brainiac", ["Ada"], phone_first=False, start=False)
    screen = await SharedScreen.open(browser, host, server.base, tv)
    for count in range(2, 7):
        await press(host.get_by_test_id("add-bot"))
        await expect(screen.page.get_by_test_id("screen-players").locator("li")).to_have_count(count)
    await press(host.get_by_test_id("start"))
    for n in range(600):
        if await screen.page.get_by_test_id("reveal").count():
            break
        if not await brainiac_move(host, n):
            await host.wait_for_timeout(50)
    else:
        raise AssertionError("no round's reveal on the screen")
    await expect(screen.page.locator('[data-testid="bq-reveal-screen"] .bq-reveal-row')).to_have_count(6)
    for shown in ("reveal", "screen-players", "screen-qr"):
        await in_sight(screen.page, screen.page.get_by_test_id(shown))
    await in_sight(screen.page, screen.page.locator(BQ_POINTS))
    await nothing_focused(screen.page)
    await screen.page.context.close()
    await close_all([host])
