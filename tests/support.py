"""Test helpers importable from any test module: free ports, real server processes, a
PostgreSQL database of the test's own, a clock the test moves by hand, and a wait for
something to happen."""

from __future__ import annotations

import asyncio
import heapq
import inspect
import itertools
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
TOY = "geniusnight.fixtures.count21:ENGINE"

# the TLS context of httpx's clients, made once: the tests speak plain HTTP to 127.0.0.1, but
# each client httpx makes otherwise loads the whole CA bundle again (some 25 ms of CPU)
TLS = httpx.create_ssl_context()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``geniusnight serve`` in a subprocess, the way it runs for real."""

    def __init__(self, db_url: str, port: int | None = None, env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = Path(f"/tmp/geniusnight-test-{self.port}.log")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {
            **os.environ,
            # this checkout's code first (a worktree's server runs its own code, not the
            # one the venv was installed from), then the tests' fixtures
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(TESTS)]),
            "GENIUSNIGHT_EXTRA_ENGINES": f'["{TOY}"]',
            "GENIUSNIGHT_EXTRA_STATIC": f'["{TESTS / "static"}"]',
            "GENIUSNIGHT_BOT_DELAY_MS": "0",
            "GENIUSNIGHT_ADMIN_TOKEN": "t" * 32,
            # every test client comes from 127.0.0.1: lift the per-address limits (the limit
            # tests set their own)
            "GENIUSNIGHT_WS_PER_ADDRESS": "100000",
            "GENIUSNIGHT_WS_CONNECTS_PER_MINUTE": "100000",
            "GENIUSNIGHT_ROOMS_PER_MINUTE": "100000",
            "GENIUSNIGHT_CHAT_PER_MINUTE": "100000",
            **self.env,
        }
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "geniusnight.cli",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.db_url,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1, verify=TLS).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start in 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing — a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@asynccontextmanager
async def postgres_database(server_url: str, prefix: str) -> AsyncIterator[str]:
    """A new, empty database ``<prefix>_<random>`` on the PostgreSQL server of ``server_url``,
    dropped afterwards; yields its SQLAlchemy (asyncpg) URL. An unreachable server fails the test."""
    from geniusnight.bench.load import drop_postgres, fresh_postgres

    url = server_url.replace("postgresql://", "postgresql+asyncpg://", 1)
    db_url, name = await fresh_postgres(url, prefix)
    try:
        yield db_url
    finally:
        await drop_postgres(url, name)


class FakeClock:
    """A :class:`geniusnight.clock.Clock` that moves only when the test calls :meth:`advance`:
    timers and bot delays wake at once when their time comes, without waiting for it."""

    def __init__(self) -> None:
        self._now = datetime.now(UTC)
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> datetime:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        wake = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + timedelta(seconds=seconds), next(self._order), wake))
        await wake

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, wake = heapq.heappop(self._sleepers)
            if not wake.done():  # a cancelled sleeper is gone
                wake.set_result(None)


async def seated_room(client: httpx.AsyncClient, target: int = 21) -> tuple[str, dict[str, str]]:
    """A room of the toy game with two people seated (no bots, so nothing moves by itself):
    its id, and the host's authorization header."""
    body = {"game": "count21", "name": "Ada", "options": {"target": target}}
    host = (await client.post("/api/rooms", json=body)).json()
    client.cookies.clear()
    await client.post(f"/api/join/{host['invite_url'].rsplit('/', 1)[1]}", json={"name": "Grace"})
    client.cookies.clear()
    return host["room_id"], {"Authorization": f"Bearer {host['token']}"}


async def start_game(client: httpx.AsyncClient, target: int = 21) -> int:
    """Two people (no bots, so nothing moves by itself); returns the game's id."""
    room_id, auth = await seated_room(client, target)
    return int((await client.post(f"/api/rooms/{room_id}/start", headers=auth)).json()["game_id"])


async def until(check: Callable[[], Any], seconds: float = 3.0) -> None:
    """Wait until ``check()`` (a value, or an awaitable one) is true; fail after ``seconds``."""
    for _ in range(int(seconds / 0.01)):
        result = check()
        if await result if inspect.isawaitable(result) else result:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")
