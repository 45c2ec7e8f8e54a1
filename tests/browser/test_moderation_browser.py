"""The host's moderation tools in real Chromium (docs/product.md, "The host's tools"): the host
on a laptop, a guest and a spectator on 390 px touch phones. The host sees the spectator by
name, mutes the guest (whose chat is then refused, and whose page says so), removes the
spectator (whose page says so), locks the room (a newcomer's join screen says it is locked)
and makes a new invite link (the old one leads nowhere, the page and its QR code show the new
one, and the old shared screen's link is retired)."""

from __future__ import annotations

from playwright.async_api import Browser, Dialog, Page, expect

from browser_rooms import DESKTOP, PHONE, PHONES, close_all, press, screen_path
from support import ServerProcess


async def accept(dialog: Dialog) -> None:
    await dialog.accept()


async def joined(browser: Browser, invite: str, name: str, phone: bool) -> Page:
    """``name`` opens the invite in a browser of their own and joins."""
    page = await (await browser.new_context(**(PHONE if phone else DESKTOP))).new_page()  # type: ignore[arg-type]
    if phone:
        PHONES.add(page)
    await page.goto(invite)
    await page.get_by_test_id("join-name").fill(name)
    await press(page.get_by_test_id("join-room"))
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    return page


async def test_the_host_mutes_removes_locks_and_renews_the_invite(server: ServerProcess, browser: Browser) -> None:
    host = await (await browser.new_context(**DESKTOP)).new_page()  # type: ignore[arg-type]
    host.on("dialog", accept)  # the host confirms each destructive step
    await host.goto(server.base + "/")
    await host.get_by_test_id("game-ingenious").check(force=True)
    await host.get_by_test_id("host-name").fill("Ada")
    await host.get_by_test_id("create-room").click()
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    invite = await host.get_by_test_id("invite-url").input_value()
    guest = await joined(browser, invite, "Grace", phone=True)
    await expect(host.get_by_test_id("seats").locator("li")).to_have_count(2)
    await host.get_by_test_id("start").click()
    watcher = await joined(browser, invite, "Watcher", phone=True)  # the game runs: a spectator
    pages = [host, guest, watcher]

    # the host sees the spectator by name, with Remove and Mute
    spectators = host.get_by_test_id("spectator-list")
    await expect(spectators).to_contain_text("Watcher")
    await expect(spectators.get_by_role("button", name="Remove")).to_be_visible()
    await expect(spectators.get_by_role("button", name="Mute")).to_be_visible()

    # muting the guest: their page says so, and their chat is refused; nobody sees it
    await host.get_by_test_id("mute-1").click()
    await expect(host.get_by_test_id("muted-1")).to_be_visible()
    await press(guest.get_by_test_id("tab-chat"))
    await expect(guest.get_by_test_id("muted-note")).to_be_visible()
    await expect(guest.get_by_test_id("chat-input")).to_be_disabled()
    refused = await guest.evaluate(
        """async (roomId) => {
          const r = await fetch(`/api/rooms/${roomId}/chat`, {method: "POST", credentials: "same-origin",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({text: "can you hear me"})});
          return [r.status, (await r.json()).code];
        }""",
        host.url.rsplit("/", 1)[1],
    )
    assert refused == [403, "chat_muted"]
    await host.get_by_test_id("chat-input").fill("host here")
    await host.get_by_test_id("chat-input").press("Enter")
    await expect(host.get_by_test_id("chat-log")).to_contain_text("host here")
    await expect(host.get_by_test_id("chat-log")).not_to_contain_text("can you hear me")

    # removing the spectator: their page tells them, and they are off the host's list
    await spectators.get_by_role("button", name="Remove").click()
    await expect(watcher.get_by_test_id("gone-note")).to_contain_text("The host removed you from the room.")
    await expect(host.get_by_test_id("spectator-box")).to_be_hidden()

    # a locked room: a newcomer's join screen says so and offers no join
    await host.get_by_test_id("lock-switch").check()
    await expect(host.get_by_test_id("locked-note")).to_be_visible()
    newcomer = await (await browser.new_context(**PHONE)).new_page()  # type: ignore[arg-type]
    PHONES.add(newcomer)
    pages.append(newcomer)
    await newcomer.goto(invite)
    await expect(newcomer.get_by_test_id("join-locked")).to_have_text(
        "The host has locked this room: nobody new can join right now. Ask the host to unlock it."
    )
    for testid in ("join-info", "join-name", "join-room"):
        assert await newcomer.get_by_test_id(testid).count() == 0, testid

    # a new invite link: the old one leads nowhere; the page and its QR code show the new one,
    # and the new room code. It retires the shared screen's link too: the open screen says to
    # open it again from the host's page, which has the new link (the new code and QR code)
    old_screen = await screen_path(host)
    screen = await host.context.new_page()
    pages.append(screen)
    await screen.goto(server.base + old_screen)
    old_code = await host.get_by_test_id("room-code").text_content()
    await expect(screen.get_by_test_id("screen-code")).to_have_text(old_code or "")
    await expect(screen.locator("#screen-qr svg")).to_be_attached()
    # the room is locked: the screen shows no way in, only that
    await expect(screen.get_by_test_id("screen-locked")).to_be_visible()
    await expect(screen.get_by_test_id("screen-join-call")).to_be_hidden()
    old_screen_qr = await screen.locator("#screen-qr").inner_html()
    old_qr = await host.get_by_test_id("invite-qr").get_attribute("src")
    await host.get_by_test_id("new-invite").click()
    await expect(host.get_by_test_id("invite-url")).not_to_have_value(invite)
    fresh = await host.get_by_test_id("invite-url").input_value()
    await expect(host.get_by_test_id("invite-qr")).not_to_have_attribute("src", old_qr or "")
    await expect(host.get_by_test_id("room-code")).not_to_have_text(old_code or "")
    new_code = await host.get_by_test_id("room-code").text_content() or ""
    await expect(screen.get_by_test_id("screen-error")).to_have_text(
        "This screen link does not work (any more): a new invite link retires the old screen links. "
        "Open the shared screen again from the host’s room page."
    )
    await expect(screen.get_by_test_id("screen-join")).to_be_hidden()
    # it says so at the top, where the room sees it, and does not claim to be reconnecting
    await expect(screen.get_by_test_id("screen-error")).to_be_in_viewport(ratio=1)
    said = await screen.get_by_test_id("screen-error").bounding_box()
    board = await screen.locator("#game-area").bounding_box()
    assert said and board and said["y"] + said["height"] <= board["y"], (said, board)
    await expect(screen.get_by_test_id("connection")).to_have_attribute("data-state", "gone")
    await expect(screen.get_by_test_id("connection")).to_have_text("not connected")
    await expect(host.get_by_test_id("open-screen")).not_to_have_attribute("href", old_screen)
    await screen.goto(server.base + await screen_path(host))
    await expect(screen.get_by_test_id("screen-code")).to_have_text(new_code)
    await expect(screen.locator("#screen-qr svg")).to_be_attached()
    assert await screen.locator("#screen-qr").inner_html() != old_screen_qr
    await newcomer.goto(invite)
    await expect(newcomer.get_by_test_id("no-room")).to_be_visible()
    await host.get_by_test_id("lock-switch").uncheck()
    await expect(host.get_by_test_id("locked-note")).to_be_hidden()  # the server has unlocked it
    await expect(screen.get_by_test_id("screen-code")).to_be_visible()
    await expect(screen.locator("#screen-qr svg")).to_be_visible()
    await newcomer.goto(fresh)
    await newcomer.get_by_test_id("join-name").fill("Late")
    await press(newcomer.get_by_test_id("join-room"))
    await expect(newcomer.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(spectators).to_contain_text("Late")
    await close_all(pages)
