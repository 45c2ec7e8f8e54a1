"""Live games: the move pipeline between a seat's action and the committed log.

Every accepted move goes through :meth:`GameService.submit`: under the game's lock it is
checked by the engine, written as the next ``seq`` and committed, and only then acknowledged
and fanned out. State is rebuilt by replaying the log through the engine. Every read and
write of a game goes through the move log (``storage.movelog.MoveLog``): no SQL here.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from ...clock import Clock, SystemClock
from ...engines import Engine, IllegalAction, get_engine
from ...logs import fields
from ...storage.database import Database
from ...storage.models import Game
from ...storage.movelog import MoveLog, NewMove, SeqTaken
from .. import metrics
from ..replay.replayer import initial_state, steps
from .outbound import PatchFrame, StateFrames
from .patches import History, PatchForm, Step
from .refusals import Refusal, RefusalLog

log = logging.getLogger(__name__)


@dataclass
class LiveGame:
    """One game's current state, cached in this process."""

    id: int
    room_id: str
    engine: Engine
    options: dict[str, Any]
    seed: int
    players: int
    seats: list[dict[str, Any]]  # after construction, changed only by GameService.set_seats
    time_limits: dict[str, Any]
    state: Any
    # member id -> the seat that member holds (GameSeat); a seat nobody holds is a bot's
    holders: dict[int, int] = field(default_factory=dict)
    seq: int = 0
    # (sender member id, seat, ref) -> seq: a ref is unique per sender, and the server's own
    # moves (bots, timeouts) have no member, so no client can take a ref the server uses
    refs: dict[tuple[int | None, int | None, str], int] = field(default_factory=dict)
    deadline_at: datetime | None = None
    deadline_seq: int | None = None
    closed: bool = False  # its room was closed: the log stays, nobody plays on
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    used_at: float = field(default_factory=time.monotonic)  # for the cache's idle and LRU rules
    submitting: int = 0  # moves on their way through the pipeline (the cache keeps the game)
    # the ``state`` frames of the current seq and deadline (see state_text)
    _frames_key: tuple[int, datetime | None] | None = field(default=None, repr=False)
    _frames: StateFrames | None = field(default=None, repr=False)
    # by seat: the length of the last ``state`` frame encoded for it (see state_size)
    _frame_sizes: dict[int | None, int] = field(default_factory=dict, repr=False)
    # the views patch frames were last computed from, and the steps since (see patch_texts)
    history: History | None = field(default=None, repr=False)
    # the last moves committed here, as published to other processes (see published_moves)
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=PUBLISHED_MOVES), repr=False)
    _bots: dict[int, str] = field(default_factory=dict, init=False, repr=False)  # see bot_seats
    _viewers: list[int | None] = field(default_factory=list, init=False, repr=False)  # every seat, and None
    _over_of: Any = field(default=None, init=False, repr=False)  # the state ``_over`` was found for
    _over: bool = field(default=False, init=False, repr=False)

    @property
    def over(self) -> bool:
        """Whether the game has ended. Asked four times a move (the commit, the fan-out, the
        bots' and timers' driver): the engine is asked once per state (states are never
        changed, a move makes a new one)."""
        state = self.state
        if state is not self._over_of:
            self._over_of, self._over = state, self.engine.outcome(state) is not None
        return self._over

    def __post_init__(self) -> None:
        self._bots = _bots_of(self.seats)
        self._viewers = [*range(self.players), None]

    def bot_seats(self) -> dict[int, str]:
        """Seat -> the bot policy that plays it (asked after every move: worked out only when
        the seats change, see GameService.set_seats)."""
        return self._bots

    def seat_of(self, member_id: int | None) -> int | None:
        """The seat ``member_id`` holds in this game, or None (a spectator, or kicked)."""
        return None if member_id is None else self.holders.get(member_id)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.engine.view(self.state, seat)

    def published_moves(self) -> list[dict[str, Any]]:
        """The moves a ``state`` event carries to other processes: those committed here
        since the seq before the last few, so that a subscriber one or two moves behind
        applies them without reading the log (a longer gap reads it)."""
        return [m for m in self.recent if m["seq"] <= self.seq]

    def state_text(self, seat: int | None, form: PatchForm | None = None) -> str:
        """The encoded ``state`` frame for ``seat`` (compact for a client of that ``form``).
        The part of the view every seat sees alike is built and encoded once per seq; each
        seat adds only its own part, and every connection of that seat (or every spectator)
        gets the same string (see StateFrames)."""
        key = (self.seq, self.deadline_at)
        frames = self._frames
        if frames is None or self._frames_key != key:
            engine, state = self.engine, self.state
            frames = self._frames = StateFrames(
                self.id, self.seq, self.deadline_ms(), engine.shared_view(state), partial(engine.seat_view, state)
            )
            self._frames_key = key
        text = frames.encode(seat, form)
        self._frame_sizes[seat] = len(text)
        return text

    def deadline_ms(self) -> float | None:
        """When the current phase's time limit passes, in epoch milliseconds (frames say so)."""
        return self.deadline_at.timestamp() * 1000 if self.deadline_at else None

    def state_size(self, seat: int | None) -> int:
        """About the length of ``seat``'s ``state`` frame now: that of the last one encoded.

        A view grows or shrinks by about one move's worth per seq, so the last length is
        good enough to judge whether a patch is worth sending, and it saves encoding a
        full frame per seat and move only to measure it."""
        size = self._frame_sizes.get(seat)
        return len(self.state_text(seat)) if size is None else size

    def observe(self, keep: int, form: PatchForm | None = None) -> History:
        """The patch history, with every seat's view at the current seq recorded (once per
        seq). It keeps the last ``keep`` steps, and writes the next ones in ``form`` too (a
        client takes it)."""
        history = self.history
        if history is None:
            engine = self.engine
            history = self.history = History(
                keep,
                engine.shared_view,
                getattr(engine, "shared_view_ops", None),
                engine.seat_view,
                getattr(engine, "seat_view_ops", None),
            )
        if form is not None:
            history.forms.add(form)
        if history.seq != self.seq:
            history.advance(self.seq, self.state, self._viewers)
            if self._frames_key is not None and self._frames_key[0] != self.seq:
                # full frames of an older seq are never sent again: let them go now rather than
                # when the next full frame is encoded (most games never need one again)
                self._frames, self._frames_key = None, None
        return history

    def patch_texts(self, seat: int | None, base: int, keep: int, form: PatchForm) -> list[str] | None:
        """The encoded ``patch`` frames in ``form`` that take ``seat``'s view from ``base`` to
        the current seq (none if it is current), or None when the steps from ``base`` are not
        kept, or some were made before a client took ``form``."""
        steps = self.observe(keep).chain(base)
        if steps is None:
            return None
        texts = []
        for step in steps:
            text = self.step_text(step, seat, form)
            if text is None:
                return None
            texts.append(text)
        return texts

    def newest_step(self, keep: int) -> Step | None:
        """The step to the current seq (every seat's view recorded first), if it is kept."""
        steps = self.observe(keep).steps
        return steps[-1] if steps and steps[-1].seq == self.seq else None

    def step_text(self, step: Step, seat: int | None, form: PatchForm, ack: str | None = None) -> str | None:
        """``step``'s encoded ``patch`` frame in ``form`` for ``seat``: encoded once for every
        connection of that seat that takes the form. None if the step was made before a
        client took ``form``. With ``ack``, the ref of the move the step made, the mover's
        own frame (compact only), encoded for it alone."""
        if ack is not None:
            if form not in step.texts:
                return None
            return PatchFrame(self.id, step, self.deadline_ms(), seat, form, ack).encode()
        key = (seat, form)
        text = step.frames.get(key)
        if text is None:
            if form not in step.texts:
                return None
            text = step.frames[key] = PatchFrame(self.id, step, self.deadline_ms(), seat, form).encode()
        return text


def _bots_of(seats: list[dict[str, Any]]) -> dict[int, str]:
    return {i: s["bot"] for i, s in enumerate(seats) if s.get("bot")}


@dataclass
class Outcome:
    """What became of a submitted action."""

    ok: bool
    seq: int
    code: str = ""
    message: str = ""
    duplicate: bool = False


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from parts (bot choices must not depend on Python's hash salt)."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


PUBLISHED_MOVES = 4  # the last moves a state event carries to other processes


@dataclass
class CacheLimits:
    """How many games stay in memory, and for how long unused. A game that left comes back
    from its log when it is needed again, so these trade memory for replay work only."""

    max_games: int = 1000
    idle_seconds: float = 600.0  # a running game nobody touched for this long leaves
    finished_seconds: float = 60.0  # a finished (or closed) game leaves sooner


class GameService:
    """Loads, caches and advances games. One per process."""

    def __init__(
        self,
        db: Database,
        *,
        multi_process: bool = False,
        clock: Clock | None = None,
        limits: CacheLimits | None = None,
        on_commit: list[Callable[[LiveGame], Awaitable[None]]] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock or SystemClock()  # stamps moves and sets deadlines
        self.multi_process = multi_process
        self.limits = limits or CacheLimits()
        # least recently used first
        self.live: OrderedDict[int, LiveGame] = OrderedDict()
        # each room's newest game in ``live``, by room (what ``retire`` looks for)
        self.newest: dict[str, int] = {}
        self._load_locks: dict[int, asyncio.Lock] = {}
        # called in turn after each committed move: the fan-out and the bot/timer driver, which
        # need this service themselves (the list is handed in, and its owner fills it)
        self.on_commit = on_commit if on_commit is not None else []
        self.moves: MoveLog = db.moves  # every read and write of a game's log goes through it
        self.writer = GroupCommit(self.moves)
        self.refusals = RefusalLog(db)
        self.in_flight = 0  # submits under way (a graceful shutdown waits for none)

    # --- loading ---------------------------------------------------------------------

    async def get(self, game_id: int) -> LiveGame:
        live = self.live.get(game_id)
        if live is not None:
            self._touch(live)
            return live
        lock = self._load_locks.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self.live.get(game_id)
                if live is None:
                    live = await self._load(game_id)
                    self._cache(live)
        finally:
            if not lock.locked():
                self._load_locks.pop(game_id, None)
        self._touch(live)
        return live

    def _touch(self, live: LiveGame) -> None:
        live.used_at = time.monotonic()
        if live.id in self.live:
            self.live.move_to_end(live.id)

    def _cache(self, live: LiveGame) -> None:
        self.live[live.id] = live
        if live.id > self.newest.get(live.room_id, -1):  # ids grow: a room's newest game has the largest
            self.newest[live.room_id] = live.id
        while len(self.live) > self.limits.max_games:
            if not self._evict_one():
                break

    def _drop(self, game_id: int) -> None:
        """``game_id`` leaves the cache (a later read loads it from its log)."""
        live = self.live.pop(game_id, None)
        if live is not None and self.newest.get(live.room_id) == game_id:
            del self.newest[live.room_id]

    def _evict_one(self) -> bool:
        """Drop the least recently used game that no move is on its way into."""
        for game_id, live in self.live.items():
            if not live.submitting:
                self._drop(game_id)
                return True
        return False

    def prune(self, now: float | None = None) -> int:
        """Drop finished and idle games (the app calls this every few seconds). A game
        with a move on its way in stays (a second copy loaded meanwhile would not know
        that move). Returns how many left."""
        now = time.monotonic() if now is None else now
        gone = [
            game_id
            for game_id, live in self.live.items()
            if not live.submitting
            and now - live.used_at
            > (self.limits.finished_seconds if live.over or live.closed else self.limits.idle_seconds)
        ]
        for game_id in gone:
            self._drop(game_id)
        return len(gone)

    def retire(self, room_id: str) -> None:
        """The room starts its next game: its last one, over, leaves the cache now rather than
        ``finished_seconds`` later (the room's sockets follow the new game, and a late read of
        the old one loads it from its log). On a busy server, finished games waiting out
        those seconds hold two fifths of the memory and most of what the collector's
        middle-generation collections walk (docs/performance.md, D19)."""
        live = self.live.get(self.newest.get(room_id, -1))
        if live is not None and live.over and not live.submitting:
            self._drop(live.id)

    async def _load(self, game_id: int) -> LiveGame:
        stored = await self.moves.load(game_id)
        if stored is None:
            raise KeyError(f"no game {game_id}")
        live = self._live_from(stored.game, stored.holders, closed=stored.closed)
        await self._replay_new_moves(live)
        return live

    def adopt(self, game: Game) -> LiveGame:
        """A game this process has just created and committed: cache it as it is, without
        reading it back (it has no moves yet, and each seat is held by the member its
        roster names)."""
        live = self.live.get(game.id)
        if live is None:
            holders = {s["member_id"]: i for i, s in enumerate(game.seats) if s.get("member_id") is not None}
            live = self._live_from(game, holders, closed=False)
            self._cache(live)
            log.info(
                "game started: %s, %d players",
                live.engine.info.id,
                live.players,
                extra=fields(live.room_id, live.id, 0),
            )
        return live

    async def reload_seats(self, game_id: int) -> None:
        """A cached game learns again who holds and who plays its seats (after a kick, or a
        bot standing in for a member or leaving the seat to them again)."""
        live = self.live.get(game_id)
        if live is None:
            return
        async with live.lock:
            seats = await self.moves.seats(game_id)
            if seats is not None:
                self.set_seats(live, seats[0].seats, seats[1])

    @staticmethod
    def set_seats(live: LiveGame, seats: list[dict[str, Any]], holders: dict[int, int] | None = None) -> None:
        """The one place a cached game's seats (who plays each: a member, or a bot) and their
        holders change, as the database says they are now."""
        live.seats = list(seats)
        live._bots = _bots_of(live.seats)
        if holders is not None:
            live.holders = holders

    @staticmethod
    def _live_from(game: Game, holders: dict[int, int], closed: bool) -> LiveGame:
        engine = get_engine(game.engine)
        return LiveGame(
            id=game.id,
            room_id=game.room_id,
            engine=engine,
            options=dict(game.options),
            seed=game.seed,
            players=game.players,
            seats=list(game.seats),
            time_limits=dict(game.time_limits or {}),
            state=initial_state(engine, game.players, game.options, game.seed),
            holders=holders,
            deadline_at=game.deadline_at,
            deadline_seq=game.deadline_seq,
            closed=closed,
        )

    async def _replay_new_moves(self, live: LiveGame) -> bool:
        """Apply moves other processes committed since ``live.seq``. True if any."""
        moves, now = await self.moves.since(live.id, live.seq)
        for move, state in steps(live.engine, live.state, moves, after=live.seq):
            live.state = state
            live.seq = move.seq
            if move.ref:
                live.refs[(move.member_id, move.seat, move.ref)] = move.seq
        if now is not None:
            self.set_seats(live, now.seats)
            live.deadline_at = now.deadline_at
            live.deadline_seq = now.deadline_seq
        return bool(moves)

    async def catch_up(self, game_id: int) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            await self._replay_new_moves(live)
        return live

    async def start_clock(self, live: LiveGame) -> None:
        """Set the first phase's deadline when a game begins (later ones follow moves)."""
        if live.seq != 0 or live.deadline_at is not None:
            return
        limit = live.time_limits.get(live.engine.phase(live.state))
        if not limit:
            return
        live.deadline_at = self.clock.now() + timedelta(seconds=float(limit))
        live.deadline_seq = 0
        await self.moves.start_clock(live.id, live.deadline_at)

    async def close(self) -> None:
        await self.writer.stop()
        await self.refusals.flush_all()  # the refusals counted only in memory so far

    def forget(self, game_id: int) -> None:
        self._drop(game_id)

    def close_room(self, room_id: str) -> None:
        """The room was closed: its cached games refuse every later move, and their bots and
        clocks stop (a game loaded later reads that from the room)."""
        for live in self.live.values():
            if live.room_id == room_id:
                live.closed = True

    # --- the pipeline ----------------------------------------------------------------

    def submit(
        self,
        game_id: int,
        seat: int | None,
        action: Any,
        ref: str | None = None,
        *,
        at_seq: int | None = None,
        bot: bool = False,
    ) -> Coroutine[Any, Any, Outcome]:
        """The server's own move for ``seat`` (a bot's; None: the system's). With ``at_seq``
        it is refused as a ``conflict`` if the game has moved on past that seq; with ``bot``
        as ``not_bot`` if no bot plays the seat any more (its member took it back)."""
        return self._submit(game_id, None, seat, action, ref, at_seq, bot)

    def submit_for(
        self, game_id: int, member_id: int, action: Any, ref: str | None = None
    ) -> Coroutine[Any, Any, Outcome]:
        """A member's move, at the seat the member holds in this game (looked up under the
        game's lock, so a kick that lands first takes effect first)."""
        return self._submit(game_id, member_id, None, action, ref, None, False)

    async def settled(self, timeout: float) -> bool:
        """Wait until no move is in flight (each committed and fanned out, or refused)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        while self.in_flight and loop.time() < give_up:
            await asyncio.sleep(0.01)
        return not self.in_flight

    async def _submit(
        self,
        game_id: int,
        member_id: int | None,
        seat: int | None,
        action: Any,
        ref: str | None,
        at_seq: int | None,
        bot: bool,
    ) -> Outcome:
        """Every move goes through here: the checks, the engine, the commit, the fan-out.
        Counted in ``in_flight`` from the start to the end (a graceful shutdown waits for none);
        the public ``submit`` and ``submit_for`` return this coroutine itself, so a move's
        resumptions pass through no frame of theirs nor of a counting wrapper."""
        self.in_flight += 1
        try:
            received = time.perf_counter()
            live = await self.get(game_id)
            live.submitting += 1  # from here until the commit, the cache keeps this very object
            try:
                async with live.lock:
                    # with several processes the cache may lag the log: it is read only when a
                    # commit loses the race for its seq or the move looks illegal (see _try_commit)
                    fresh = not self.multi_process
                    for _attempt in range(5):
                        if member_id is not None:
                            seat = live.seat_of(member_id)
                            if seat is None:
                                return Outcome(False, live.seq, "spectator", "You hold no seat in this game.")
                            if live.seats[seat].get("bot"):
                                return Outcome(False, live.seq, "bot_plays", "A bot plays this seat now.")
                        elif bot and (seat is None or not live.seats[seat].get("bot")):
                            return Outcome(False, live.seq, "not_bot", "No bot plays this seat now.")
                        outcome = await self._try_commit(live, member_id, seat, action, ref, at_seq, fresh)
                        if outcome is not None:
                            break
                        # another process committed this seq first (or the cache was behind):
                        # read its moves, re-validate, retry
                        await self._replay_new_moves(live)
                        fresh = True
                    else:
                        metrics.MOVES_REFUSED.labels(live.engine.info.id, "conflict").inc()
                        return Outcome(False, live.seq, "conflict", "The game moved on; try again.")
            finally:
                live.submitting -= 1
            if outcome.ok and not outcome.duplicate:
                tally = metrics.move_tally(live.engine.info.id)
                tally.accepted += 1
                tally.commit.observe(time.perf_counter() - received)
                for hook in self.on_commit:
                    try:
                        await hook(live)
                    except Exception:  # a fan-out failure must not undo a committed move
                        log.exception("on_commit hook failed", extra=fields(live.room_id, live.id, live.seq))
                tally.fanout.observe(time.perf_counter() - received)
                if log.isEnabledFor(logging.DEBUG):
                    log.debug("move committed", extra=fields(live.room_id, live.id, outcome.seq, seat))
                if live.over:
                    where = fields(live.room_id, live.id, outcome.seq, seat)
                    log.info("game over: %s", live.engine.outcome(live.state), extra=where)
            return outcome
        finally:
            self.in_flight -= 1

    async def _try_commit(
        self,
        live: LiveGame,
        member_id: int | None,
        seat: int | None,
        action: Any,
        ref: str | None,
        at_seq: int | None,
        fresh: bool = True,
    ) -> Outcome | None:
        """The move committed, or refused; None: read the log and try again (another process
        took the seq, or, unless the cache is ``fresh``, the move would be refused: on the
        newest state it may be legal, and a duplicate may be known there)."""
        key = (member_id, seat, ref) if ref is not None else None
        if key is not None and key in live.refs:
            return Outcome(True, live.refs[key], duplicate=True)
        if not fresh and ((at_seq is not None and live.seq < at_seq) or live.over or live.closed):
            return None
        if at_seq is not None and live.seq != at_seq:
            return Outcome(False, live.seq, "conflict", "The game moved on; try again.")
        if live.over:
            return await self._refuse(live, member_id, seat, action, "game_over", "The game is over.")
        if live.closed:
            return await self._refuse(live, member_id, seat, action, "room_closed", "This room was closed.")
        try:
            new_state = live.engine.apply(live.state, seat, action)
        except IllegalAction as e:
            if not fresh:
                return None
            return await self._refuse(live, member_id, seat, action, e.code, e.message)
        except Exception:
            log.exception(
                "engine %s crashed on %r",
                live.engine.info.id,
                action,
                extra=fields(live.room_id, live.id, live.seq, seat),
            )
            return await self._refuse(
                live, member_id, seat, action, "engine_error", "The server could not apply that move."
            )
        seq = live.seq + 1
        now = self.clock.now()
        result = live.engine.outcome(new_state)
        deadline_at, deadline_seq = self._next_deadline(live, new_state, seq, now) if result is None else (None, None)
        move = NewMove(live.id, live.room_id, seq, seat, member_id, action, ref, now, deadline_at, deadline_seq, result)
        try:
            # with several processes, a batch that holds a move another process already took
            # the seq of fails as a whole, and GroupCommit writes its moves one by one: only
            # the loser of the race sees SeqTaken (and reloads)
            await self.writer.write(move)
        except SeqTaken:
            return None
        live.state = new_state
        live.seq = seq
        live.deadline_at, live.deadline_seq = deadline_at, deadline_seq
        if key is not None:
            live.refs[key] = seq
        if self.multi_process:
            live.recent.append(
                {
                    "seq": seq,
                    "seat": seat,
                    "member_id": member_id,
                    "action": action,
                    "ref": ref,
                    "deadline": deadline_at.timestamp() if deadline_at else None,
                    "deadline_seq": deadline_seq,
                }
            )
        return Outcome(True, seq)

    async def apply_published(self, game_id: int, seq: int, moves: Any) -> LiveGame:
        """Another process committed ``game_id`` up to ``seq`` and published its last moves:
        apply them to the cached game (loaded from the log if it is not cached); read the log
        only for what they do not cover."""
        live = await self.get(game_id)
        if live.seq >= seq:
            return live
        async with live.lock:
            for move in moves if isinstance(moves, list) else ():
                if move.get("seq") != live.seq + 1:
                    continue  # one this cache has (or a gap, read below)
                try:
                    live.state = live.engine.apply(live.state, move["seat"], move["action"])
                except Exception:  # the log decides; read it below
                    log.exception("published move does not apply", extra=fields(live.room_id, live.id, live.seq))
                    break
                live.seq = move["seq"]
                if move.get("ref"):
                    live.refs[(move.get("member_id"), move["seat"], move["ref"])] = live.seq
                at = move.get("deadline")
                live.deadline_at = datetime.fromtimestamp(at, UTC) if isinstance(at, int | float) else None
                live.deadline_seq = move.get("deadline_seq")
            if live.seq < seq:
                await self._replay_new_moves(live)
        return live

    def _next_deadline(
        self, live: LiveGame, new_state: Any, seq: int, now: datetime
    ) -> tuple[datetime | None, int | None]:
        """The clock of a game that goes on after this move. A phase's clock restarts when the
        phase changes or someone new must act; it keeps running while a simultaneous phase's
        players act one by one."""
        engine = live.engine
        phase = engine.phase(new_state)
        limit = live.time_limits.get(phase)
        if not limit:
            return None, None
        same_phase = engine.phase(live.state) == phase
        fewer_actors = engine.to_act(new_state) <= engine.to_act(live.state)
        if same_phase and fewer_actors and live.deadline_at is not None:
            return live.deadline_at, live.deadline_seq
        return now + timedelta(seconds=float(limit)), seq

    async def _refuse(
        self, live: LiveGame, member_id: int | None, seat: int | None, action: Any, code: str, message: str
    ) -> Outcome:
        """Refuse a move: counted, and kept as a sample for the admin (see refusals.py)."""
        metrics.MOVES_REFUSED.labels(live.engine.info.id, code).inc()
        refusal = Refusal(live.id, live.seq, seat, member_id, action, code, message, self.clock.now())
        try:
            kept = await self.refusals.note(refusal)
        except Exception:  # the debugging record is best-effort
            log.exception("could not record a refused action")
            kept = False
        # a line for the refusals the sample keeps: a flood of them fills no log either
        log.log(
            logging.INFO if kept else logging.DEBUG,
            "move refused: %s",
            code,
            extra=fields(live.room_id, live.id, live.seq, seat),
        )
        return Outcome(False, live.seq, code, message)


# The least time between the starts of two group commits while several rooms are moving.
# A commit costs a quarter of a millisecond of CPU whatever it holds (its fsync above all),
# and moves that come one by one would each pay for one: at 1,000 moves a second in 200
# rooms, 1.7 moves a commit, a fifth of the server's CPU. Moves that come within the gap
# share a commit instead (4 a commit there; docs/performance.md, D3). A move is written at once
# when the last commit is older than the gap, or held only the same games (one room playing
# fast, as in a test, never waits).
COMMIT_GAP = 0.004


@dataclass(slots=True)
class PendingWrite:
    """One accepted move waiting for its commit."""

    move: NewMove
    done: asyncio.Future[None]


class GroupCommit:
    """Group commit for one process: moves of different games that arrive while a commit is
    under way are written together in the next transaction, and each is acknowledged only
    after the commit that holds it. (Moves of one game are already one at a time: its lock.)"""

    def __init__(self, moves: MoveLog) -> None:
        self.moves = moves
        self.pending: list[PendingWrite] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def write(self, move: NewMove) -> asyncio.Future[None]:
        """Queue ``move`` for the next commit: the future is done once it is committed (a
        future, not a coroutine: one frame fewer for the move's resumption to pass through)."""
        loop = self.loop  # kept, not asked for: on Python 3.11 asking costs a getpid() system call
        if loop is None or self.task is None or self.task.done():
            loop = self.loop = asyncio.get_running_loop()
            self.task = loop.create_task(self._run())
        done = loop.create_future()
        self.pending.append(PendingWrite(move, done))
        self.wake.set()
        return done

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last, last_games = -COMMIT_GAP, set[int]()
        while True:
            await self.wake.wait()
            wait = last + COMMIT_GAP - loop.time()
            if wait > 0 and not last_games.issuperset(w.move.game_id for w in self.pending):
                await asyncio.sleep(wait)  # other rooms are moving: let their moves join this commit
            self.wake.clear()
            batch, self.pending = self.pending, []
            if not batch:
                continue
            last, last_games = loop.time(), {w.move.game_id for w in batch}
            metrics.COMMIT_BATCH.observe(len(batch))
            try:
                await self.moves.append([w.move for w in batch])
            except Exception:
                # one bad move must not fail the others: write them one by one
                for item in batch:
                    try:
                        await self.moves.append([item.move])
                    except Exception as e:
                        _settle(item, e)
                    else:
                        _settle(item, None)
            else:
                for item in batch:
                    _settle(item, None)


def _settle(item: PendingWrite, error: BaseException | None) -> None:
    if item.done.done():
        return
    if error is None:
        item.done.set_result(None)
    else:
        item.done.set_exception(error)
