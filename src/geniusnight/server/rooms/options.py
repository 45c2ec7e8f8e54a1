"""What a room's game may be set up with: its game, its options (checked by the game, within
a size) and its phases' time limits, checked before anything is stored."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ...engines import ENGINES, Engine, IllegalAction, get_engine
from ...storage.models import dumps_json
from ..errors import ApiError


def engine_for(game: str) -> Engine:
    if game not in ENGINES:
        raise ApiError(422, "unknown_game", f"Unknown game {game!r}.")
    return get_engine(game)


def check_options(engine: Engine, options: Any, players: int | None) -> dict[str, Any]:
    if not isinstance(options, dict):
        raise ApiError(422, "bad_option", "Options must be a JSON object.")
    try:
        return engine.validate_options(players, options)
    except IllegalAction as e:
        raise ApiError(422, e.code, e.message) from None


@dataclass(frozen=True, slots=True)
class OptionSizes:
    """How large a room's options may be, as JSON text in bytes (settings ``OPTION_MAX_BYTES``
    and ``OPTIONS_MAX_BYTES``): each option, and all of them together. A custom word deck or
    question pack is copied into every game of the room, set up again for every replayed
    state, and checked by the game at every change."""

    each: int = 192 * 1024
    total: int = 256 * 1024


def check_option_sizes(options: Any, sizes: OptionSizes) -> int:
    """413 ``options_too_large`` unless every option, and all together, fit ``sizes``; checked
    before the game reads them, so that an oversized deck costs no more than its encoding.
    Returns their size as JSON."""
    if not isinstance(options, dict):
        return 0  # check_options refuses it
    total = 2
    for name, value in options.items():
        size = len(dumps_json(value).encode())
        if size > sizes.each:
            raise ApiError(
                413, "options_too_large", f"Option {str(name)[:40]!r} is over {sizes.each // 1024} KiB as JSON."
            )
        total += size + len(dumps_json(name).encode()) + 2
    if total > sizes.total:
        raise ApiError(413, "options_too_large", f"A room's options are at most {sizes.total // 1024} KiB as JSON.")
    return total


INLINE_OPTION_BYTES = 16 * 1024  # options larger than this are checked in a worker thread


async def check_options_aside(engine: Engine, options: Any, sizes: OptionSizes) -> dict[str, Any]:
    """:func:`check_options` for a room's options of any players' count, within ``sizes``:
    large ones (a custom deck, a question pack) in a worker thread, as a game reads every
    word or card of them while the loop serves the other rooms."""
    if check_option_sizes(options, sizes) <= INLINE_OPTION_BYTES:
        return check_options(engine, options, None)
    return await asyncio.to_thread(check_options, engine, options, None)


def check_time_limits(engine: Engine, limits: Any) -> dict[str, int]:
    if limits is None:
        return {}
    if not isinstance(limits, dict):
        raise ApiError(422, "bad_time_limits", "Time limits must map phase names to seconds.")
    out: dict[str, int] = {}
    for phase, seconds in limits.items():
        if phase not in engine.info.timed_phases:
            known = ", ".join(sorted(engine.info.timed_phases)) or "none"
            raise ApiError(422, "bad_time_limits", f"No time limit for phase {phase!r} (known: {known}).")
        if seconds in (None, 0):
            continue
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 5 <= seconds <= 3600:
            raise ApiError(422, "bad_time_limits", "A time limit is 5 to 3600 seconds, or 0 for none.")
        out[phase] = seconds
    return out
