"""Bots and phase clocks: the server's own moves, made through the same pipeline as a player's.

After every committed move the driver looks at the new state: a bot seat that must act gets
its move after it has "thought": ``BOT_DELAY_MS``, or longer when its engine asks for a human
think time (``bot_think_seconds``, e.g. a Genius Idea Solver reading a hint; none when
``BOT_DELAY_MS`` is 0, as in tests and benchmarks), and a phase with a time
limit gets a timer that applies the engine's ``timeout`` action as the system. Deadlines are
stored with the game, so a restarted server picks the clocks up where they were.

With several processes (Redis), only the process that committed a move schedules the work
it causes, and a claim in Redis (``SET NX EX``) makes sure each bot turn and each timeout
runs once. If that process dies before the work is done, a periodic sweep in every process
(every ``SWEEP_SECONDS``) finds games whose bot turn or clock is overdue and schedules them
again; the claims keep that to one process, and even a job run twice is harmless because
the same ``ref`` from the same seat is never applied twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ...clock import Clock, SystemClock
from ...engines import Rng, get_engine
from ...logs import fields
from ...storage.models import Game, Move, Room, RoomStatus
from ...storage.movelog import aware as _aware
from .. import metrics
from .bus import Bus
from .games import GameService, LiveGame, derive_seed

log = logging.getLogger(__name__)

TIMEOUT_ACTION = {"type": "timeout"}
SWEEP_SECONDS = 3.0
# how long past its due time a bot turn or a clock may be before the sweep takes it over
SWEEP_GRACE = 2.0
# the sweep reads the games that moved or started this recently, and those whose clock ran out
# (not every running game of all time): a game quiet for longer has no bot turn left that a
# live process has not taken, since a process that starts schedules every running game
SWEEP_WINDOW = timedelta(minutes=10)
# a claim outlives a normal job by far, and frees the work soon after its process died
CLAIM_SECONDS = 5
# the longest think time an engine may ask for one bot move (``bot_think_seconds``); the
# sweep lets a quiet game whose engine asks for think times wait this long before it is overdue
THINK_MAX_SECONDS = 15.0


class Driver:
    def __init__(self, games: GameService, bus: Bus, bot_delay: float, clock: Clock | None = None) -> None:
        self.games = games
        self.bus = bus
        self.bot_delay = bot_delay
        self.clock = clock or SystemClock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: dict[int, datetime] = {}  # game id -> deadline a timer sleeps toward
        self._sleepers: dict[int, asyncio.Task[Any]] = {}  # game id -> its timer, while it sleeps
        self._swept: dict[int, int] = {}  # game id -> last seq the sweep found no bot to act at
        self._moved: dict[int, datetime] = {}  # game id -> its last move (or start) the sweep saw
        self._seen: tuple[int, int] | None = None  # the highest move and game ids the last sweep read
        self._seen_before: tuple[int, int] = (0, 0)  # ... and the sweep before it
        self._sweeper: asyncio.Task[None] | None = None
        self._waiting: set[asyncio.Task[Any]] = set()  # jobs still sleeping toward their time
        self.draining = False  # shutting down: no new jobs; a survivor's sweep takes them

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def on_commit(self, live: LiveGame) -> None:
        self.schedule(live)

    def schedule(self, live: LiveGame) -> None:
        if live.over:
            self._stop_timer(live.id)
            return
        if self.draining:
            return
        to_act = live.engine.to_act(live.state)
        plan = sorted(
            (self.think_time(live, seat, bot), seat, bot) for seat, bot in live.bot_seats().items() if seat in to_act
        )
        if plan:
            self._spawn(self._bot_turn(live.id, live.seq, plan))
        if self._timers.get(live.id) != live.deadline_at:
            self._stop_timer(live.id)  # the clock restarted (or stopped): the old deadline is gone
            if live.deadline_at is not None:
                self._timers[live.id] = live.deadline_at
                self._spawn(self._timer(live.id, live.deadline_at))

    def _stop_timer(self, game_id: int) -> None:
        """The game's clock stopped, or restarted with a new deadline: the timer sleeping
        toward the old one is cancelled. Woken, it would find nothing to do, but it would
        load the game again if the cache had let it go meanwhile: a finished game's whole
        log, read and replayed (a tenth of the server's CPU in Genius Idea under load)."""
        self._timers.pop(game_id, None)
        task = self._sleepers.pop(game_id, None)
        if task is not None:
            task.cancel()

    async def _wait(self, seconds: float) -> bool:
        """Sleep; False if the process began shutting down meanwhile (the job is dropped)."""
        task = asyncio.current_task()
        assert task is not None
        self._waiting.add(task)
        try:
            await self.clock.sleep(seconds)
        finally:
            self._waiting.discard(task)
        return not self.draining

    def think_time(self, live: LiveGame, seat: int, bot: str) -> float:
        """Seconds the bot at ``seat`` thinks before its next move: ``BOT_DELAY_MS``, or the
        longer time its engine asks for (capped at ``THINK_MAX_SECONDS``); 0 when
        ``BOT_DELAY_MS`` is 0 (tests and benchmarks play at once)."""
        if self.bot_delay <= 0:
            return 0.0
        ask = getattr(live.engine, "bot_think_seconds", None)
        if ask is None:
            return self.bot_delay
        wanted = ask(live.state, seat, bot, derive_seed(live.seed, live.seq, seat, "think"))
        return max(self.bot_delay, min(float(wanted or 0.0), THINK_MAX_SECONDS))

    async def _bot_turn(self, game_id: int, seq: int, plan: list[tuple[float, int, str]]) -> None:
        """The bots to act at ``seq`` move in the order their think times run out: the first
        whose policy makes a move commits it (and that move schedules the next turn); one who
        waits (None) lets the next bot finish thinking."""
        waited = 0.0
        for think, seat, bot in plan:
            if think > waited:
                if not await self._wait(think - waited):
                    return
                waited = think
            live = await self.games.get(game_id)
            if live.seq != seq or live.over:
                return  # a newer move scheduled its own turn
            if live.bot_seats().get(seat) != bot or seat not in live.engine.to_act(live.state):
                continue
            if not await self.bus.claim(f"bot:{game_id}:{seq}:{seat}", CLAIM_SECONDS):
                continue
            started = time.perf_counter()
            action = await asyncio.to_thread(self.choose, live, seat, bot)
            metrics.BOT_THINK_SECONDS.labels(live.engine.info.id).observe(time.perf_counter() - started)
            if action is None:
                continue  # this bot waits (e.g. lets the race run)
            # checked against the state it was chosen on: if the game moved on meanwhile (a
            # timeout, another seat's move), the move that moved it scheduled a new turn,
            # and the bot thinks again there
            outcome = await self.games.submit(game_id, seat, action, ref=f"bot-{seq}-{seat}", at_seq=seq, bot=True)
            if not outcome.ok and outcome.code not in ("conflict", "not_bot"):
                where = fields(live.room_id, game_id, seq, seat)
                log.error("bot %s made an illegal move: %s", bot, outcome.message, extra=where)
                fallback = self.random_action(live, seat, seq)
                if fallback is not None:
                    await self.games.submit(game_id, seat, fallback, ref=f"bot-{seq}-{seat}-fb", at_seq=seq, bot=True)
            return  # the committed move schedules the next bot turn

    def choose(self, live: LiveGame, seat: int, bot: str) -> dict[str, Any] | None:
        seed = derive_seed(live.seed, live.seq, seat)
        try:
            return live.engine.bot_action(live.state, seat, bot, seed)
        except Exception:
            log.exception("bot %s crashed", bot, extra=fields(live.room_id, live.id, live.seq, seat))
            return self.random_action(live, seat, live.seq)

    @staticmethod
    def random_action(live: LiveGame, seat: int, seq: int) -> dict[str, Any] | None:
        legal = live.engine.legal_actions(live.state, seat)
        if not legal:
            return None
        return Rng.from_seed(derive_seed(live.seed, seq, seat, "fallback")).choice(legal)

    async def _timer(self, game_id: int, deadline: datetime) -> None:
        delay = (deadline - self.clock.now()).total_seconds()
        task = asyncio.current_task()
        assert task is not None
        self._sleepers[game_id] = task
        try:
            if delay > 0 and not await self._wait(delay):
                return
        finally:
            if self._sleepers.get(game_id) is task:
                del self._sleepers[game_id]
        live = await self.games.get(game_id)
        if self._timers.get(game_id) == deadline:
            del self._timers[game_id]
        if live.over or live.deadline_at != deadline:
            return  # the phase ended in time, or its clock restarted
        if not await self.bus.claim(f"timeout:{game_id}:{live.deadline_seq}", CLAIM_SECONDS):
            return
        outcome = await self.games.submit(game_id, None, dict(TIMEOUT_ACTION), ref=f"timeout-{live.deadline_seq}")
        where = fields(live.room_id, game_id, outcome.seq)
        if outcome.ok and not outcome.duplicate:
            metrics.TIMEOUTS.labels(live.engine.info.id).inc()
            log.info("phase clock ran out: timeout applied", extra=where)
        if not outcome.ok:
            log.error("timeout refused: %s", outcome.message, extra=where)

    async def resume_all(self) -> None:
        """After a (re)start: pick up every running game's bots and clocks."""
        async with self.games.db.sessions() as s:
            await self._watch_from_here(s)  # what moves or starts from now on, the sweep sees
            ids = (await s.execute(select(Game.id).where(Game.finished_at.is_(None)))).scalars()
            game_ids = list(ids)
        for game_id in game_ids:
            try:
                live = await self.games.get(game_id)
            except Exception:
                log.exception("could not load game %s", game_id)
                continue
            self.schedule(live)
        if self.games.multi_process and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """Re-schedule running games whose bot turn or clock is overdue (their process died)."""
        now = self.clock.now()
        async with self.games.db.sessions() as s:
            rows = (
                await s.execute(
                    select(
                        Game.id,
                        Game.engine,
                        Game.last_seq,
                        Game.seats,
                        Game.deadline_at,
                        Game.last_move_at,
                        Game.started_at,
                    )
                    .join(Room, Room.id == Game.room_id)
                    .where(*await self._may_be_overdue(s, now))
                )
            ).all()
        for game_id, engine_id, last_seq, seats, deadline_at, last_move_at, started_at in rows:
            bot_due = timedelta(seconds=self.longest_think(engine_id) + SWEEP_GRACE)
            deadline_at = _aware(deadline_at)
            overdue_clock = deadline_at is not None and now - deadline_at > timedelta(seconds=SWEEP_GRACE)
            quiet_since = _aware(last_move_at) or _aware(started_at)
            has_bots = any(isinstance(seat, dict) and seat.get("bot") for seat in seats or ())
            overdue_bot = (
                has_bots
                and quiet_since is not None
                and now - quiet_since > bot_due
                and self._swept.get(game_id) != last_seq
            )
            if not (overdue_clock or overdue_bot):
                continue
            try:
                live = await self.games.catch_up(game_id)
            except Exception:
                log.exception("sweep could not load game %s", game_id)
                continue
            if seats:  # a kick or a stand-in may have made a seat a bot's
                self.games.set_seats(live, seats)
            if live.over or live.closed:
                continue
            bot_to_act = any(seat in live.engine.to_act(live.state) for seat in live.bot_seats())
            if not bot_to_act:
                self._swept[game_id] = live.seq
            self.schedule(live)

    def longest_think(self, engine_id: str) -> float:
        """The longest a bot of this game may think (``think_time``), for the sweep."""
        try:
            asks = hasattr(get_engine(engine_id), "bot_think_seconds")
        except KeyError:
            asks = False
        return max(self.bot_delay, THINK_MAX_SECONDS) if asks and self.bot_delay > 0 else self.bot_delay

    async def _may_be_overdue(self, s: AsyncSession, now: datetime) -> list[ColumnElement[bool]]:
        """What the sweep reads: running games of rooms not closed whose clock ran out (the
        ``deadline_at`` index) or that moved or started within ``SWEEP_WINDOW``. Those are
        found from the ids of the moves and games written since the sweep before last (primary
        key ranges; one sweep of overlap covers a transaction that took an id before another
        but committed after it), not from a column every move would have to index."""
        seen = self._seen if self._seen is not None else await self._watch_from_here(s)  # no resume_all first
        moves_from, games_from = self._seen_before
        moves_seen, games_seen = seen
        moved = (
            select(Move.game_id, func.max(Move.id), func.max(Move.created_at))
            .where(Move.id > moves_from)
            .group_by(Move.game_id)
        )
        for game_id, move_id, at in (await s.execute(moved)).tuples():
            self._saw_move(game_id, _aware(at) or now)
            moves_seen = max(moves_seen, move_id)
        for game_id, at in (await s.execute(select(Game.id, Game.started_at).where(Game.id > games_from))).tuples():
            self._saw_move(game_id, _aware(at) or now)
            games_seen = max(games_seen, game_id)
        self._seen_before, self._seen = seen, (moves_seen, games_seen)
        for game_id, at in list(self._moved.items()):
            if now - at > SWEEP_WINDOW:
                del self._moved[game_id]
                self._swept.pop(game_id, None)
        clock_overdue = Game.deadline_at < now - timedelta(seconds=SWEEP_GRACE)
        recent = Game.id.in_(list(self._moved)) if self._moved else None
        return [
            Game.finished_at.is_(None),
            Room.status != RoomStatus.CLOSED,
            clock_overdue if recent is None else or_(recent, clock_overdue),
        ]

    async def _watch_from_here(self, s: AsyncSession) -> tuple[int, int]:
        """The sweep reads the moves and games written after the ones written now (resume_all
        schedules those, reading every running game once)."""
        self._seen = self._seen_before = (
            await s.scalar(select(func.max(Move.id))) or 0,
            await s.scalar(select(func.max(Game.id))) or 0,
        )
        return self._seen

    def _saw_move(self, game_id: int, at: datetime) -> None:
        self._moved[game_id] = max(at, self._moved.get(game_id, at))

    async def drain(self) -> None:
        """Take no new jobs, drop the sleeping ones, and let those already acting finish."""
        self.draining = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._waiting):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
