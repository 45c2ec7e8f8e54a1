"""The app served by uvicorn inside the test's own event loop: real HTTP and websockets,
with the app's state (the composition root's objects) at hand for looking inside."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn

from support import TOY, free_port


@dataclass
class Served:
    app: Any
    base: str
    ws_base: str

    @property
    def state(self) -> Any:
        """``app.state``: the objects ``compose.build`` made, by name (``games``, ``db``, ...)."""
        return self.app.state


@asynccontextmanager
async def serve(db_url: str, clock: Any = None, **settings: Any) -> AsyncIterator[Served]:
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    values: dict[str, Any] = {"extra_engines": [TOY], "bot_delay_ms": 0, "admin_token": "a" * 32, **settings}
    app = create_app(Settings(env="test", database_url=db_url, **values), clock=clock)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, ws="websockets-sansio", log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield Served(app, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        await task
