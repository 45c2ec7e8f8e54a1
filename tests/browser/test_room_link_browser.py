"""A friend opens the link they were sent: the room's own address, the invite, or a dead one.
The address lets nobody in: it asks for the invite or the room code. Each person sees only
the controls they may use now."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Browser, Page, Route, expect

from browser_rooms import PHONE, play_count21_to_the_end
from support import ServerProcess


async def test_the_room_address_asks_a_newcomer_for_the_code_and_guests_never_see_host_controls(
    server: ServerProcess, browser: Browser
) -> None:
    host_ctx = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    guest_ctx = await browser.new_context()
    host = await host_ctx.new_page()
    guest = await guest_ctx.new_page()

    await host.goto(server.base + "/")
    await host.get_by_test_id("game-count21").check(force=True)
    await host.get_by_test_id("host-name").fill("Ada")
    await host.get_by_test_id("create-room").click()
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")

    # the host shares the address bar, not the invite: it asks for the link or the code,
    # which the guest types into the box there
    await guest.goto(host.url)
    await expect(guest.get_by_test_id("join-title")).to_have_text("Join Ada’s game of Count to 21")
    await expect(guest.get_by_test_id("ask-host-text")).to_have_text(
        "To join, you need the invite link or the room code from the host. "
        "Ask them for it, then open the link or type the code here."
    )
    assert await guest.get_by_test_id("join-room").count() == 0
    assert await guest.get_by_test_id("start").count() == 0
    await expect(host.get_by_test_id("room-code")).to_have_text(re.compile(r"^\w{3} \w{3}$"))
    code = await host.get_by_test_id("room-code").text_content() or ""
    await guest.get_by_test_id("code-input").fill(code)
    await guest.get_by_test_id("code-join").click()
    await expect(guest.get_by_test_id("join-info")).to_contain_text("1 of")
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(guest.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(guest.get_by_test_id("seats")).to_contain_text("Grace")
    assert guest.url == host.url

    # lobby: the guest waits for the host and sees none of the host's controls
    await expect(guest.get_by_test_id("guest-note")).to_have_text("Waiting for Ada to start the game.")
    for testid in ("start", "add-bot", "bot-kind", "rematch", "apply-options"):
        await expect(guest.get_by_test_id(testid)).to_be_hidden()
    await expect(host.get_by_test_id("start")).to_be_visible()
    await expect(host.get_by_test_id("guest-note")).to_be_hidden()

    await host.get_by_test_id("start").click()
    await expect(guest.get_by_test_id("room-status")).to_contain_text("Playing")
    # the tab's title tells whose turn it is
    await expect(host).to_have_title(re.compile("^● Your turn · "))
    await expect(guest).to_have_title("Count to 21 · Genius Night")
    for page in (host, guest):
        for testid in ("start", "add-bot", "bot-kind", "rematch"):
            await expect(page.get_by_test_id(testid)).to_be_hidden()

    await play_count21_to_the_end([host, guest])
    await expect(host.get_by_test_id("room-status")).to_contain_text("Game over")
    # game over: on her phone the Game tab says what comes next and leads to the rematch on
    # the Room tab; the guest (a laptop) sees no Start and no Rematch
    await expect(host.get_by_test_id("next-game")).to_contain_text("Game over.")
    await host.get_by_test_id("next-game-rematch").tap()
    await expect(host.get_by_test_id("rematch")).to_be_visible()
    await expect(host.get_by_test_id("start")).to_be_hidden()
    await expect(guest.get_by_test_id("guest-note")).to_have_text("Game over. Ada can start a rematch.")
    for testid in ("start", "rematch", "add-bot"):
        await expect(guest.get_by_test_id(testid)).to_be_hidden()

    # a third person opening the running room's invite is offered a place to watch
    late = await browser.new_page()
    await late.goto(await host.get_by_test_id("invite-url").input_value())
    await expect(late.get_by_test_id("join-room")).to_have_text("Watch")
    await late.context.close()
    await host_ctx.close()
    await guest_ctx.close()


async def test_an_unknown_room_or_invite_is_one_plain_no_such_room_page(
    server: ServerProcess, browser: Browser
) -> None:
    page = await browser.new_page()
    for path in ("/r/doesnotexist", "/join/doesnotexist"):
        response = await page.goto(server.base + path)
        assert response is not None and response.status == 404
        await expect(page.get_by_test_id("no-room")).to_contain_text("No such room")
        assert await page.locator(".toast").count() == 0
        assert await page.get_by_test_id("game-area").count() == 0
    await page.context.close()


async def ada_opens_a_room(server: ServerProcess, browser: Browser) -> tuple[Page, str]:
    """Ada creates a Count to 21 room on the home page: her page and the room's invite link."""
    page = await browser.new_page()
    await page.goto(server.base + "/")
    await page.get_by_test_id("game-count21").check(force=True)
    await page.get_by_test_id("host-name").fill("Ada")
    await page.get_by_test_id("create-room").click()
    await expect(page.get_by_test_id("invite-url")).to_have_value(re.compile("/join/"))
    return page, await page.get_by_test_id("invite-url").input_value()


async def test_the_invite_page_names_the_game_and_the_host(server: ServerProcess, browser: Browser) -> None:
    page, invite = await ada_opens_a_room(server, browser)
    guest = await browser.new_page()
    await guest.goto(invite)
    await expect(guest.get_by_test_id("join-title")).to_have_text("Join Ada’s game of Count to 21")
    await expect(guest).to_have_title("Join Count to 21 · Genius Night")
    await page.context.close()
    await guest.context.close()


async def test_a_name_typed_before_the_page_script_arrives_takes_the_seat(
    server: ServerProcess, browser: Browser
) -> None:
    """On a slow phone the join page is drawn before its script has come: a tap then must not
    be the browser's own submit, which reloads the page and loses the name."""
    host, invite = await ada_opens_a_room(server, browser)

    phone_ctx = await browser.new_context(**PHONE)  # type: ignore[arg-type]
    phone = await phone_ctx.new_page()
    script_may_come = asyncio.Event()

    async def slow_script(route: Route) -> None:
        await script_may_come.wait()
        await route.continue_()

    await phone.route("**/static/js/join.js", slow_script)
    await phone.goto(invite, wait_until="commit")
    await phone.get_by_test_id("join-name").fill("Grace")
    await expect(phone.get_by_test_id("join-room")).to_be_disabled()
    await phone.get_by_test_id("join-name").press("Enter")
    await phone.wait_for_timeout(300)
    assert phone.url == invite, "the page was submitted (and reloaded) without its script"

    script_may_come.set()
    await phone.get_by_test_id("join-room").tap()
    await expect(phone.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(phone.get_by_test_id("seats").locator("li.me")).to_contain_text("Grace")
    await host.context.close()
    await phone_ctx.close()
