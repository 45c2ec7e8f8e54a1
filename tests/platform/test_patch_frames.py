"""Patch frames (docs/protocol.md, "Patch frames"): a client that applies every ``patch`` it
is sent holds exactly the view the server would send it in full, for every seat and for
spectators, over whole games; a patch carries nothing its seat's view does not hold."""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path
from typing import Any

import pytest
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st

from geniusnight.cli import db_upgrade
from geniusnight.engines import get_engine
from geniusnight.server.play.games import LiveGame
from geniusnight.server.play.outbound import expand
from geniusnight.server.play.patches import COMPACT, JSON_PATCH, History, PatchForm, apply_patch, diff, encode, top_diff
from support import ServerProcess
from wsclient import Player, host_post, join, make_room

GAMES = ["ingenious", "genius-idea", "brainiac"]
KEEP = 8  # steps kept, small so that some reconnects fall off the end of the history
FORMS: tuple[PatchForm, ...] = (JSON_PATCH, COMPACT)


def replay(history: History, held: Any, seat: int | None) -> Any:
    """``held`` with every kept step's operations for ``seat`` applied, the same in each
    form (the history writes both, as for a room with clients of each)."""
    results = []
    for form in FORMS:
        view = held
        for step in history.chain(0) or []:
            view = apply_patch(view, json.loads(f"[{step.ops_text(seat, form)}]"))
        results.append(canonical(view))
    assert len(set(results)) == 1, "the two forms give different views"
    return json.loads(results[0])


def canonical(value: Any) -> str:
    """Equal JSON values give equal text (keeps 1, 1.0 and True apart, ignores key order)."""
    return json.dumps(value, sort_keys=True)


# views never hold true where the same place held 1 (see patches._same): numbers stay apart
# from booleans here
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(2, 9) | st.floats(2.5, 9.5) | st.text("ab/~", max_size=3),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text("ab/~", max_size=3), inner, max_size=4),
    max_leaves=20,
)


# what a frame may hold beyond the views: keys that are numbers, integers past 64 bits,
# text outside ASCII
frame_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3) | st.integers(-5, 5), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(frame_values)
@settings(max_examples=300, deadline=None)
def test_a_frame_is_encoded_as_json_on_one_line_whatever_it_holds(value: Any) -> None:
    text = encode(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert "\n" not in text  # a bus message puts one event on each line


@given(json_values, json_values)
def test_a_patch_turns_the_old_value_into_the_new(old: Any, new: Any) -> None:
    assert canonical(apply_patch(old, diff(old, new))) == canonical(new)


json_dicts = st.dictionaries(st.text("ab/~", max_size=3), json_values, max_size=5)


@given(json_dicts, json_dicts)
def test_a_key_by_key_patch_turns_the_old_view_into_the_new(old: dict[str, Any], new: dict[str, Any]) -> None:
    ops = top_diff(old, new)
    assert canonical(apply_patch(old, ops)) == canonical(new)
    assert all(op["path"].count("/") == 1 or op["op"] == "add" for op in ops)  # nothing walked into


@given(st.lists(json_values, max_size=6), st.lists(json_values, min_size=1, max_size=4))
def test_a_shared_list_that_grew_at_its_end_is_sent_only_its_new_items(items: list[Any], more: list[Any]) -> None:
    ops = top_diff({"history": items, "round": 2}, {"history": [*items, *more], "round": 2})
    assert ops == [{"op": "add", "path": f"/history/{len(items) + i}", "value": v} for i, v in enumerate(more)]


@given(st.lists(st.integers(0, 9), max_size=12), st.integers(0, 12), st.integers(0, 9))
def test_one_item_inserted_into_a_list_is_one_add(items: list[int], where: int, item: int) -> None:
    where = min(where, len(items))
    after = [*items[:where], item, *items[where:]]
    ops = diff({"log": items}, {"log": after})
    assert len(ops) == 1 and ops[0]["op"] == "add"


flat_scalars = st.lists(st.booleans() | st.integers(0, 1) | st.sampled_from([0.0, 1.0]), max_size=8)


@given(flat_scalars, flat_scalars)
def test_a_list_item_equal_in_value_but_not_in_type_is_replaced(old: list[Any], new: list[Any]) -> None:
    # 1, 1.0 and True are equal in Python but not the same JSON: lists of a view are
    # compared in C for speed, and an item that changed its type must still be sent
    assert canonical(apply_patch(old, diff(old, new))) == canonical(new)


def test_an_item_appended_to_a_long_list_is_one_add_at_its_end() -> None:
    board = [[q, -q, "red"] for q in range(80)]
    assert diff(board, [*board, [9, 9, "blue"]]) == [{"op": "add", "path": "/80", "value": [9, 9, "blue"]}]


def test_apply_patch_leaves_the_view_it_was_given_unchanged() -> None:
    old = {"board": [[1, 2]], "scores": {"red": 1}}
    apply_patch(old, [{"op": "replace", "path": "/scores/red", "value": 2}, {"op": "remove", "path": "/board/0"}])
    assert old == {"board": [[1, 2]], "scores": {"red": 1}}


def sub_values(value: Any) -> set[str]:
    found = {canonical(value)}
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        found |= sub_values(child)
    return found


def new_game(game: str, players: int, seed: int) -> LiveGame:
    engine = get_engine(game)
    options = engine.validate_options(players, {})
    return LiveGame(
        id=1,
        room_id="r",
        engine=engine,
        options=options,
        seed=seed,
        players=players,
        seats=[{} for _ in range(players)],
        time_limits={},
        state=engine.setup(players, options, seed),
    )


def play(live: LiveGame, n: int, salt: int) -> None:
    """``n`` random legal moves (or the phase's timeout when nobody may act)."""
    engine = live.engine
    for i in range(n):
        if live.over:
            return
        actors = sorted(engine.to_act(live.state))
        seat = actors[(salt + i) % len(actors)] if actors else None
        action = engine.bot_action(live.state, seat, "random", salt * 1000 + live.seq) if seat is not None else None
        if action is None:
            live.state, live.seq = engine.apply(live.state, None, {"type": "timeout"}), live.seq + 1
        else:
            live.state, live.seq = engine.apply(live.state, seat, action), live.seq + 1


def tracked_inside(value: Any) -> int:
    """How many objects the garbage collector tracks that ``value`` holds, at any depth."""
    seen: set[int] = set()
    todo = [value]
    while todo:
        for inner in gc.get_referents(todo.pop()):
            if gc.is_tracked(inner) and not isinstance(inner, type) and id(inner) not in seen:
                seen.add(id(inner))
                todo.append(inner)
    return len(seen)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_keeps_its_patch_steps_as_text_the_garbage_collector_never_walks(game: str) -> None:
    # a busy server keeps every live game's last steps: as operation dicts and lists they
    # would make most of what each collection walks (docs/performance.md, D22)
    live = new_game(game, 4, 7)
    for form in FORMS:
        live.observe(KEEP, form)  # a room with clients of both forms
    for _ in range(12):
        play(live, 1, 3)
        live.observe(KEEP)
    steps = live.observe(KEEP).steps
    assert len(steps) == KEEP
    for step in steps:
        assert set(step.texts) == set(FORMS)
        for texts in step.texts.values():
            assert isinstance(texts.shared, str) and all(isinstance(text, str) for text in texts.own.values())
            assert not gc.is_tracked(texts.own)
        # a few containers a step, however many operations it holds: the texts by form, and
        # each form's shared and own texts
        assert tracked_inside(step) <= 1 + len(FORMS)


@pytest.mark.parametrize("game", GAMES)
def test_only_the_newest_step_and_seq_keep_their_encoded_frames(game: str) -> None:
    # every connection of a seat shares the newest step's frame; an older one is made again
    # only for a client that reconnects from it, so a game holds one step's frames, not 64
    live = new_game(game, 4, 7)
    live.state_text(0)  # a full state, as a welcome sends
    live.observe(KEEP, JSON_PATCH)
    for _ in range(5):
        play(live, 1, 3)
        step = live.newest_step(KEEP)
        assert step is not None
        for seat in [0, 1, 2, 3, None]:
            live.step_text(step, seat, JSON_PATCH)
        assert live.step_text(step, 0, COMPACT) is None  # no client took that form
    steps = list(live.observe(KEEP).steps)
    assert len(steps[-1].frames) == 5 and not any(step.frames for step in steps[:-1])
    assert live._frames is None  # the full frames of the first seq went with it


def test_steps_made_before_a_client_took_a_form_are_not_sent_in_it() -> None:
    # a client of the compact form that comes (or resumes) after steps were written for RFC
    # 6902 clients only gets a full state for them, then patches in its form from its state on
    live = new_game("ingenious", 4, 7)
    live.observe(KEEP, JSON_PATCH)
    base = live.seq
    play(live, 2, 3)
    assert live.patch_texts(0, base, KEEP, JSON_PATCH) is not None
    assert live.patch_texts(0, base, KEEP, COMPACT) is None  # the hub then sends a full state
    live.observe(KEEP, COMPACT)  # as send_state does for the compact client
    now = live.seq
    play(live, 1, 3)
    texts = live.patch_texts(0, now, KEEP, COMPACT)
    assert texts is not None and all(isinstance(op, list) for op in expand(json.loads(texts[0]))["ops"])
    assert live.patch_texts(0, base, KEEP, COMPACT) is None  # the older steps still lack it


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=4, deadline=None)
@given(
    players=st.integers(3, 4),
    seed=st.integers(0, 2**31),
    salt=st.integers(0, 100),
    gaps=st.lists(st.integers(1, 3), min_size=1),
)
def test_a_client_applying_patches_holds_the_full_view_of_its_seat(
    game: str, players: int, seed: int, salt: int, gaps: list[int]
) -> None:
    live = new_game(game, players, seed)
    for form in FORMS:
        live.observe(KEEP, form)  # as when the first full state goes out to a client of each form
    clients = [(seat, form) for seat in [*range(players), None] for form in FORMS]
    held = {(seat, form): (live.seq, live.view(seat)) for seat, form in clients}  # what each client holds
    saved = dict(held)  # a client that went away a while ago
    for turn in range(2000):
        if live.over:
            break
        play(live, gaps[turn % len(gaps)], salt)  # several moves between two fan-outs, at times
        for client in clients:
            seat, form = client
            base, view = held[client]
            texts = live.patch_texts(seat, base, KEEP, form)
            assert texts is not None  # the steps since the last fan-out are always kept
            full = live.view(seat)
            allowed = sub_values(full)
            for text in texts:
                frame = expand(json.loads(text))
                assert (frame["type"], frame["game_id"], frame["base"]) == ("patch", 1, base)
                assert "seat" not in frame and "deadline" not in frame  # no clock in this game
                for op in frame["ops"]:
                    sent = [op["value"]] if form == JSON_PATCH and "value" in op else op[2:] if form == COMPACT else []
                    for value in sent:
                        assert canonical(value) in allowed, f"seat {seat} was sent {op}"
                view, base = apply_patch(view, frame["ops"]), frame["seq"]
            assert base == live.seq
            assert canonical(view) == canonical(full)
            held[client] = (live.seq, view)
            # a reconnect replays the steps missed, or (once they are no longer kept) says so
            old_base, old_view = saved[client]
            chain = live.patch_texts(seat, old_base, KEEP, form)
            if chain is None:
                saved[client] = (live.seq, full)
            else:
                for text in chain:
                    old_view = apply_patch(old_view, expand(json.loads(text))["ops"])
                assert canonical(old_view) == canonical(full)
    assert live.over, "the game did not end"


# --- over a real server's websockets ----------------------------------------------------


async def two_seats(server: ServerProcess, **options: Any) -> tuple[str, str, str]:
    """A started two-player toy game: (room id, host token, guest token)."""
    room_id, token, invite = await make_room(server.base, options=options or None)
    guest = await join(server.base, invite, "Guest")
    assert (await host_post(server.base, room_id, token, "/start")).status_code == 200
    return room_id, token, guest["token"]


async def test_a_client_that_takes_patches_gets_one_per_move_and_the_same_view(server: ServerProcess) -> None:
    room_id, host_token, guest_token = await two_seats(server)
    host = await Player(server.ws_base, room_id, host_token, patches=True).connect()
    guest = await Player(server.ws_base, room_id, guest_token, patches=True).connect()
    plain = await Player(server.ws_base, room_id, guest_token).connect()  # the guest in a second tab
    compact = await Player(server.ws_base, room_id, guest_token, patches="compact").connect()  # and a third
    for mover, n in ((host, 1), (guest, 2), (host, 3)):
        assert (await mover.act({"type": "add", "n": n}))["type"] == "ack"
    for player in (guest, plain, compact):
        await player.wait_state(lambda v: v["counter"] == 6)
    assert guest.state == plain.state == compact.state  # patched view == the full frame, seat included
    for player in (guest, compact):
        assert [f["type"] for f in player.frames if f["type"] in ("state", "patch")] == ["state"] + ["patch"] * 3
    assert all(f["type"] != "patch" for f in plain.frames)  # it did not ask for patches
    # each in the form it asked for: the compact one's operations are arrays
    patches = {p: [f for f in p.frames if f["type"] == "patch"] for p in (guest, compact)}
    assert all(isinstance(op, dict) for f in patches[guest] for op in f["ops"])
    assert all(isinstance(op, list) and op[0] in "+-=" for f in patches[compact] for op in f["ops"])
    assert [f["seq"] for f in patches[guest]] == [f["seq"] for f in patches[compact]]
    assert guest.stale == 0 and host.stale == 0 and compact.stale == 0
    for player in (host, guest, plain, compact):
        await player.close()


async def test_a_reconnect_replays_only_the_moves_it_missed(server: ServerProcess) -> None:
    room_id, host_token, guest_token = await two_seats(server)
    host = await Player(server.ws_base, room_id, host_token).connect()
    guest = await Player(server.ws_base, room_id, guest_token, patches=True).connect()
    await host.act({"type": "add", "n": 1})
    await guest.wait_state(lambda v: v["counter"] == 1)
    await guest.close()
    other_tab = await Player(server.ws_base, room_id, guest_token).connect()
    await other_tab.act({"type": "add", "n": 2})
    await host.act({"type": "add", "n": 3})
    await other_tab.wait_state(lambda v: v["counter"] == 6)
    guest.frames.clear()
    await guest.connect(resume=True)
    await guest.wait_state(lambda v: v["counter"] == 6)
    kinds = {f["type"] for f in guest.frames if f["type"] in ("state", "patch")}
    assert kinds == {"patch"} and guest.state == other_tab.state and guest.stale == 0
    # and the connection plays on
    assert (await guest.act({"type": "add", "n": 1}))["type"] == "ack"
    for player in (host, guest, other_tab):
        await player.close()


async def test_a_reconnect_that_is_current_gets_nothing_to_apply(server: ServerProcess) -> None:
    room_id, _host_token, guest_token = await two_seats(server)
    guest = await Player(server.ws_base, room_id, guest_token, patches=True).connect()
    await guest.close()
    guest.frames.clear()
    await guest.connect(resume=True)
    await guest.send({"type": "ping"})
    await guest.expect("pong")
    assert not [f for f in guest.frames if f["type"] in ("state", "patch")]
    await guest.close()


@pytest.mark.parametrize(
    "claim",
    [
        {"seat": 0},  # a view of another seat than the member's
        {"seq": -1},
        {"seq": 10**6},  # a seq the game never reached
        {"seq": "0"},
        {"seq": True},
        {"seat": True},
        {"seat": "1"},
    ],
)
async def test_a_reconnect_that_cannot_resume_gets_a_full_state(server: ServerProcess, claim: dict[str, Any]) -> None:
    room_id, host_token, guest_token = await two_seats(server)
    host = await Player(server.ws_base, room_id, host_token).connect()
    guest = await Player(server.ws_base, room_id, guest_token, patches=True).connect()
    await host.act({"type": "add", "n": 1})
    await guest.wait_state(lambda v: v["counter"] == 1)
    hello = {"type": "hello", "token": guest_token, "patches": True, "game_id": guest.state["game_id"], "seq": 0}
    hello["seat"] = 1
    hello.update(claim)
    again = Player(server.ws_base, room_id, guest_token, patches=True)
    again.ws = await websockets.connect(again.url)
    await again.send(hello)
    await again.expect("welcome")
    frame = await again.expect("state")
    assert frame["seq"] == 1 and frame["seat"] == 1 and "secret" in frame["view"]
    for player in (host, guest, again):
        await player.close()


async def test_a_reconnect_past_the_kept_steps_gets_a_full_state(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'steps.db'}"
    db_upgrade(url)
    srv = ServerProcess(url, env={"GENIUSNIGHT_PATCH_STEPS": "1"}).start()
    try:
        room_id, host_token, guest_token = await two_seats(srv)
        host = await Player(srv.ws_base, room_id, host_token, patches=True).connect()
        guest = await Player(srv.ws_base, room_id, guest_token, patches=True).connect()
        await guest.close()
        await host.act({"type": "add", "n": 1})
        other_tab = await Player(srv.ws_base, room_id, guest_token).connect()
        await other_tab.act({"type": "add", "n": 1})
        await host.wait_state(lambda v: v["counter"] == 2)
        guest.frames.clear()
        await guest.connect(resume=True)
        frame = await guest.expect("state")
        assert frame["seq"] == 2 and guest.state == other_tab.state
        for player in (host, guest, other_tab):
            await player.close()
    finally:
        srv.stop()


@settings(max_examples=50, deadline=None)
@given(
    views=st.lists(
        st.lists(st.dictionaries(st.text("ab", max_size=2), json_values, max_size=3), min_size=3, max_size=3),
        min_size=2,
        max_size=8,
    ),
    gives=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_history_diffs_a_seats_own_views_where_the_engine_gives_no_operations(
    views: list[list[dict[str, Any]]], gives: list[bool]
) -> None:
    """An engine's ``seat_view_ops`` may give up (None) on any step; the history then diffs
    the seat's two own views, building the older one again when the step before took the
    engine's operations and built none. Each seat ends up holding its own newest view."""
    seats = [0, 1, None]

    def seat_view(state: int, seat: int | None) -> dict[str, Any]:
        return views[state][seats.index(seat)]

    def seat_view_ops(old: int, new: int, seat: int | None) -> list[dict[str, Any]] | None:
        return diff(seat_view(old, seat), seat_view(new, seat)) if gives[new] else None

    history = History(KEEP, lambda state: {}, None, seat_view, seat_view_ops)
    history.forms.update(FORMS)
    for seq in range(len(views)):
        history.advance(seq, seq, seats)
    for seat in seats:
        assert canonical(replay(history, seat_view(0, seat), seat)) == canonical(seat_view(len(views) - 1, seat))


@given(
    views=st.lists(st.dictionaries(st.text("ab", max_size=2), json_values, max_size=4), min_size=2, max_size=8),
    gives=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_history_diffs_the_shared_views_where_the_engine_gives_no_operations(
    views: list[dict[str, Any]], gives: list[bool]
) -> None:
    """An engine's ``shared_view_ops`` may give up (None) on any step; the history then
    diffs the two shared views, building the older one again when the step before took
    the engine's operations and built none."""
    built: list[int] = []

    def shared_view(state: int) -> dict[str, Any]:
        built.append(state)
        return views[state]

    def shared_view_ops(old: int, new: int) -> list[dict[str, Any]] | None:
        return diff(views[old], views[new]) if gives[new] else None

    history = History(KEEP, shared_view, shared_view_ops)
    history.forms.update(FORMS)
    for seq in range(len(views)):
        history.advance(seq, seq, [])
    assert canonical(replay(history, views[0], None)) == canonical(views[-1])
    assert all(gives[s] for s in range(1, len(views)) if s not in built)  # built only when diffed


def test_history_keeps_a_view_the_engines_operations_left_unchanged() -> None:
    """Brainiac gives operations within a phase only: a view those left unchanged ([]) is
    still the seat's view, and the next step's diff starts from it without building it again."""
    views = [{"a": 1}, {"a": 2}, {"a": 2}, {"a": 3}]
    built: list[tuple[int, int | None]] = []

    def view(state: int) -> dict[str, Any]:
        built.append((state, None))
        return views[state]

    def seat_view(state: int, seat: int | None) -> dict[str, Any]:
        built.append((state, seat))
        return views[state]

    def ops(old: int, new: int, seat: int | None = None) -> list[dict[str, Any]] | None:
        return [] if new == 2 else None  # only the step to 2 is the engine's: nothing changed

    history = History(KEEP, view, ops, seat_view, ops)
    history.forms.add(JSON_PATCH)
    for seq in range(4):
        history.advance(seq, seq, [0])
    assert (2, 0) not in built and (2, None) not in built
    replace = [{"op": "replace", "path": "/a", "value": 2}] * 2
    assert [json.loads(f"[{step.ops_text(0)}]") for step in history.chain(0) or []] == [
        replace,
        [],
        [{"op": "replace", "path": "/a", "value": 3}] * 2,
    ]


async def test_the_movers_ack_rides_in_its_patch_when_its_hello_asks(server: ServerProcess) -> None:
    room_id, host_token, guest_token = await two_seats(server)
    host = await Player(server.ws_base, room_id, host_token, patches="compact", ack_in_patch=True).connect()
    host_tab = await Player(server.ws_base, room_id, host_token, patches="compact", ack_in_patch=True).connect()
    guest = await Player(server.ws_base, room_id, guest_token, patches="compact").connect()
    json_guest = await Player(server.ws_base, room_id, guest_token, patches=True, ack_in_patch=True).connect()

    async def raw_frames(player: Player, count: int) -> list[Any]:
        """The next ``count`` frames of the game as sent, passing over the room's."""
        got: list[Any] = []
        while len(got) < count:
            frame = json.loads(await asyncio.wait_for(player.ws.recv(), 5))
            if (frame[0] if isinstance(frame, list) else frame["type"]) not in ("r", "room", "room_patch"):
                got.append(frame)
        return got

    await host.send({"type": "act", "ref": "h1", "action": {"type": "add", "n": 2}})
    (mine,) = await raw_frames(host, 1)  # one frame: the patch, its last item the move's ref
    assert mine[:4] == ["p", host.state["game_id"], 1, 0] and mine[5:] == [None, "h1"]
    assert expand(mine)["ack"] == "h1"
    (tab,) = await raw_frames(host_tab, 1)  # the same member's other tab moved nothing
    assert tab == mine[:5]
    (theirs,) = await raw_frames(guest, 1)
    assert theirs[:4] == ["p", host.state["game_id"], 1, 0] and len(theirs) == 5
    # a client that did not ask gets its ack as a frame of its own, after its patch
    await guest.send({"type": "act", "ref": "g1", "action": {"type": "add", "n": 1}})
    patch, ack = await raw_frames(guest, 2)
    assert patch[:3] == ["p", host.state["game_id"], 2] and len(patch) == 5 and ack == ["a", "g1", 2]
    # a move sent again is acknowledged as a duplicate, on its own: it made no step
    await raw_frames(host, 1)
    await host.send({"type": "act", "ref": "h1", "action": {"type": "add", "n": 2}})
    assert await raw_frames(host, 1) == [["a", "h1", 1, True]]
    # the wsclient reads the folded ack as the ack it stands for
    ack = await host.act({"type": "add", "n": 1}, ref="h2")
    assert ack == {"type": "ack", "ref": "h2", "seq": 3, "duplicate": False}
    # an RFC 6902 client has no array to carry it: its ack is a frame of its own
    await json_guest.send({"type": "act", "ref": "j1", "action": {"type": "add", "n": 1}})
    frames = await raw_frames(json_guest, 5)
    assert [f["type"] for f in frames] == ["patch"] * 4 + ["ack"] and "ack" not in frames[3]
    for player in (host, host_tab, guest, json_guest):
        await player.close()
