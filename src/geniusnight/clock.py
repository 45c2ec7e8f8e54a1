"""The server's clock: what time it is, and waiting for a while.

Phase deadlines, bot "thinking" delays and the multi-process sweep read the time and wait
through a :class:`Clock` handed to the services, never through ``datetime.now`` or
``asyncio.sleep`` directly, so tests can drive time by hand and run a 5-second phase limit in
milliseconds. Production uses :class:`SystemClock`.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...


class SystemClock:
    """The wall clock and the event loop's timers."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
