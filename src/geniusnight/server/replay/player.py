"""The players' replay: once a game is over, its members see its whole log and every
seat's view at every seq, hidden parts revealed ("after a game ends its full
log may be shown to its players"). The engine's raw state (PRNG, undealt cards) and free-form
options (custom packs, which a rematch reuses) stay admin-only.

Before the end every route here answers 409 and reveals nothing, not even the log's length.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ...engines import ENGINES, IllegalAction, get_engine, load_extra
from ...settings import Settings
from ..deps import RoomsDep, seat_token
from ..edge import INT64_MAX, GameId, LogSeat, LogType
from ..templating import templates
from .logs import EXPORT_FORMAT
from .replayer import LogEntry, ReplayError, initial_state, replay

router = APIRouter(prefix="/api/rooms/{room_id}/games/{game_id}", tags=["replay"])


@router.get("/log", summary="A finished game's full log (members of the room)")
async def player_log(
    room_id: str,
    game_id: GameId,
    request: Request,
    rooms: RoomsDep,
    seat: LogSeat = None,
    type: LogType = None,
) -> dict[str, Any]:
    return await rooms.replay_log(room_id, seat_token(request, room_id), game_id, seat, type)


@router.get("/state", summary="A finished game's full state and every view at seq k (members)")
async def player_state(
    room_id: str,
    game_id: GameId,
    request: Request,
    rooms: RoomsDep,
    seq: Annotated[int | None, Query(ge=0, le=INT64_MAX, description="Moves replayed; default the last")] = None,
) -> dict[str, Any]:
    return await rooms.replay_state(room_id, seat_token(request, room_id), game_id, seq)


page = APIRouter(include_in_schema=False)


@page.get("/r/{room_id}/replay/{game_id}", response_class=HTMLResponse)
async def replay_page(request: Request, room_id: str, game_id: int) -> HTMLResponse:
    return templates.TemplateResponse(request, "replay.html", {"room_id": room_id, "game_id": game_id})


router_all = APIRouter()
router_all.include_router(router)
router_all.include_router(page)


# --- ``geniusnight replay FILE``: an export replayed offline --------------------------------


def state_digest(engine: Any, state: Any) -> str:
    """A stable hash of ``engine.dump(state)`` (sorted keys, compact JSON)."""
    text = json.dumps(engine.dump(state), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def replay_file(path: Path, out: TextIO | None = None) -> int:
    """Replay an admin export through its engine and print the final state's summary.

    Exit status: 0 when the replayed outcome equals the export's recorded ``result``,
    1 when it differs, 2 when the file can't be replayed at all (bad format, unknown
    engine, a gap in the log, a move the engine refuses).
    """
    out = out or sys.stdout

    def fail(message: str) -> int:
        print(f"error: {message}", file=out)
        return 2

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return fail(f"cannot read {path}: {e}")
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return fail(f"{path} is not a Genius Night game export (format {EXPORT_FORMAT!r})")
    game, log = data.get("game"), data.get("log")
    if not isinstance(game, dict) or not isinstance(log, list):
        return fail("the export needs 'game' and 'log'")
    try:
        load_extra(Settings().extra_engines)
    except Exception as e:  # a broken GENIUSNIGHT_EXTRA_ENGINES must not hide the real error
        print(f"warning: extra engines not loaded: {e}", file=out)
    engine_id = game.get("engine")
    if engine_id not in ENGINES:
        return fail(f"unknown engine {engine_id!r} (known: {', '.join(sorted(ENGINES))})")
    engine = get_engine(str(engine_id))
    try:
        state = initial_state(engine, int(game["players"]), game.get("options") or {}, int(game["seed"]))
    except (KeyError, TypeError, ValueError, IllegalAction) as e:
        return fail(f"cannot set the game up: {e}")
    entries: list[LogEntry] = []
    for entry in log:
        if not isinstance(entry, dict) or entry.get("seq") != len(entries) + 1 or "action" not in entry:
            return fail(f"the log has a gap or a bad entry after seq {len(entries)}")
        entries.append(LogEntry(entry["seq"], entry.get("seat"), entry["action"]))
    try:
        seq, state = replay(engine, state, entries)
    except ReplayError as e:
        cause = e.__cause__
        detail = f"{cause.code}: {cause.message}" if isinstance(cause, IllegalAction) else e.message
        return fail(f"seq {e.seq}: the engine refused the move: {detail}")
    outcome = engine.outcome(state)
    recorded = data.get("result")
    print(f"engine:  {engine_id}", file=out)
    print(f"seq:     {seq}", file=out)
    print(f"phase:   {engine.phase(state)}", file=out)
    print(f"outcome: {json.dumps(outcome, sort_keys=True)}", file=out)
    print(f"state:   sha256 {state_digest(engine, state)}", file=out)
    if _normal(outcome) != _normal(recorded):
        print(f"MISMATCH: the export records result {json.dumps(recorded, sort_keys=True)}", file=out)
        return 1
    print("ok: the replayed result matches the export", file=out)
    return 0
