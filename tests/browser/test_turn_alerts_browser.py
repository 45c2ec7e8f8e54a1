"""Turn alerts: off by default; switched on with the room's toggle (remembered in this
browser), a sound and a vibration come when the turn comes and when the clock runs low."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, Page, expect

from browser_rooms import close_all, open_room
from support import ServerProcess

# Records what the page plays: each WebAudio note (its pitch) and each vibration pattern.
RECORD = """
window.__cues = [];
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() {
    const osc = super.createOscillator();
    const start = osc.start.bind(osc);
    osc.start = (t) => { window.__cues.push(["note", osc.frequency.value]); start(t); };
    return osc;
  }
};
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value(pattern) { window.__cues.push(["buzz", pattern]); return true; },
});
"""


async def cues(page: Page) -> list[Any]:
    return list(await page.evaluate("window.__cues"))


async def recording(page: Page) -> None:
    await page.context.add_init_script(RECORD)
    await page.reload()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")


async def test_turn_alerts_are_off_by_default_remembered_when_on_and_sound_at_the_turn_and_the_low_clock(
    server: ServerProcess, browser: Browser
) -> None:
    pages = await open_room(browser, server.base, "count21", ["Ada", "Grace"], phone_first=False, start=False)
    host, guest = pages
    for page in pages:
        await recording(page)
        await expect(page.get_by_test_id("turn-alerts")).to_have_attribute("aria-pressed", "false")

    # Grace switches the alerts on: one cue plays at once, so she knows what it sounds like
    await guest.get_by_test_id("turn-alerts").click()
    await expect(guest.get_by_test_id("turn-alerts")).to_have_attribute("aria-pressed", "true")
    assert await cues(guest) == [["note", 660], ["note", 880], ["buzz", 120]]
    # the choice outlives the page
    await guest.reload()
    await expect(guest.get_by_test_id("turn-alerts")).to_have_attribute("aria-pressed", "true")
    await guest.get_by_test_id("chat-input").click()  # a tap lets the page make sound again

    # 11 s a turn: the clock runs under 10 s one second into each turn
    room = await host.evaluate("document.getElementById('room').dataset.roomId")
    status = await host.evaluate(
        """async (room) => (await fetch(`/api/rooms/${room}`, {method: "PATCH", credentials: "same-origin",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({time_limits: {play: 11}})})).status""",
        room,
    )
    assert status == 200
    await host.get_by_test_id("start").click()
    await expect(host.get_by_test_id("turn")).to_have_text("your turn")
    await host.get_by_test_id("add-3").click()
    await expect(guest.get_by_test_id("turn")).to_have_text("your turn")
    await expect(guest).to_have_title("● Your turn · Count to 21 · Genius Night")
    # a function, not an expression: the page's content security policy forbids eval
    await guest.wait_for_function("() => window.__cues.length >= 7", timeout=5000)
    assert await cues(guest) == [
        ["note", 660], ["note", 880], ["buzz", 120],  # the turn came
        ["note", 520], ["note", 520], ["note", 520], ["buzz", [60, 60, 60, 60, 60]],  # under 10 s
    ]  # fmt: skip
    # a screen reader hears the low clock too
    await expect(guest.get_by_test_id("announcer")).to_contain_text("10 seconds left.")
    # Ada never switched them on: her turn came in silence (the title still says it)
    assert await cues(host) == []
    await close_all(pages)
