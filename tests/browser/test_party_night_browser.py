"""The party night in real Chromium (docs/product.md, "Party night"): the host on a laptop
opens the shared screen, a friend on a phone joins by typing the room code on the home page,
they play, the screen shows the code, the board and the result and never anything private,
and "my rooms" brings the friend back to their seat."""

from __future__ import annotations

import json
import re

from playwright.async_api import Browser, WebSocket, expect

from browser_rooms import PHONE, PHONES, close_all, no_sideways_scroll, open_room, press, screen_path
from geniusnight.server.play.outbound import expand
from support import ServerProcess


async def test_a_living_room_plays_by_code_with_a_shared_screen(server: ServerProcess, browser: Browser) -> None:
    (host,) = await open_room(browser, server.base, "count21", ["Ada"], phone_first=False, start=False)
    room_id = host.url.rstrip("/").rsplit("/", 1)[1]

    # the lobby: the code to read out, the invite as a QR code, the shared screen's link
    code_text = (await host.get_by_test_id("room-code").text_content() or "").strip()
    assert re.fullmatch(r"[A-Z0-9]{3} [A-Z0-9]{3}", code_text), code_text
    code = code_text.replace(" ", "")
    await expect(host.get_by_test_id("invite-qr")).to_be_visible()
    assert await host.get_by_test_id("invite-qr").evaluate("img => img.naturalWidth > 0")
    link = host.get_by_test_id("open-screen")
    await expect(link).to_have_attribute("href", re.compile(rf"^/r/{room_id}/screen#[0-9a-f]{{32}}$"))
    await expect(link).to_have_attribute("target", "_blank")

    # the host opens the screen in a second page; every frame its socket gets is kept
    screen = await host.context.new_page()
    frames: list[dict] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(expand(json.loads(payload))))

    screen.on("websocket", watch)
    errors: list[str] = []
    screen.on("pageerror", lambda e: errors.append(str(e)))
    await screen.goto(server.base + (await link.get_attribute("href") or ""))
    await expect(screen.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(screen.get_by_test_id("screen-code")).to_have_text(code_text)
    await expect(screen.get_by_test_id("screen-qr")).to_be_visible()
    await expect(screen.get_by_test_id("screen-players")).to_contain_text("Ada")

    # a friend on a phone types the code on the home page, in small letters, with a space
    phone_ctx = await browser.new_context(**PHONE)  # type: ignore[arg-type]
    phone = await phone_ctx.new_page()
    PHONES.add(phone)
    await phone.goto(server.base + "/")
    await phone.get_by_test_id("code-input").fill("QQQ QQQ")
    await press(phone.get_by_test_id("code-join"))
    await expect(phone.get_by_test_id("code-error")).to_have_text("No room has that code. Check it with the host.")
    await phone.get_by_test_id("code-input").fill(f"{code[:3].lower()} {code[3:].lower()}")
    await press(phone.get_by_test_id("code-join"))
    await expect(phone.get_by_test_id("join-title")).to_have_text("Join Ada’s game of Count to 21")
    await phone.get_by_test_id("join-name").fill("Grace")
    await press(phone.get_by_test_id("join-room"))
    await expect(phone.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    assert phone.url == f"{server.base}/r/{room_id}"
    await no_sideways_scroll(phone)
    await expect(screen.get_by_test_id("screen-players")).to_contain_text("Grace")

    await press(host.get_by_test_id("start"))
    await expect(screen.get_by_test_id("counter")).to_have_text("0")
    await expect(screen.get_by_test_id("screen-players").locator("li.to-act")).to_have_text(re.compile("Ada"))

    # Ada plays; Grace lost her tab: "my rooms" on the home page takes her back to her seat
    await host.get_by_test_id("add-3").click()
    await expect(screen.get_by_test_id("counter")).to_have_text("3")
    await phone.goto(server.base + "/")
    entry = phone.get_by_test_id(f"my-room-{room_id}")
    await expect(entry).to_contain_text("Your turn")
    await expect(entry).to_contain_text("Ada, Grace")
    await no_sideways_scroll(phone)
    await press(phone.get_by_test_id(f"my-room-open-{room_id}"))
    await expect(phone.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(phone.get_by_test_id("seats").locator("li.me")).to_contain_text("Grace")
    await expect(phone.get_by_test_id("turn")).to_have_text("your turn")

    # they play to the end, taking turns: +3 each
    pages = [host, phone]
    for move in range(1, 7):
        page = pages[move % 2]
        await expect(page.get_by_test_id("turn")).to_have_text("your turn")
        await press(page.get_by_test_id("add-3"))
        await expect(screen.get_by_test_id("counter")).to_have_text(str(min(21, 3 * (move + 1))))
    # 21 reached on Ada's move: the screen shows the moment the room watches together
    await expect(screen.get_by_test_id("screen-winner")).to_have_text("Ada wins!")
    await expect(screen.get_by_test_id("screen-result")).to_contain_text("Grace")
    await expect(screen.get_by_test_id("screen-code")).to_have_text(code_text)

    # the screen got nothing but a spectator's frames: no seat, no one's secret
    views = [f for f in frames if f["type"] in ("state", "patch")]
    assert len(views) >= 8
    assert all(f["seat"] is None for f in views if f["type"] == "state")  # a patch keeps the state's seat
    assert views[0]["type"] == "state"
    assert not [f for f in frames if f["type"] in ("you", "error", "kicked")]
    assert not [f for f in frames if '"secret":' in json.dumps(f)], "a seat's secret reached the screen"
    welcome = next(f for f in frames if f["type"] == "welcome")
    assert welcome["seat"] is None and welcome["you"]["member_id"] is None
    assert errors == []
    await screen.close()
    await close_all([host, phone])


async def test_leaving_a_room_from_my_rooms(server: ServerProcess, browser: Browser) -> None:
    (host,) = await open_room(browser, server.base, "count21", ["Ada"], phone_first=False, start=False)
    room_id = host.url.rstrip("/").rsplit("/", 1)[1]
    await host.goto(server.base + "/")
    entry = host.get_by_test_id(f"my-room-{room_id}")
    await expect(entry).to_contain_text("Count to 21")
    host.once("dialog", lambda dialog: dialog.accept())
    await host.get_by_test_id(f"my-room-leave-{room_id}").click()
    await expect(host.get_by_test_id("my-rooms")).to_be_hidden()
    await host.reload()
    await expect(host.get_by_test_id("my-rooms")).to_be_hidden()
    await close_all([host])


async def test_a_locked_room_shows_no_way_in_on_the_screen(server: ServerProcess, browser: Browser) -> None:
    """While the host has locked the room the shared screen shows neither the code nor the QR
    code nor "Join now!", but that the room is locked; unlocking brings them back."""
    (host,) = await open_room(browser, server.base, "count21", ["Ada"], phone_first=False, start=False)
    screen = await host.context.new_page()
    await screen.goto(server.base + await screen_path(host))
    await expect(screen.get_by_test_id("screen-code")).to_be_visible()
    await expect(screen.get_by_test_id("screen-qr")).to_be_visible()
    await expect(screen.get_by_test_id("screen-waiting")).to_have_text("The game starts soon. Join now!")
    await expect(screen.get_by_test_id("screen-locked")).to_be_hidden()

    await host.get_by_test_id("lock-switch").check()
    await expect(screen.get_by_test_id("screen-locked")).to_have_text("The room is locked: nobody new can join.")
    for testid in ("screen-code", "screen-qr", "screen-code-off", "screen-join-call"):
        await expect(screen.get_by_test_id(testid)).to_be_hidden()
    await expect(screen.get_by_test_id("screen-waiting")).to_have_text("The game starts soon.")
    text = await screen.locator("#screen").inner_text()
    code = await host.get_by_test_id("room-code").text_content() or ""
    assert code not in text and "Join" not in text and "QR" not in text, text

    await host.get_by_test_id("lock-switch").uncheck()
    await expect(screen.get_by_test_id("screen-code")).to_have_text(code)
    await expect(screen.get_by_test_id("screen-qr")).to_be_visible()
    await expect(screen.get_by_test_id("screen-locked")).to_be_hidden()
    await screen.close()
    await close_all([host])
