"""Two people in two browsers: create, join by the invite link, play, reload, come back."""

from __future__ import annotations

import json

from playwright.async_api import Browser, BrowserContext, Page, Route, WebSocket, expect

from browser_rooms import play_count21_to_the_end
from geniusnight.server.play.outbound import expand
from support import ServerProcess
from wsclient import Player, join


async def test_two_browsers_join_by_invite_play_and_reload_to_the_same_seat(
    server: ServerProcess, browser: Browser
) -> None:
    host_ctx = await browser.new_context(viewport={"width": 390, "height": 800})  # a phone
    guest_ctx = await browser.new_context()
    host = await host_ctx.new_page()
    guest = await guest_ctx.new_page()
    received: list[dict] = []  # the guest's websocket frames, both ways
    sent: list[dict] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    guest.on("websocket", watch)

    await host.goto(server.base + "/")
    await host.get_by_test_id("game-count21").check(force=True)
    await host.get_by_test_id("host-name").fill("Ada <b>")
    await host.get_by_test_id("create-room").click()
    await expect(host.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    invite = await host.get_by_test_id("invite-url").input_value()
    assert "/join/" in invite

    await guest.goto(invite)
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(guest.get_by_test_id("seats")).to_contain_text("Grace")
    # the host sees the newcomer live; names are text, not HTML
    await expect(host.get_by_test_id("seats")).to_contain_text("Grace")
    await expect(host.get_by_test_id("seats")).to_contain_text("Ada <b>")

    await host.get_by_test_id("start").click()
    await expect(host.get_by_test_id("turn")).to_have_text("your turn")
    await expect(guest.get_by_test_id("turn")).to_have_text("waiting")

    await host.get_by_test_id("add-3").click()
    await expect(guest.get_by_test_id("counter")).to_have_text("3")
    await guest.get_by_test_id("add-2").click()
    await expect(host.get_by_test_id("counter")).to_have_text("5")

    guest_secret = await guest.get_by_test_id("secret").text_content()
    await guest.reload()
    await expect(guest.get_by_test_id("counter")).to_have_text("5")
    await expect(guest.get_by_test_id("secret")).to_have_text(guest_secret or "")
    await expect(guest.get_by_test_id("turn")).to_have_text("waiting")

    # a second tab of the same browser is the same seat too
    tab = await guest_ctx.new_page()
    await tab.goto(guest.url)
    await expect(tab.get_by_test_id("secret")).to_have_text(guest_secret or "")

    # chat shows text as text
    await host.get_by_test_id("chat-input").fill("<img src=x onerror=alert(1)>")
    await host.get_by_test_id("chat-input").press("Enter")
    await expect(guest.get_by_test_id("chat-log")).to_contain_text("<img src=x onerror=alert(1)>")
    assert await guest.locator(".chat-log img").count() == 0

    # play on to the end
    await play_count21_to_the_end([host, guest])
    await expect(host.get_by_test_id("turn")).to_contain_text("over")
    await expect(host.get_by_test_id("rematch")).to_be_visible()
    # after each full state the moves came as patches in the compact form the page asks for
    # (states, patches, acks and room patches as arrays), and every one fitted the view held;
    # the page's own moves were answered in their patches (a patch's last item, its ack)
    hellos = [f for f in sent if f["type"] == "hello" and "token" in f]
    assert all(f.get("patches") == "compact" and f.get("ack_in_patch") is True for f in hellos)
    kinds = {f[0] for f in received if isinstance(f, list)}
    assert {"s", "p", "r"} <= kinds <= {"s", "p", "a", "r"}
    assert [f for f in received if isinstance(f, list) and f[0] == "p" and len(f) == 7]
    assert not [f for f in received if isinstance(f, dict) and f["type"] in ("state", "patch", "ack", "room_patch")]
    frames = [expand(f) for f in received]
    assert all(isinstance(op, list) for f in frames if f["type"] in ("patch", "room_patch") for op in f["ops"])
    assert not [f for f in sent if f == {"type": "hello"}], "a patch did not fit: the page asked for a full state"
    await host_ctx.close()
    await guest_ctx.close()


async def test_create_pressed_before_the_game_list_arrives_waits_for_it_and_opens_the_room(
    server: ServerProcess, browser: Browser
) -> None:
    """The home page binds its submit before it has the game list: a quick click must not fall
    through to the browser's own submit, which would reload the page and lose the form."""
    ctx = await browser.new_context()
    page = await ctx.new_page()
    held: list[Route] = []
    # only the home page's request is held; the room page asks for the list again
    await page.route("**/api/games", lambda route: held.append(route), times=1)
    await page.goto(server.base + "/")
    await page.get_by_test_id("game-count21").check(force=True)
    await page.get_by_test_id("host-name").fill("Ada")
    await page.get_by_test_id("create-room").click()
    await expect(page).to_have_url(server.base + "/")  # still here, waiting, the name kept
    await expect(page.get_by_test_id("host-name")).to_have_value("Ada")
    for route in held:
        await route.continue_()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    await expect(page.get_by_test_id("seats")).to_contain_text("Ada")
    room = await page.evaluate("fetch('/api/rooms/' + location.pathname.split('/').pop()).then(r => r.json())")
    assert room["game"] == "count21"  # the game picked before the list came
    await ctx.close()


async def host_toy_room(ctx: BrowserContext, base: str) -> Page:
    """Ada creates a toy-game room on the home page; returns her page once its socket is open."""
    page = await ctx.new_page()
    await page.goto(base + "/")
    await page.get_by_test_id("game-count21").check(force=True)
    await page.get_by_test_id("host-name").fill("Ada")
    await page.get_by_test_id("create-room").click()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    return page


async def test_connection_indicator_reconnects_after_a_server_restart(db_url: str, browser: Browser) -> None:
    srv = ServerProcess(db_url).start()
    try:
        ctx = await browser.new_context()
        page = await host_toy_room(ctx, srv.base)
        srv.kill()
        await expect(page.get_by_test_id("connection")).not_to_have_attribute("data-state", "open")
        srv = ServerProcess(db_url, port=srv.port).start()
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open", timeout=20000)
        await ctx.close()
    finally:
        srv.stop()


async def test_a_graceful_restart_moves_the_page_to_the_new_server_with_the_same_game(
    db_url: str, browser: Browser
) -> None:
    srv = ServerProcess(db_url).start()
    try:
        ctx = await browser.new_context()
        page = await host_toy_room(ctx, srv.base)
        invite = (await page.get_by_test_id("invite-url").input_value()).rsplit("/", 1)[-1]
        room_id = page.url.rstrip("/").rsplit("/", 1)[-1]
        guest = await join(srv.base, invite, "Grace")
        await page.get_by_test_id("start").click()
        await page.get_by_test_id("add-3").click()
        await expect(page.get_by_test_id("counter")).to_have_text("3")
        srv.stop()  # SIGTERM: the page gets a reconnect frame and closes its socket itself
        srv = ServerProcess(db_url, port=srv.port).start()
        await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open", timeout=10000)
        other = await Player(srv.ws_base, room_id, guest["token"]).connect()
        assert (await other.act({"type": "add", "n": 2}))["type"] == "ack"
        await expect(page.get_by_test_id("counter")).to_have_text("5")  # live again, from the same game
        await expect(page.get_by_test_id("turn")).to_have_text("your turn")
        await other.close()
        await ctx.close()
    finally:
        srv.stop()


async def test_a_seat_the_host_hands_to_a_bot_goes_back_to_its_player(server: ServerProcess, browser: Browser) -> None:
    host_ctx = await browser.new_context()
    guest_ctx = await browser.new_context(viewport={"width": 390, "height": 800})
    host = await host_toy_room(host_ctx, server.base)
    invite = await host.get_by_test_id("invite-url").input_value()
    guest = await guest_ctx.new_page()
    await guest.goto(invite)
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(host.get_by_test_id("seats")).to_contain_text("Grace")
    await host.get_by_test_id("start").click()
    # the host's buttons beside Grace's row leave her name readable (not squeezed to nothing)
    await expect(host.get_by_test_id("bot-takes-over-1")).to_be_visible()
    name = host.locator('#seats li[data-seat="1"] .name')
    await expect(name).to_be_visible()
    # the list is drawn again as the host's member list comes, and one drawing may be
    # measured before its layout settles: the name must be readable within 5 s, as people see it
    width = 0.0
    for _ in range(50):
        width = await name.evaluate("e => e.getBoundingClientRect().width")
        if width > 30:
            break
        await host.wait_for_timeout(100)
    assert width > 30
    await host.get_by_test_id("add-1").click()
    await expect(guest.get_by_test_id("turn")).to_have_text("your turn")
    secret = await guest.get_by_test_id("secret").text_content()

    # Grace looks away; the host hands her seat to a bot, which moves for her (21 - 1: adds 1)
    await host.get_by_test_id("bot-takes-over-1").click()
    await expect(host.get_by_test_id("counter")).to_have_text("2")
    await expect(host.get_by_test_id("away-1")).to_be_visible()
    await expect(guest.get_by_test_id("away-note")).to_be_visible()
    await expect(guest.get_by_test_id("counter")).to_have_text("2")
    await expect(guest.get_by_test_id("secret")).to_have_text(secret or "")  # she watches her own seat
    await expect(guest.get_by_test_id("room-status")).not_to_contain_text("removed")

    # she takes her seat back and plays it herself
    await guest.get_by_test_id("take-seat-back").click()
    await expect(guest.get_by_test_id("bot-plays-for-me")).to_be_visible()
    await expect(host.get_by_test_id("away-1")).to_be_hidden()
    await host.get_by_test_id("add-1").click()
    await expect(guest.get_by_test_id("turn")).to_have_text("your turn")
    await guest.get_by_test_id("add-2").click()
    await expect(host.get_by_test_id("counter")).to_have_text("5")

    # she hands her own seat to a bot for a while (21 - 6: adds 3), and takes it back
    await guest.get_by_test_id("bot-plays-for-me").click()
    await expect(guest.get_by_test_id("take-seat-back")).to_be_visible()
    await host.get_by_test_id("add-1").click()
    await expect(host.get_by_test_id("counter")).to_have_text("9")
    await guest.get_by_test_id("take-seat-back").click()
    await expect(guest.get_by_test_id("bot-plays-for-me")).to_be_visible()
    await host.get_by_test_id("add-1").click()
    await expect(guest.get_by_test_id("turn")).to_have_text("your turn")
    await guest.get_by_test_id("add-1").click()
    await expect(host.get_by_test_id("counter")).to_have_text("11")

    # the host hands her seat to a bot again, she closes the page and later reopens the invite:
    # it takes her back to her room and her seat, not to a join screen offering to watch
    await host.get_by_test_id("bot-takes-over-1").click()
    await expect(host.get_by_test_id("away-1")).to_be_visible()
    await guest.close()
    guest = await guest_ctx.new_page()
    await guest.goto(invite)
    await expect(guest).to_have_url(host.url)
    await expect(guest.get_by_test_id("bot-plays-for-me")).to_be_visible()
    await expect(host.get_by_test_id("away-1")).to_be_hidden()
    await host_ctx.close()
    await guest_ctx.close()


async def test_when_the_host_leaves_the_room_the_next_person_gets_the_host_controls(
    server: ServerProcess, browser: Browser
) -> None:
    host_ctx = await browser.new_context()
    guest_ctx = await browser.new_context()
    host = await host_toy_room(host_ctx, server.base)
    guest = await guest_ctx.new_page()
    await guest.goto(await host.get_by_test_id("invite-url").input_value())
    await guest.get_by_test_id("join-name").fill("Grace")
    await guest.get_by_test_id("join-room").click()
    await expect(guest.get_by_test_id("guest-note")).to_contain_text("Waiting for Ada")
    await expect(guest.get_by_test_id("start")).to_be_hidden()
    host.once("dialog", lambda dialog: dialog.accept())
    await host.get_by_test_id("leave-room").click()
    await expect(host).to_have_url(f"{server.base}/")  # home, not the old room "reconnecting…"
    await expect(guest.locator(".toast").last).to_contain_text("Grace is the host now")
    await expect(guest.get_by_test_id("seats")).not_to_contain_text("Ada")
    await expect(guest.get_by_test_id("start")).to_be_visible()  # the host controls are hers now
    await expect(guest.get_by_test_id("guest-note")).to_be_hidden()
    await host_ctx.close()
    await guest_ctx.close()
