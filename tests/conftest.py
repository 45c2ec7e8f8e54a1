"""Shared fixtures: a migrated temporary database, the app in-process, and real servers.

The toy engine in ``tests/toygame.py`` ("count21") stands in for a game wherever a test
is about the platform rather than a game's rules.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
sys.path.insert(0, str(TESTS))

TOY = "toygame:ENGINE"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    from geniusnight.cli import db_upgrade

    url = f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    db_upgrade(url)
    return url


@pytest.fixture
async def app(db_url: str) -> AsyncIterator[object]:
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    application = create_app(
        Settings(env="test", database_url=db_url, extra_engines=[TOY], bot_delay_ms=0, admin_token="a" * 32)
    )
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: object) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


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
            "PYTHONPATH": str(TESTS),
            "GENIUSNIGHT_EXTRA_ENGINES": f'["{TOY}"]',
            "GENIUSNIGHT_BOT_DELAY_MS": "0",
            "GENIUSNIGHT_ADMIN_TOKEN": "t" * 32,
            **self.env,
        }
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "geniusnight.cli", "serve", "--port", str(self.port), "--database-url", self.db_url],
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
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
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


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    srv = ServerProcess(db_url).start()
    yield srv
    srv.stop()
