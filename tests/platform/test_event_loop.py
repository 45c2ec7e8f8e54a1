"""The request path never leaves the event loop's thread for a trivial call."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute, APIWebSocketRoute


def _routes(routes: list[Any]) -> Iterator[Any]:
    """Every route, into the routers included (FastAPI keeps an included router whole)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        yield from _routes(included.routes) if included is not None else [route]


def _calls(dependant: Any) -> Iterator[tuple[str, Any]]:
    for sub in dependant.dependencies:
        yield sub.name or repr(sub.call), sub.call
        yield from _calls(sub)


def test_no_route_or_dependency_runs_in_the_thread_pool(app: Any) -> None:
    """FastAPI runs a plain ``def`` endpoint or dependency in its thread pool: a trip to a
    worker thread and back through the loop on every request, a whole loop iteration of
    waiting on a busy server. Every one is ``async def``."""
    sync, seen = [], 0
    for route in _routes(app.routes):
        if not isinstance(route, APIRoute | APIWebSocketRoute):
            continue
        seen += 1
        for name, call in [(route.name, route.endpoint), *_calls(route.dependant)]:
            if call is not None and not (inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)):
                sync.append(f"{route.path}: {name}")
    assert seen > 20 and sync == []
