"""Test helpers importable from any test module: free ports and real server processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
TOY = "geniusnight.bench.toy:ENGINE"


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
            "PYTHONPATH": str(TESTS),
            "GENIUSNIGHT_EXTRA_ENGINES": f'["{TOY}"]',
            "GENIUSNIGHT_EXTRA_STATIC": f'["{TESTS / "static"}"]',
            "GENIUSNIGHT_BOT_DELAY_MS": "0",
            "GENIUSNIGHT_ADMIN_TOKEN": "t" * 32,
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
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
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
