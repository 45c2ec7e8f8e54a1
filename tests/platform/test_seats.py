"""A seat belongs to one member: kicks, joins, rematches and bot refs never hand a player
someone else's seat. Each test runs on SQLite and on PostgreSQL (when configured)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from geniusnight.db import Move, RefusedAction
from inprocess import Served, serve
from wsclient import Player

SECRETS = [10, 11, 12, 13]  # seat i's secret is 10 + i: a view shows whose seat it is


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def room_of(srv: Served, guests: int, **options: Any) -> tuple[str, str, list[dict[str, Any]]]:
    """A room with the host and ``guests`` joined people, the seat secrets fixed."""
    async with httpx.AsyncClient(base_url=srv.base) as c:
        body = {"game": "count21", "name": "Host", "options": {"secrets": SECRETS, **options}}
        room = (await c.post("/api/rooms", json=body)).json()
        invite = room["invite_url"].rsplit("/", 1)[1]
        joined = []
        for i in range(guests):
            async with httpx.AsyncClient(base_url=srv.base) as g:
                joined.append((await g.post(f"/api/join/{invite}", json={"name": f"P{i + 1}"})).json())
    return room["room_id"], room["token"], joined


async def call(srv: Served, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=srv.base) as c:
        r = await c.request(method, path, json=body, headers=bearer(token))
    assert r.status_code < 500, r.text
    return r


async def logged_moves(srv: Served, game_id: int) -> list[Move]:
    async with srv.services.db.sessions() as s:
        return list((await s.execute(select(Move).where(Move.game_id == game_id).order_by(Move.seq))).scalars())


async def test_a_lobby_kick_moves_open_sockets_to_their_members_new_seats(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, guests = await room_of(srv, 3)
        sockets = [await Player(srv.ws_base, rid, g["token"]).connect() for g in guests]
        assert [p.welcome["seat"] for p in sockets] == [1, 2, 3]
        assert (await call(srv, "DELETE", f"/api/rooms/{rid}/seats/1", host_token)).status_code == 200
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        _, p2, p3 = sockets
        assert (await p2.expect("you"))["you"]["seat"] == 1
        assert (await p3.expect("you"))["you"]["seat"] == 2
        assert (await p2.expect("state"))["view"]["secret"] == SECRETS[1]
        assert (await p3.expect("state"))["view"]["secret"] == SECRETS[2]
        host = await Player(srv.ws_base, rid, host_token).connect()
        assert (await host.act({"type": "add", "n": 1}))["type"] == "ack"
        ack = await p2.act({"type": "add", "n": 1})
        assert ack["type"] == "ack"
        move = (await logged_moves(srv, game_id))[ack["seq"] - 1]
        assert (move.seat, move.member_id) == (1, guests[1]["member_id"])
        for p in (*sockets, host):
            await p.close()


async def play_out(srv: Served, game_id: int) -> None:
    """Every seat adds 1 until the game ends (the server plays for the people here)."""
    games = srv.services.games
    for _ in range(200):
        live = await games.get(game_id)
        if live.over:
            return
        turn = live.state.turn
        if not live.seats[turn].get("bot"):
            await games.submit(game_id, turn, {"type": "add", "n": 1})
        await asyncio.sleep(0.005)
    raise AssertionError("the game did not end")


async def test_kick_then_rematch_serves_each_member_their_own_seat(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, guests = await room_of(srv, 3, target=9)
        first = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        assert (await call(srv, "DELETE", f"/api/rooms/{rid}/seats/1", host_token)).status_code == 200
        await play_out(srv, first)
        second = (await call(srv, "POST", f"/api/rooms/{rid}/rematch", host_token)).json()["game_id"]
        assert second != first
        for guest, seat in ((guests[1], 1), (guests[2], 2)):
            view = (await call(srv, "GET", f"/api/rooms/{rid}/view", guest["token"])).json()
            assert view["game_id"] == second and view["view"]["secret"] == SECRETS[seat]
            p = await Player(srv.ws_base, rid, guest["token"]).connect()
            assert p.welcome["seat"] == seat and p.state["view"]["secret"] == SECRETS[seat]
            await p.close()


async def test_simultaneous_joins_get_distinct_seats(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        for _ in range(3):
            async with httpx.AsyncClient(base_url=srv.base) as c:
                body = {"game": "count21", "name": "Host", "options": {"secrets": SECRETS}}
                room = (await c.post("/api/rooms", json=body)).json()
            invite = room["invite_url"].rsplit("/", 1)[1]

            async def join(name: str, invite: str = invite) -> dict[str, Any]:
                async with httpx.AsyncClient(base_url=srv.base) as g:
                    r = await g.post(f"/api/join/{invite}", json={"name": name})
                assert r.status_code == 200, r.text
                return r.json()  # type: ignore[no-any-return]

            joined = await asyncio.gather(*(join(f"P{i}") for i in range(4)))
            seats = sorted(j["seat"] for j in joined if j["seat"] is not None)
            assert seats == [1, 2, 3] and sum(j["seat"] is None for j in joined) == 1
            await call(srv, "POST", f"/api/rooms/{room['room_id']}/start", room["token"])
            for j in joined:
                view = (await call(srv, "GET", f"/api/rooms/{room['room_id']}/view", j["token"])).json()["view"]
                assert view.get("secret") == (SECRETS[j["seat"]] if j["seat"] is not None else None)


async def test_a_client_cannot_take_the_ref_of_the_bot_that_replaces_it(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, (guest,) = await room_of(srv, 1)
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        host = await Player(srv.ws_base, rid, host_token).connect()
        p = await Player(srv.ws_base, rid, guest["token"]).connect()
        assert (await host.act({"type": "add", "n": 1}))["seq"] == 1
        # the bot that will play seat 1 at seq 3 uses the ref "bot-3-1"
        assert (await p.act({"type": "add", "n": 1}, ref="bot-3-1"))["seq"] == 2
        assert (await host.act({"type": "add", "n": 1}))["seq"] == 3
        assert (await call(srv, "DELETE", f"/api/rooms/{rid}/seats/1", host_token)).status_code == 200
        await host.wait_state(lambda v: v["counter"] > 3)
        moves = await logged_moves(srv, game_id)
        assert (moves[3].seat, moves[3].member_id, moves[3].ref) == (1, None, "bot-3-1")
        # a process rebuilding the game from the log keeps both refs apart
        srv.services.games.forget(game_id)
        live = await srv.services.games.get(game_id)
        assert live.refs[(guest["member_id"], 1, "bot-3-1")] == 2 and live.refs[(None, 1, "bot-3-1")] == 4
        await host.close()
        await p.close()


async def test_a_bot_whose_move_the_game_outran_thinks_again(any_db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, _ = await room_of(srv, 0)
        await call(srv, "POST", f"/api/rooms/{rid}/bots", host_token, {"bot": "smart"})
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        driver, games = srv.services.driver, srv.services.games
        thinking, go_on = asyncio.Event(), asyncio.Event()
        loop = asyncio.get_running_loop()
        plain = driver.choose
        calls = []

        def slow_choose(live: Any, seat: int, bot: str) -> Any:
            calls.append(live.seq)
            if len(calls) == 1:  # the first thought takes until the clock has run out
                loop.call_soon_threadsafe(thinking.set)
                asyncio.run_coroutine_threadsafe(go_on.wait(), loop).result()
            return plain(live, seat, bot)

        driver.choose = slow_choose
        caplog.set_level(logging.WARNING, logger="geniusnight")
        assert (await games.submit(game_id, 0, {"type": "add", "n": 1})).seq == 1
        await asyncio.wait_for(thinking.wait(), 5)
        assert (await games.submit(game_id, None, {"type": "timeout"})).seq == 2  # the bot's turn runs out
        go_on.set()
        assert (await games.submit(game_id, 0, {"type": "add", "n": 1})).seq == 3
        for _ in range(200):
            if (await games.get(game_id)).seq >= 4:
                break
            await asyncio.sleep(0.01)
        moves = await logged_moves(srv, game_id)
        assert [(m.seat, m.ref) for m in moves] == [(0, None), (None, None), (0, None), (1, "bot-3-1")]
        assert calls[-1] == 3  # thought again on the new state
        async with srv.services.db.sessions() as s:
            assert not list((await s.execute(select(RefusedAction))).scalars())
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
