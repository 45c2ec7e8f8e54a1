"""Log output: JSON lines in production, plain text in development (``GENIUSNIGHT_LOG_FORMAT``).

Events about a game carry ``room``, ``game``, ``seq`` and ``seat`` as fields (pass them with
``extra=fields(...)``): JSON lines get them as keys (``jq 'select(.game == 12)'``), text lines
end with ``room=… game=12 seq=… seat=…`` (``grep ' game=12 '``). The admin console's game page
shows both filters.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

FIELDS = ("room", "game", "seq", "seat")


def fields(
    room: str | None = None, game: int | None = None, seq: int | None = None, seat: int | None = None
) -> dict[str, Any]:
    """The ``extra`` of a log call about a game (``None`` fields are left out)."""
    return {k: v for k, v in (("room", room), ("game", game), ("seq", seq), ("seat", seat)) if v is not None}


class JsonLines(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, the game fields, exc."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key in FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, separators=(",", ":"))


class Text(logging.Formatter):
    """``2026-01-01 12:00:00,000 INFO geniusnight.server.play.games: move refused code=… game=12``"""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        tail = " ".join(f"{k}={getattr(record, k)}" for k in FIELDS if getattr(record, k, None) is not None)
        return f"{line} {tail}" if tail else line


def game_filter(json_lines: bool, game_id: int) -> str:
    """The shell filter that picks one game's lines out of the server's log."""
    if json_lines:
        return f"jq -c 'select(.game == {game_id})'"
    return f"grep -E ' game={game_id}( |$)'"


def log_config(json_lines: bool, level: str = "INFO") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the whole process, uvicorn's loggers included."""
    formatter = {"()": f"{__name__}.{'JsonLines' if json_lines else 'Text'}"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {
            "stdout": {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stdout"}
        },
        "root": {"handlers": ["stdout"], "level": level.upper()},
        "loggers": {
            name: {"handlers": [], "propagate": True, "level": "INFO"}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
