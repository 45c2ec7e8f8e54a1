"""Bot Solvers race at a person's pace: the server holds a Solver's answer to a hint until
its think time has passed (``bots.think_seconds``, asked through the engine's optional
``bot_think_seconds``), never under ``MIN_THINK`` seconds. The server runs on a fake clock
(``support.FakeClock``), so these seconds pass in milliseconds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea import bots
from geniusnight.engines.genius_idea.similarity import builtin_words
from geniusnight.server.app import create_app
from geniusnight.settings import Settings
from support import FakeClock

BOT_DELAY = 0.7


def guess_state(seed: int) -> dict[str, Any]:
    """A 4-player game at its first guess phase (bots prepared and revealed)."""
    state = E.setup(4, {}, seed)
    while state["phase"] != "guess":
        seat = min(E.to_act(state))
        action = E.bot_action(state, seat, "normal", seed) or {"type": "timeout"}
        state = E.apply(state, seat, action)
    return state


@pytest.mark.parametrize("bot", ["easy", "normal", "sharp", "smart", "random"])
def test_a_solver_thinks_at_least_min_think_seconds_after_a_hint(bot: str) -> None:
    state = guess_state(3)
    solver = min(E.to_act(state))
    times = [E.bot_think_seconds(state, solver, bot, seed) for seed in range(300)]
    assert all(t is not None and t >= bots.MIN_THINK for t in times)
    assert max(t for t in times if t is not None) - min(t for t in times if t is not None) > 1.0  # a spread


def test_weaker_solvers_take_longer_to_answer() -> None:
    state = guess_state(4)
    solver = min(E.to_act(state))

    def mean(bot: str) -> float:
        return sum(E.bot_think_seconds(state, solver, bot, s) or 0.0 for s in range(300)) / 300

    assert mean("easy") > mean("normal") > mean("sharp") >= bots.MIN_THINK


def test_moves_other_than_a_solvers_answer_take_the_servers_usual_delay() -> None:
    state = E.setup(3, {}, 0)
    assert E.bot_think_seconds(state, 0, "sharp", 1) is None  # preparing
    state = guess_state(5)
    waiting = next(s for s in range(4) if s not in E.to_act(state))
    assert E.bot_think_seconds(state, waiting, "sharp", 1) is None  # not its move


@asynccontextmanager
async def served(db_url: str, clock: FakeClock) -> AsyncIterator[tuple[httpx.AsyncClient, Any]]:
    settings = Settings(env="test", database_url=db_url, bot_delay_ms=int(BOT_DELAY * 1000), admin_token="a" * 32)
    app = create_app(settings, clock=clock)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client, app.state


async def idle() -> None:
    """Let every task that can run now run (nothing is due on the clock meanwhile)."""
    await asyncio.sleep(0.05)


async def until_seq(services: Any, game_id: int, seq: int) -> Any:
    for _ in range(300):
        live = await services.games.get(game_id)
        if live.seq >= seq:
            return live
        await asyncio.sleep(0.01)
    raise AssertionError(f"seq {seq} not reached")


async def test_a_bot_solver_never_answers_a_hint_before_its_think_time(db_url: str) -> None:
    """A person is the Riddler (seat 0); a normal bot is the Disruptor, a sharp bot the
    Solver. After each hint the Solver is still silent just before its think time and has
    answered just after it."""
    clock = FakeClock()
    async with served(db_url, clock) as (client, services):
        words = list(builtin_words())
        options = {"mode": "competitive", "shuffle": False, "words": words}
        r = await client.post("/api/rooms", json={"game": "genius-idea", "options": options, "name": "Ada"})
        room_id, token = r.json()["room_id"], r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for bot in ("normal", "sharp"):
            assert (await client.post(f"/api/rooms/{room_id}/bots", json={"bot": bot}, headers=auth)).status_code == 200
        assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth)).status_code == 200
        game_id = int((await client.get(f"/api/rooms/{room_id}", headers=auth)).json()["game_id"])
        hand = words[:10]
        riddle = {"type": "prepare", "answer": hand[0], "hints": hand[1:6]}
        assert (await services.games.submit(game_id, 0, riddle, ref="prep")).ok
        answered = 0
        for _ in range(40):
            live = await services.games.get(game_id)
            phase = live.state["phase"]
            if live.over or phase == "results":  # the first round is over
                break
            if phase == "order":  # the person orders at once
                order = {"type": "order", "hints": list(live.state["cur"]["revealed"])}
                assert (await services.games.submit(game_id, 0, order, ref=f"o{live.seq}")).ok
                continue
            await idle()
            if phase == "guess" and 2 in live.engine.to_act(live.state):
                think = services.driver.think_time(live, 2, "sharp")
                assert think >= bots.MIN_THINK
                clock.advance(think - 0.05)
                await idle()
                assert (await services.games.get(game_id)).seq == live.seq  # still reading the hint
                clock.advance(0.05)
                assert live.engine.to_act(live.state) == {2}  # so the next move is the Solver's
                await until_seq(services, game_id, live.seq + 1)
                answered += 1
            else:  # preparing or revealing bots: the server's usual delay
                clock.advance(BOT_DELAY)
                await until_seq(services, game_id, live.seq + 1)
        assert answered >= 1
