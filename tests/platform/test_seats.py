"""A seat belongs to one member: kicks, joins, rematches and bot refs never hand a player
someone else's seat. Each test runs on SQLite and on PostgreSQL (when configured)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from geniusnight.server.rooms import statements, usecases
from geniusnight.server.rooms.service import RoomService
from geniusnight.storage.database import Database
from geniusnight.storage.models import Game, GameSeat, Member, Move, RefusedAction, Room
from inprocess import Served, serve
from support import TLS
from wsclient import Player

SECRETS = [10, 11, 12, 13]  # seat i's secret is 10 + i: a view shows whose seat it is


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def room_of(srv: Served, guests: int, **options: Any) -> tuple[str, str, list[dict[str, Any]]]:
    """A room with the host and ``guests`` joined people, the seat secrets fixed."""
    async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as c:
        body = {"game": "count21", "name": "Host", "options": {"secrets": SECRETS, **options}}
        room = (await c.post("/api/rooms", json=body)).json()
        invite = room["invite_url"].rsplit("/", 1)[1]
        joined = []
        for i in range(guests):
            async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as g:
                joined.append((await g.post(f"/api/join/{invite}", json={"name": f"P{i + 1}"})).json())
    return room["room_id"], room["token"], joined


async def call(srv: Served, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
    async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as c:
        r = await c.request(method, path, json=body, headers=bearer(token))
    assert r.status_code < 500, r.text
    return r


async def logged_moves(srv: Served, game_id: int) -> list[Move]:
    async with srv.state.db.sessions() as s:
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
    games = srv.state.games
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
            async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as c:
                body = {"game": "count21", "name": "Host", "options": {"secrets": SECRETS}}
                room = (await c.post("/api/rooms", json=body)).json()
            invite = room["invite_url"].rsplit("/", 1)[1]

            async def join(name: str, invite: str = invite) -> dict[str, Any]:
                async with httpx.AsyncClient(base_url=srv.base, verify=TLS) as g:
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
        srv.state.games.forget(game_id)
        live = await srv.state.games.get(game_id)
        assert live.refs[(guest["member_id"], 1, "bot-3-1")] == 2 and live.refs[(None, 1, "bot-3-1")] == 4
        await host.close()
        await p.close()


async def test_a_bot_whose_move_the_game_outran_thinks_again(any_db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, _ = await room_of(srv, 0)
        await call(srv, "POST", f"/api/rooms/{rid}/bots", host_token, {"bot": "smart"})
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        driver, games = srv.state.driver, srv.state.games
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
        async with srv.state.db.sessions() as s:
            assert not list((await s.execute(select(RefusedAction))).scalars())
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def room_json(srv: Served, rid: str, token: str) -> dict[str, Any]:
    return (await call(srv, "GET", f"/api/rooms/{rid}", token)).json()  # type: ignore[no-any-return]


async def until_seq(srv: Served, game_id: int, seq: int) -> None:
    for _ in range(300):
        if (await srv.state.games.get(game_id)).seq >= seq:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"seq {seq} not reached")


async def test_a_bot_the_host_hands_a_seat_to_plays_it_until_its_player_takes_it_back(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, (guest,) = await room_of(srv, 1)
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        host = await Player(srv.ws_base, rid, host_token).connect()
        p = await Player(srv.ws_base, rid, guest["token"]).connect()
        r = await call(srv, "POST", f"/api/rooms/{rid}/seats/1/bot", host_token)
        assert r.status_code == 200, r.text
        you = (await p.expect("you"))["you"]
        assert (you["seat"], you["away"]) == (1, True)  # still a member, still seat 1
        seat = (await room_json(srv, rid, host_token))["seats"][1]
        assert seat["bot"] and seat["away"] and seat["name"] == "P1"
        assert (await host.act({"type": "add", "n": 1}))["seq"] == 1
        # the bot plays seat 1; its player watches as that seat, and only that seat
        state = await p.wait_state(lambda v: v["counter"] > 1)
        assert state["view"]["secret"] == SECRETS[1]
        view = (await call(srv, "GET", f"/api/rooms/{rid}/view", guest["token"])).json()
        assert view["view"]["secret"] == SECRETS[1]
        assert (await host.act({"type": "add", "n": 1}))["seq"] == 3
        await until_seq(srv, game_id, 4)
        refused = await p.act({"type": "add", "n": 1})
        assert refused["code"] in ("bot_plays", "not_your_turn")
        assert (await call(srv, "POST", f"/api/rooms/{rid}/back", guest["token"])).json() == {"seat": 1, "away": False}
        you = (await p.expect("you"))["you"]
        assert (you["seat"], you["away"]) == (1, False)
        assert not (await room_json(srv, rid, host_token))["seats"][1]["bot"]
        assert (await host.act({"type": "add", "n": 1}))["seq"] == 5
        ack = await p.act({"type": "add", "n": 1})
        assert ack["type"] == "ack" and ack["seq"] == 6
        await asyncio.sleep(0.05)  # no bot moves for the seat any more
        moves = await logged_moves(srv, game_id)
        assert [(m.seat, m.member_id) for m in moves] == [
            (0, host.welcome["you"]["member_id"]),
            (1, None),
            (0, host.welcome["you"]["member_id"]),
            (1, None),
            (0, host.welcome["you"]["member_id"]),
            (1, guest["member_id"]),
        ]
        for q in (host, p):
            await q.close()


async def test_coming_back_with_the_token_takes_back_the_seat_the_host_handed_to_a_bot(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, (guest,) = await room_of(srv, 1, target=99)
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        room = await room_json(srv, rid, host_token)
        invite = room["invite_path"].rsplit("/", 1)[1]
        host = await Player(srv.ws_base, rid, host_token).connect()
        # the friend is gone: the host hands the seat to a bot, which moves
        assert (await call(srv, "POST", f"/api/rooms/{rid}/seats/1/bot", host_token)).status_code == 200
        assert (await host.act({"type": "add", "n": 1}))["type"] == "ack"
        await until_seq(srv, game_id, 2)
        # they come back by the invite link with their cookie (here: the token): same seat
        r = await call(srv, "POST", f"/api/join/{invite}", guest["token"], {"name": "P1"})
        assert r.json()["seat"] == 1 and r.json()["token"] is None
        assert not (await room_json(srv, rid, host_token))["seats"][1]["bot"]
        # handed over again, they come back by opening the room (a socket with their token)
        assert (await call(srv, "POST", f"/api/rooms/{rid}/seats/1/bot", host_token)).status_code == 200
        assert (await host.act({"type": "add", "n": 1}))["type"] == "ack"
        await until_seq(srv, game_id, 4)
        p = await Player(srv.ws_base, rid, guest["token"]).connect()
        assert (p.welcome["you"]["seat"], p.welcome["you"]["away"]) == (1, False)
        assert p.state["view"]["secret"] == SECRETS[1]
        assert (await host.act({"type": "add", "n": 1}))["seq"] == 5
        assert (await p.act({"type": "add", "n": 1}))["seq"] == 6
        assert (await logged_moves(srv, game_id))[-1].member_id == guest["member_id"]
        for q in (host, p):
            await q.close()


async def test_a_player_who_lets_a_bot_play_for_them_keeps_it_until_they_take_the_seat_back(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, (guest,) = await room_of(srv, 1, target=9)
        r = await call(srv, "POST", f"/api/rooms/{rid}/away", guest["token"])
        assert r.status_code == 409 and r.json()["code"] == "not_playing"
        first = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        assert (await call(srv, "POST", f"/api/rooms/{rid}/back", guest["token"])).json()["code"] == "not_away"
        assert (await call(srv, "POST", f"/api/rooms/{rid}/away", guest["token"])).json() == {"seat": 1, "away": True}
        assert (await call(srv, "POST", f"/api/rooms/{rid}/away", guest["token"])).json()["code"] == "already_away"
        # reconnecting or joining again is not taking the seat back
        p = await Player(srv.ws_base, rid, guest["token"]).connect()
        assert p.welcome["you"]["away"] is True
        await p.close()
        invite = (await room_json(srv, rid, host_token))["invite_path"].rsplit("/", 1)[1]
        await call(srv, "POST", f"/api/join/{invite}", guest["token"], {"name": "P1"})
        assert (await room_json(srv, rid, guest["token"]))["you"]["away"] is True
        # the bot plays for them to the end, and in the rematch
        await play_out(srv, first)
        assert all(m.member_id is None for m in await logged_moves(srv, first) if m.seat == 1)
        second = (await call(srv, "POST", f"/api/rooms/{rid}/rematch", host_token)).json()["game_id"]
        seat = (await room_json(srv, rid, host_token))["seats"][1]
        assert seat["bot"] and seat["away"]
        assert (await call(srv, "POST", f"/api/rooms/{rid}/back", guest["token"])).json() == {"seat": 1, "away": False}
        await call(srv, "POST", f"/api/rooms/{rid}/seats/0/bot", host_token)  # the host may step away too
        p = await Player(srv.ws_base, rid, guest["token"]).connect()
        await p.wait_state(lambda v: v["to_act"] == [1])
        ack = await p.act({"type": "add", "n": 1})
        assert ack["type"] == "ack"
        assert (await logged_moves(srv, second))[ack["seq"] - 1].member_id == guest["member_id"]
        await p.close()


async def test_only_the_host_hands_another_members_seat_to_a_bot(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, (guest,) = await room_of(srv, 1)
        await call(srv, "POST", f"/api/rooms/{rid}/bots", host_token, {"bot": "random"})
        await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)
        r = await call(srv, "POST", f"/api/rooms/{rid}/seats/0/bot", guest["token"])
        assert r.status_code == 403 and r.json()["code"] == "not_host"
        r = await call(srv, "POST", f"/api/rooms/{rid}/seats/2/bot", host_token)
        assert r.status_code == 409 and r.json()["code"] == "is_bot"
        # a seat nobody holds: said in players' words (seats count from 1 for people, from 0
        # on the wire), so without its number
        for method, path in (("POST", f"/api/rooms/{rid}/seats/3/bot"), ("DELETE", f"/api/rooms/{rid}/seats/3")):
            r = await call(srv, method, path, host_token)
            assert r.status_code == 404 and r.json()["code"] == "no_seat", path
            assert r.json()["message"] == "That seat is empty.", path
        # removal stays its own action: a kicked member's token stops working
        assert (await call(srv, "DELETE", f"/api/rooms/{rid}/seats/1", host_token)).status_code == 200
        assert (await call(srv, "GET", f"/api/rooms/{rid}/view", guest["token"])).status_code == 401


async def test_a_start_seats_the_lobby_0_to_n_minus_1_in_the_order_of_their_seats(any_db_url: str) -> None:
    """However the lobby's seats are numbered, a new game's seats are 0..n-1, its members in
    the order of the lobby seats they held, and the lobby's seats say the same."""
    async with serve(any_db_url) as srv:
        rid, host_token, _ = await room_of(srv, 2)
        lobby = select(Member.id).where(Member.room_id == rid, Member.seat.is_not(None)).order_by(Member.seat)
        async with srv.state.db.sessions() as s:
            ids = list((await s.execute(lobby)).scalars())
            for member_id, seat in ((ids[2], 7), (ids[1], 4)):  # seats 0, 4, 7
                await s.execute(update(Member).where(Member.id == member_id).values(seat=seat))
            await s.commit()
        game_id = (await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)).json()["game_id"]
        async with srv.state.db.sessions() as s:
            seats = (await s.execute(select(Member.id, Member.seat).where(Member.room_id == rid))).all()
            held = (await s.execute(select(GameSeat.seat, GameSeat.member_id).where(GameSeat.game_id == game_id))).all()
        assert sorted(seats) == [(ids[0], 0), (ids[1], 1), (ids[2], 2)]
        assert sorted(held) == [(0, ids[0]), (1, ids[1]), (2, ids[2])]


async def test_a_lobby_removal_moves_the_later_seats_up_in_the_session_too(any_db_url: str) -> None:
    """After a removal the members the service's session holds show the seats the database
    holds (the later ones moved up), not those they were loaded with."""
    db = Database(any_db_url)
    try:
        async with db.sessions() as s:
            svc = RoomService(s, "secret")
            room, host, _ = await svc.create("count21", {}, "Host")
            await s.commit()
            bots = [await svc.add_bot(room.id, "random") for _ in range(3)]
            assert [b.seat for b in bots] == [1, 2, 3]
            _, gone = await svc.kick(room.id, 1, host.id)
            assert gone is bots[0]
            in_session = [(m.id, m.seat) for m in (host, *bots)]
        async with db.sessions() as s:
            stored = (await s.execute(select(Member.id, Member.seat).where(Member.room_id == room.id))).all()
        assert sorted(in_session) == sorted(stored)
        assert in_session == [(host.id, 0), (bots[0].id, None), (bots[1].id, 1), (bots[2].id, 2)]
    finally:
        await db.dispose()


async def test_two_starts_at_once_make_one_game(any_db_url: str) -> None:
    async with serve(any_db_url) as srv:
        rid, host_token, _ = await room_of(srv, 1)
        answers = await asyncio.gather(*(call(srv, "POST", f"/api/rooms/{rid}/start", host_token) for _ in range(2)))
        assert sorted(r.status_code for r in answers) == [200, 409]
        assert {r.json().get("code") for r in answers if r.status_code == 409} == {"not_in_lobby"}
        async with srv.state.db.sessions() as s:
            games = (await s.execute(select(Game.id).where(Game.room_id == rid))).scalars().all()
        assert games == [next(r.json()["game_id"] for r in answers if r.status_code == 200)]


class _RoomChangesAfterItsRead:
    """A connection on which the room changes (its version moves on) right after a start
    read it, as when another process seats someone at that moment: ``times`` starts."""

    def __init__(self, conn: Any, raced: list[str], times: int) -> None:
        self.conn, self.raced, self.times = conn, raced, times
        self.dialect = conn.dialect

    def execute(self, stmt: Any, *args: Any) -> Any:
        result = self.conn.execute(stmt, *args)
        if stmt is statements._START_ROOM and len(self.raced) < self.times:
            self.raced.append(args[0]["room_id"])
            rooms = Room.__table__
            self.conn.execute(update(rooms).values(version=rooms.c.version + 1))
        return result


@pytest.mark.parametrize(("races", "status"), [(1, 200), (statements.SEATING_TRIES, 409)])
async def test_a_start_whose_room_changed_under_it_starts_again_from_what_is_there(
    any_db_url: str, monkeypatch: pytest.MonkeyPatch, races: int, status: int
) -> None:
    raced: list[str] = []

    def start_game(conn: Any, *args: Any, **kwargs: Any) -> Any:
        return statements.start_game(_RoomChangesAfterItsRead(conn, raced, races), *args, **kwargs)

    monkeypatch.setattr(usecases, "start_game", start_game)
    async with serve(any_db_url) as srv:
        rid, host_token, _ = await room_of(srv, 1)
        r = await call(srv, "POST", f"/api/rooms/{rid}/start", host_token)
        assert raced == [rid] * races and r.status_code == status
        async with srv.state.db.sessions() as s:
            games = (await s.execute(select(Game.id).where(Game.room_id == rid))).scalars().all()
        if status == 200:
            assert games == [r.json()["game_id"]]
        else:  # nothing of a start that never settled was kept
            assert r.json()["code"] == "seats_busy" and games == []
            assert (await call(srv, "GET", f"/api/rooms/{rid}", host_token)).json()["status"] == "lobby"
