"""A game's log read back: the moves in order, an export, and every view at any seq, each
state rebuilt by the one replayer (:mod:`.replayer`). The admin reads them whenever it
likes; the players of a finished game read them through :mod:`.player`."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ...engines import ENGINES, Engine, get_engine
from ...storage.database import Database
from ...storage.models import Game, Move
from ..errors import ApiError
from ..rooms.seats import seat_entries
from .replayer import ReplayError, initial_state, steps

EXPORT_FORMAT = "geniusnight-game"
EXPORT_VERSION = 1


def iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:  # SQLite returns naive datetimes; everything here is UTC
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat()


def game_summary(g: Game) -> dict[str, Any]:
    return {
        "id": g.id,
        "engine": g.engine,
        "players": g.players,
        "seats": seat_entries(g.seats, member_ids=False),
        "started_at": iso(g.started_at),
        "finished_at": iso(g.finished_at),
        "last_seq": g.last_seq,
        "last_move_at": iso(g.last_move_at),
        "result": g.result,
    }


def engine_of(game: Game) -> Engine:
    if game.engine not in ENGINES:
        raise ApiError(409, "unknown_engine", f"This server does not have the game {game.engine!r}.")
    return get_engine(game.engine)


def player(game: Game, seat: int | None) -> str:
    if seat is None:
        return "(system)"
    if 0 <= seat < len(game.seats):
        return str(game.seats[seat].get("name"))
    return f"seat {seat}"


def seat_filter(seat: str | None) -> tuple[bool, int | None]:
    """``seat`` query: a number, or ``system`` for the system's moves (timeouts)."""
    if seat is None or seat == "":
        return False, None
    if seat == "system":
        return True, None
    if not (seat.isascii() and seat.isdigit()):
        raise ApiError(422, "bad_seat", "seat is a number or 'system'.")
    return True, int(seat)


def type_of(action: Any) -> str | None:
    return action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None


def log_filter(seat: str | None, action_type: str | None) -> Callable[[int | None, Any], bool]:
    """Whether a logged action (the seat that sent it, the action) passes a log's ``seat`` and
    ``type`` query filters; the same for accepted moves and refused actions."""
    by_seat, want_seat = seat_filter(seat)

    def keep(sent_by: int | None, action: Any) -> bool:
        return (not by_seat or sent_by == want_seat) and (not action_type or type_of(action) == action_type)

    return keep


async def moves_of(session: AsyncSession, game_id: int) -> list[Move]:
    return list((await session.execute(select(Move).where(Move.game_id == game_id).order_by(Move.seq))).scalars())


class ReplayCache:
    """States after each prefix of a game's log, kept for the few games being replayed.

    Engines never mutate a state, so the list holds one shared object per seq. The log only
    grows, so a cached prefix stays valid; new moves extend it.
    """

    def __init__(self, max_games: int = 16) -> None:
        self.max_games = max_games
        self.games: OrderedDict[int, tuple[str, list[Any]]] = OrderedDict()

    async def states(self, session: AsyncSession, game: Game, upto: int) -> list[Any]:
        engine = engine_of(game)
        cached = self.games.get(game.id)
        states: list[Any] = [] if cached is None or cached[0] != game.engine else cached[1]
        if not states:
            states = [await asyncio.to_thread(initial_state, engine, game.players, game.options, game.seed)]
        if len(states) <= upto:
            rows = await session.execute(
                select(Move)
                .where(Move.game_id == game.id, Move.seq >= len(states), Move.seq <= upto)
                .order_by(Move.seq)
            )
            # in a worker thread: a game's setup and moves can take long (a large custom deck
            # is set up again), and the loop serves every other room meanwhile
            try:
                states = await asyncio.to_thread(_extended, engine, states, list(rows.scalars()))
            except ReplayError as e:
                message = f"Game {game.id}: {e.message}." if e.code == "log_gap" else e.message
                raise ApiError(500, e.code, message) from None
        current = self.games.get(game.id)
        if current is None or current[0] != game.engine or len(current[1]) < len(states):
            self.games[game.id] = (game.engine, states)
        self.games.move_to_end(game.id)
        while len(self.games) > self.max_games:
            self.games.popitem(last=False)
        return states


def _extended(engine: Engine, states: list[Any], moves: list[Move]) -> list[Any]:
    """A copy of ``states`` (one per seq from 0) with the states after ``moves``: a copy, as
    another request may be extending the same prefix meanwhile."""
    out = list(states)
    for _, state in steps(engine, out[-1], moves, after=len(out) - 1):
        out.append(state)
    return out


class GameLogs:
    """Reads games' logs; one per process (it holds the replay cache)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.replays = ReplayCache()

    async def game(self, game_id: int) -> Game:
        async with self.db.sessions() as s:
            game = await s.get(Game, game_id)
        if game is None:
            raise ApiError(404, "no_game", "There is no such game.")
        return game

    async def log(
        self, game: Game, *, seat: str | None = None, action_type: str | None = None, for_players: bool = False
    ) -> dict[str, Any]:
        """Every accepted move in order, private parts included (admins; players after the end).

        ``for_players`` hides free-form options (custom packs, fixed deals): a rematch reuses
        them, so their unplayed parts must stay secret, as in the room snapshot."""
        keep = log_filter(seat, action_type)
        async with self.db.sessions() as s:
            logged = await moves_of(s, game.id)
        moves = []
        for m in logged:
            if not keep(m.seat, m.action):
                continue
            moves.append(
                {
                    "seq": m.seq,
                    "seat": m.seat,
                    "player": player(game, m.seat),
                    "at": iso(m.created_at),
                    "type": type_of(m.action),
                    "action": m.action,
                    "ref": m.ref,
                }
            )
        options = dict(game.options)
        if for_players:
            secret = {o.name for o in engine_of(game).info.options if o.kind == "json"}
            options = {k: v for k, v in options.items() if k not in secret}
        return {"game": game_summary(game) | {"room_id": game.room_id, "options": options}, "moves": moves}

    async def export(self, game: Game) -> dict[str, Any]:
        """The whole game as JSON: enough to replay it anywhere (``geniusnight replay FILE``)."""
        async with self.db.sessions() as s:
            logged = await moves_of(s, game.id)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": datetime.now(UTC).isoformat(),
            "game": {
                "id": game.id,
                "room_id": game.room_id,
                "engine": game.engine,
                "options": game.options,
                "seed": game.seed,
                "players": game.players,
                "seats": seat_entries(game.seats),
                "time_limits": game.time_limits,
                "started_at": iso(game.started_at),
                "finished_at": iso(game.finished_at),
                "last_seq": game.last_seq,
            },
            "log": [
                {"seq": m.seq, "seat": m.seat, "action": m.action, "at": iso(m.created_at), "ref": m.ref}
                for m in logged
            ],
            "result": game.result,
        }

    async def state_at(self, game: Game, seq: int | None, *, full: bool = True) -> dict[str, Any]:
        """Every seat's view and the spectator's at ``seq``, and with ``full`` the whole state
        (engine.dump: the PRNG, undealt cards...), which only admins get."""
        k = game.last_seq if seq is None else seq
        if not 0 <= k <= game.last_seq:
            raise ApiError(422, "bad_seq", f"seq is 0 to {game.last_seq}.")
        engine = engine_of(game)
        async with self.db.sessions() as s:
            states = await self.replays.states(s, game, k)
            m = (
                (await s.execute(select(Move).where(Move.game_id == game.id, Move.seq == k))).scalar_one()
                if k > 0
                else None
            )
        answer = await asyncio.to_thread(_views_at, engine, states[k], game.players, full)
        move = None
        if m is not None:
            move = {
                "seq": m.seq,
                "seat": m.seat,
                "player": player(game, m.seat),
                "action": m.action,
                "at": iso(m.created_at),
            }
        return {"game_id": game.id, "engine": game.engine, "seq": k, "last_seq": game.last_seq, "move": move, **answer}


def _views_at(engine: Engine, state: Any, players: int, full: bool) -> dict[str, Any]:
    """What :meth:`GameLogs.state_at` tells of ``state``, built in a worker thread."""
    return {
        "phase": engine.phase(state),
        "to_act": sorted(engine.to_act(state)),
        "outcome": engine.outcome(state),
        **({"state": json.loads(json.dumps(engine.dump(state), default=str))} if full else {}),
        "views": [engine.view(state, seat) for seat in range(players)],
        "spectator": engine.view(state, None),
    }
