"""Hidden information, transport side: whole games of the three games played over a real
server's websockets by two seated clients (with a bot) and watched by a spectator (the host
takes compact ``patch`` frames with its moves' acks in them, as the pages do, the guest RFC
6902 ones, the spectator whole ``state`` frames). Each move a client sends is answered once,
by an ack or an error. Every frame each of them receives (a patch as the view it makes, and
as sent), and every HTTP answer a member can ask for while the game runs (the room,
``/view``, the game's log and states, the room and replay pages), is checked against what
that seat may know at that moment: each view in a frame and each ``/view`` answer is exactly
the seat's view of the log replayed to its ``seq`` (the game's oracle in
``tests/hidden_info.py`` checks those views), and no other frame or body holds a secret of
the seat's.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import httpx

from geniusnight.engines import get_engine
from geniusnight.i18n import catalog
from hidden_info import check_view, secret_texts
from support import TLS, ServerProcess
from wsclient import Player, host_post, join, make_room

ADMIN = {"Authorization": "Bearer " + "t" * 32}  # support.ServerProcess's admin token


CATALOG = re.compile(r'<script type="application/json" id="i18n-catalog">(.*?)</script>', re.S)


def without_catalog(page: str) -> str:
    """The page without its message catalog, once that is checked to be exactly the catalog
    (the same words for every room and seat, so nothing of the game's; its words, "answer"
    or "diamond", would look like secrets)."""
    found = CATALOG.search(page)
    assert found and json.loads(found.group(1)) == catalog("en")
    return page[: found.start()] + page[found.end() :]


class Replay:
    """The game's log replayed on the test's side: the state at every seq."""

    def __init__(self, base: str, game_id: int) -> None:
        self.base, self.game_id = base, game_id
        self.states: list[Any] = []
        self.engine: Any = None

    async def upto(self, seq: int) -> Any:
        if len(self.states) <= seq:
            async with httpx.AsyncClient(base_url=self.base, verify=TLS) as c:
                r = await c.get(f"/api/admin/games/{self.game_id}/export", headers=ADMIN)
                r.raise_for_status()
                export = r.json()
            g = export["game"]
            if self.engine is None:
                self.engine = get_engine(g["engine"])
                self.states = [self.engine.setup(g["players"], g["options"], g["seed"])]
            for entry in export["log"][len(self.states) - 1 :]:
                self.states.append(self.engine.apply(self.states[-1], entry["seat"], entry["action"]))
        return self.states[seq] if seq < len(self.states) else None


class Seat:
    """One connection's frames and HTTP answers, each with the seq it had seen by then."""

    def __init__(self, player: Player, token: str | None, seat: int | None) -> None:
        self.player, self.token, self.seat = player, token, seat
        self.seen: list[tuple[int, dict[str, Any]]] = []  # (seq seen so far, frame)
        self.bodies: list[tuple[int, str, str]] = []  # (seq seen so far, what, body)
        self.views: list[dict[str, Any]] = []  # /view answers
        self.seq = 0
        self.answers: dict[str, list[str]] = {}  # ref of each move sent -> the ack or error frames for it

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def ask_everything(base: str, room_id: str, game_id: int, me: Seat) -> None:
    """What a member can ask over HTTP while the game runs."""
    async with httpx.AsyncClient(base_url=base, headers=me.auth(), verify=TLS) as c:
        r = await c.get(f"/api/rooms/{room_id}")
        assert r.status_code == 200
        me.bodies.append((me.seq, "room", r.text))
        r = await c.get(f"/api/rooms/{room_id}/view")
        assert r.status_code == 200
        me.views.append(r.json())
        for path in ("log", "state"):
            r = await c.get(f"/api/rooms/{room_id}/games/{game_id}/{path}")
            if r.status_code == 200:  # the bots ended the game since the last frame: it is open now
                assert (await c.get(f"/api/rooms/{room_id}")).json()["status"] == "finished", (path, r.text)
                continue
            assert r.status_code == 409 and r.json()["code"] == "game_running", (path, r.text)
            me.bodies.append((me.seq, path, r.text))
        for page in (f"/r/{room_id}", f"/r/{room_id}/replay/{game_id}"):
            r = await c.get(page)
            assert r.status_code == 200
            me.bodies.append((me.seq, page, without_catalog(r.text)))


async def play(base: str, room_id: str, game_id: int, me: Seat, replay: Replay, rng: random.Random) -> None:
    """Read frames until the game is over; play this seat's turns (random policy on the
    replayed state), and now and then ask everything over HTTP."""
    asked_at = -10
    frame = me.player.state  # the state that came with the welcome
    while True:
        if frame["type"] in ("state", "error"):
            view = me.player.state["view"]
            if view["over"]:
                return
            if me.seq - asked_at >= 8:
                asked_at = me.seq
                await ask_everything(base, room_id, game_id, me)
            if me.seat is not None and me.seat in view["to_act"]:
                await act(me, replay, rng)
        frame = await me.player.recv(timeout=30)
        me.seen.append((me.seq, frame))
        note_answer(me, frame)
        if frame["type"] == "patch":  # the view it makes is checked as a full state frame
            assert me.player.stale == 0, "a patch that does not fit the view held"
            frame = me.player.state
            me.seen.append((me.seq, frame))
        if frame["type"] == "state" and frame["game_id"] == game_id:
            me.seq = max(me.seq, frame["seq"])


def note_answer(me: Seat, frame: dict[str, Any]) -> None:
    if frame["type"] in ("ack", "error") and frame.get("ref") in me.answers:
        me.answers[frame["ref"]].append(frame["type"])


async def every_move_answered_once(me: Seat) -> None:
    """The answers still on their way once the game is over come in; each move sent has one."""
    while any(not kinds for kinds in me.answers.values()):
        note_answer(me, await me.player.recv(timeout=10))
    assert all(len(kinds) == 1 for kinds in me.answers.values()), me.answers


async def act(me: Seat, replay: Replay, rng: random.Random) -> None:
    state = await replay.upto(me.seq)
    engine = replay.engine
    if state is None or me.seat not in engine.to_act(state):
        return  # the game moved on: the next state frame decides
    action = engine.bot_action(state, me.seat, "random", rng.getrandbits(62))
    if action is None:
        action = rng.choice(engine.legal_actions(state, me.seat))
    ref = f"m{me.seat}-{me.seq}-{rng.getrandbits(20)}"
    me.answers[ref] = []
    await me.player.send({"type": "act", "ref": ref, "action": action})


async def check_seat(base: str, room_id: str, game_id: int, me: Seat, replay: Replay, rng: random.Random) -> int:
    engine = get_engine(replay.engine.info.id)
    game = engine.info.id
    checked = 0
    for seq, frame in me.seen:
        if frame["type"] == "state" and frame["game_id"] == game_id:
            state = await replay.upto(frame["seq"])
            want = json.loads(json.dumps(engine.view(state, me.seat)))
            assert frame["view"] == want, f"seat {me.seat}'s frame at seq {frame['seq']} is not its view"
            check_view(game, state, me.seat, frame["view"], rng)
            checked += 1
        else:
            text = json.dumps(frame)
            at = frame["seq"] if frame["type"] == "patch" else seq
            for secret in secret_texts(game, await replay.upto(at), me.seat):
                assert secret not in text, f"seat {me.seat} got a {frame['type']} frame with a secret"
    for answer in me.views:
        state = await replay.upto(answer["seq"])
        assert answer["game_id"] == game_id
        assert answer["view"] == json.loads(json.dumps(engine.view(state, me.seat))), "/view is not the seat's view"
        check_view(game, state, me.seat, answer["view"], rng)
    for seq, what, body in me.bodies:
        for secret in secret_texts(game, await replay.upto(seq), me.seat):
            assert secret not in body, f"seat {me.seat}'s {what} holds a secret"
    # once the game is over its whole log is the players' to read
    async with httpx.AsyncClient(base_url=base, headers=me.auth(), verify=TLS) as c:
        assert (await c.get(f"/api/rooms/{room_id}/games/{game_id}/log")).status_code == 200
    return checked


async def one_game(srv: ServerProcess, game: str, players: int, seed: int) -> int:
    rng = random.Random(seed)
    room_id, host_token, invite = await make_room(srv.base, game=game)
    guest_token = (await join(srv.base, invite, "Guest"))["token"]
    for _ in range(players - 2):
        assert (await host_post(srv.base, room_id, host_token, "/bots", {"bot": "random"})).status_code == 200
    started = await host_post(srv.base, room_id, host_token, "/start")
    assert started.status_code == 200, started.text
    game_id = started.json()["game_id"]
    watcher = await join(srv.base, invite, "Watcher")
    assert watcher["seat"] is None
    # after the first state the host gets compact patch frames with its acks in them, the guest
    # RFC 6902 ones, the spectator whole states
    host = Player(srv.ws_base, room_id, host_token, patches="compact", ack_in_patch=True)
    seats = [
        Seat(await host.connect(), host_token, 0),
        Seat(await Player(srv.ws_base, room_id, guest_token, patches=True).connect(), guest_token, 1),
        Seat(await Player(srv.ws_base, room_id, watcher["token"]).connect(), watcher["token"], None),
    ]
    replay = Replay(srv.base, game_id)
    try:
        for me in seats:
            assert me.player.welcome["seat"] == me.seat
            me.seen = [(0, me.player.welcome), (0, me.player.state)]
            me.seq = me.player.state["seq"]
        await asyncio.wait_for(
            asyncio.gather(*(play(srv.base, room_id, game_id, me, replay, rng) for me in seats)), 120
        )
        for me in seats:
            await every_move_answered_once(me)
        counts = [await check_seat(srv.base, room_id, game_id, me, replay, rng) for me in seats]
    finally:
        for me in seats:
            await me.player.close()
    assert all(n > 1 for n in counts)
    return sum(counts)


async def test_every_frame_and_answer_a_member_gets_is_its_own_seats_view(server: ServerProcess) -> None:
    games = [("ingenious", 3, 1), ("genius-idea", 3, 2), ("genius-idea", 2, 3), ("brainiac", 3, 4)]
    checked = await asyncio.gather(*(one_game(server, g, n, seed) for g, n, seed in games))
    assert all(n > 10 for n in checked), checked
