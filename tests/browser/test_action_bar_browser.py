"""On a phone the control a person needs now is always on screen: through every phase of a
Genius Idea and a Brainiac game, on a 360x640 and a 390x844 touch phone, the page opened at
its top shows that control whole inside the screen without scrolling (the bar fixed at the
bottom of the screen, static/app.css ``.action-bar``), and the bar covers none of the board
once the page is scrolled to its end.

With GENIUSNIGHT_SCREENSHOTS=1 each phase is saved as var/screenshots/action-bar-*.png.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from playwright.async_api import Browser, Locator, Page, expect
from playwright.async_api import Error as PlaywrightError
from test_brainiac_browser import step as brainiac_step
from test_genius_idea_browser import step as genius_step

from browser_rooms import can_use, close_all, continue_reveal, drawn_box, no_sideways_scroll, open_room, press
from support import ServerProcess

SIZES = [(360, 640), (390, 844)]
SHOTS = (
    Path(__file__).resolve().parents[2] / "var" / "screenshots" if os.environ.get("GENIUSNIGHT_SCREENSHOTS") else None
)

# the phase (as the view names it) -> the controls the person acting in it needs now, each
# element matching a selector (the first selector's shows that it is this person's turn in it)
GENIUS_IDEA = {
    "prepare": ["gi-prepare-submit", "gi-prepare-clear"],
    "reveal": ["gi-reveal"],  # each hint the Disruptor may reveal
    "order": ["gi-order-submit"],
    "guess": ["gi-guess-confirm", "gi-pass"],
    "results": ["reveal-continue"],
    "over": ["gi-result"],
}
BRAINIAC = {
    "trade": ["bq-keep", "bq-trade"],
    "ask": ["bq-ask-0", "bq-ask-1", "bq-ask-2", "bq-ask-3"],  # all four levels, the very hard one too
    "answer": ["bq-answer-input", "bq-answer-submit"],
    "judge": ["bq-judge-confirm"],
    "dispute": ["bq-dispute-done", ".bq-dispute"],  # No (more) disputes, each Dispute
    "accuse": ["bq-accuse-none", ".bq-pawn-btn"],  # No one, each player to accuse
    "results": ["reveal-continue"],
    "over": ["bq-result"],
}


def control(page: Page, name: str) -> Locator:
    """A data-testid, or a CSS selector when it starts with a dot."""
    return page.locator(name) if name.startswith(".") else page.get_by_test_id(name)


# the bar leaves the end of the board clear: [where the board's content ends, the bar's top]
BOARD_END_AND_BAR_TOP = """() => {
  const bar = document.querySelector('#game-area .action-bar');
  if (!bar) return null;
  scrollTo(0, document.scrollingElement.scrollHeight);
  const area = document.getElementById('game-area');
  const style = getComputedStyle(area);
  const inside = parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
  const end = area.getBoundingClientRect().bottom - inside;
  return [end, bar.getBoundingClientRect().top];
}"""


async def controls_on_screen(page: Page, game: str, phase: str, testids: list[str], shots: Path | None = SHOTS) -> bool:
    """At the top of the page each control is whole inside the screen; at its end the bar
    hides nothing of the board. False if the phase ended before its controls were measured
    (the first control, which showed it was this person's turn in it, is gone: the person's
    own last tap, sent as the view came, moved the game on): it is checked when it comes again."""
    await no_sideways_scroll(page)  # else the phone zooms out and the screen's edges move
    await page.evaluate("scrollTo(0, 0)")
    height = (page.viewport_size or {"height": 0})["height"]
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
        width = (page.viewport_size or {"width": 0})["width"]
        await page.screenshot(path=str(shots / f"action-bar-{game}-{width}x{height}-{phase}.png"))
    for name in testids:
        found = await control(page, name).all()
        if not found and name == testids[0]:
            return False
        assert found, f"{game} {phase}: no {name} on the page"
        for each in found:
            box = await drawn_box(each)
            assert box is not None, f"{game} {phase}: {name} is not drawn"
            top, bottom = box["y"], box["y"] + box["height"]
            assert top >= 0 and bottom <= height, (
                f"{game} {phase}: {name} is at y {top:.0f}-{bottom:.0f} on a {height} px screen"
            )
    # the bar's height reaches the board's padding a frame after the bar is drawn
    for _ in range(20):
        ends = await page.evaluate(BOARD_END_AND_BAR_TOP)
        if ends is None or ends[0] <= ends[1] + 1:
            break
        await page.wait_for_timeout(50)
    assert ends is None or ends[0] <= ends[1] + 1, (
        f"{game} {phase}: the bar (top {ends[1]:.0f}) covers the board's end ({ends[0]:.0f})"
    )
    await page.evaluate("scrollTo(0, 0)")
    return True


async def current_phase(page: Page, controls: dict[str, list[str]]) -> str | None:
    """The phase whose first control this person sees now (their turn in it), if any."""
    for phase, testids in controls.items():
        try:
            if await control(page, testids[0]).first.is_visible():
                return phase
        except PlaywrightError:
            return None
    return None


Step = Callable[[Page, int], Awaitable[bool]]


async def play_checking_each_phase(
    pages: list[Page],
    game: str,
    controls: dict[str, list[str]],
    step: Step,
    over: str,
    shots: Path | None = SHOTS,
) -> set[str]:
    """Everyone plays on to the result; the phone (``pages[0]``) checks the controls of each
    phase the first time it is the one to act in it (a screenshot of each in ``shots``, if
    given). Returns the phases checked."""
    phone = pages[0]
    checked: set[str] = set()

    async def look() -> str | None:
        """The phone's phase now, its controls checked the first time it comes up."""
        phase = await current_phase(phone, controls)
        if (
            phase is not None
            and phase not in checked
            and await controls_on_screen(phone, game, phase, controls[phase], shots)
        ):
            checked.add(phase)
        return phase

    # the game's module and style sheet load after the start: its first phase drawn, styled
    await expect(control(phone, next(iter(controls.values()))[0])).to_be_visible()
    await phone.wait_for_function("[...document.styleSheets].some((s) => s.href?.includes('/static/games/'))")
    await phone.wait_for_timeout(200)
    for n in range(1500):
        if await look() == "over" or await phone.get_by_test_id(over).is_visible():
            await look()
            return checked
        acted = False
        for page in pages:
            # the phone acts only in a phase it has checked (the view moves on as bots play)
            if page is not phone or await look() is not None:
                acted = await continue_reveal(page) or acted
            if page is not phone or await look() is not None:
                acted = await step(page, n) or acted
        if not acted:
            await phone.wait_for_timeout(50)
    raise AssertionError(f"the game did not end; checked {sorted(checked)}")


async def brainiac_with_disputes(page: Page, n: int) -> bool:
    """A Brainiac player as the game's own browser test plays, who also ends the disputes
    after a bot Genius's verdicts."""
    if await can_use(page, '[data-testid="bq-dispute-done"]'):
        try:
            await press(page.get_by_test_id("bq-dispute-done"))
        except PlaywrightError:
            return False
        return True
    return await brainiac_step(page, n)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_genius_idea_controls_stay_on_a_phones_screen(
    server: ServerProcess, browser: Browser, width: int, height: int
) -> None:
    # the phone and two bots: three rounds, in which the phone is Riddler, Disruptor and Solver.
    # The Riddler orders only from the second hint on; a bot that solves the phone's riddle on
    # its first hint skips that phase, so a game without it (or one whose phase ended before the
    # phone measured it) is followed by another (at most 3).
    checked: set[str] = set()
    for _ in range(3):
        pages = await open_room(browser, server.base, "genius-idea", ["Ada"], bots=["sharp", "sharp"])
        await pages[0].set_viewport_size({"width": width, "height": height})
        checked |= await play_checking_each_phase(pages, "genius-idea", GENIUS_IDEA, genius_step, "gi-result")
        await expect(pages[0].get_by_test_id("gi-history").locator("[data-round]")).to_have_count(3)
        await close_all(pages)
        if checked == set(GENIUS_IDEA):
            break
    assert checked == set(GENIUS_IDEA)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_brainiac_controls_stay_on_a_phones_screen(
    server: ServerProcess, browser: Browser, width: int, height: int
) -> None:
    # the phone, a laptop and a bot: the bot's rounds as Genius have the two people dispute
    pages = await open_room(browser, server.base, "brainiac", ["Ada", "Grace"], bots=["trivia"])
    await pages[0].set_viewport_size({"width": width, "height": height})
    checked = await play_checking_each_phase(pages, "brainiac", BRAINIAC, brainiac_with_disputes, "bq-result")
    assert checked == set(BRAINIAC)
    await close_all(pages)
