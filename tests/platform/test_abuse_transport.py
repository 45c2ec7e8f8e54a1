"""What one person could do to a server through its transport and edge (docs/deploy.md,
"Abuse limits", "Transport and edge"): a forged X-Forwarded-For, the proxy set-up that
prevents it; websocket messages too large or never finished."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from geniusnight.cli import WS_MAX_MESSAGE_BYTES
from inprocess import serve
from support import ROOT, TLS, ServerProcess, free_port


def db(tmp_path_factory: pytest.TempPathFactory, name: str) -> str:
    from geniusnight.cli import db_upgrade

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp(name) / f'{name}.db'}"
    db_upgrade(url)
    return url


@pytest.fixture(scope="module")
def behind_nobody(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that trusts no proxy on this machine: its clients' X-Forwarded-For is theirs."""
    env = {"GENIUSNIGHT_ROOMS_PER_MINUTE": "2", "GENIUSNIGHT_TRUSTED_PROXIES": "10.255.255.1"}
    srv = ServerProcess(db(tmp_path_factory, "untrusted"), env=env).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def behind_local_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that trusts its peer 127.0.0.1 as the proxy (the default)."""
    env = {"GENIUSNIGHT_ROOMS_PER_MINUTE": "2"}
    srv = ServerProcess(db(tmp_path_factory, "trusted"), env=env).start()
    yield srv
    srv.stop()


def create_room(srv: ServerProcess, forwarded_for: str) -> httpx.Response:
    body = {"game": "count21", "name": "Ada"}
    return httpx.post(f"{srv.base}/api/rooms", json=body, headers={"X-Forwarded-For": forwarded_for}, verify=TLS)


def test_a_forged_x_forwarded_for_from_an_untrusted_peer_does_not_change_the_limits_address(
    behind_nobody: ServerProcess,
) -> None:
    answers = [create_room(behind_nobody, f"198.51.100.{i}").status_code for i in range(4)]
    assert answers == [200, 200, 429, 429]


def test_x_forwarded_for_from_a_trusted_proxy_names_the_client(behind_local_proxy: ServerProcess) -> None:
    # the proxy tells two clients apart: each has its own two rooms a minute
    answers = [create_room(behind_local_proxy, f"198.51.100.{i % 2}").status_code for i in range(5)]
    assert answers == [200, 200, 200, 200, 429]


NGINX = shutil.which("nginx")


@pytest.fixture(scope="module")
def shipped_proxy(behind_local_proxy: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """deploy/nginx.conf as shipped, in front of ``behind_local_proxy``: its base URL."""
    if NGINX is None:
        pytest.skip("nginx is not installed")
    here = tmp_path_factory.mktemp("nginx")
    port = free_port()
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = site.replace("server app:8000;", f"server 127.0.0.1:{behind_local_proxy.port};")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    (here / "site.conf").write_text(site)
    (here / "nginx.conf").write_text(
        f"worker_processes 1; error_log {here}/error.log; pid {here}/nginx.pid; events {{}}\n"
        f"http {{ access_log off; client_body_temp_path {here}/body; proxy_temp_path {here}/proxy;"
        f" include {here}/site.conf; }}\n"
    )
    proc = subprocess.Popen([NGINX, "-p", str(here), "-c", str(here / "nginx.conf"), "-g", "daemon off;"])
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_forged_x_forwarded_for_through_the_shipped_proxy_does_not_change_the_limits_address(
    shipped_proxy: str,
) -> None:
    """nginx sets X-Forwarded-For to the peer it sees, and the app trusts nginx: the
    client's own header is gone, and its rooms count against its real address."""
    body = {"game": "count21", "name": "Ada"}
    answers = [
        httpx.post(
            f"{shipped_proxy}/api/rooms", json=body, headers={"X-Forwarded-For": f"198.51.100.{50 + i}"}, verify=TLS
        )
        for i in range(4)
    ]
    assert [r.status_code for r in answers] == [200, 200, 429, 429]
    assert answers[2].json()["code"] == "too_many_rooms"


def test_the_shipped_proxy_closes_a_connection_whose_headers_never_end(shipped_proxy: str) -> None:
    """A client that starts a request and never finishes its headers holds nothing for long:
    the shipped proxy's client_header_timeout closes it (the app's server has no such
    timeout of its own; docs/deploy.md, "Abuse limits")."""
    timeout = int(re.search(r"client_header_timeout\s+(\d+)s;", (ROOT / "deploy" / "nginx.conf").read_text())[1])
    host, port = shipped_proxy.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=timeout + 10) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and then nothing more
        while conn.recv(4096):  # nginx may answer 408 before it closes; the end is what counts
            pass
    assert time.monotonic() - started < timeout + 5


def test_the_shipped_proxy_sends_its_peer_not_the_clients_x_forwarded_for() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    settings = re.findall(r"proxy_set_header\s+X-Forwarded-For\s+(\S+);", conf)
    assert settings and set(settings) == {"$remote_addr"}
    assert "$proxy_add_x_forwarded_for" not in conf


def test_the_image_trusts_only_a_configured_proxy() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "FORWARDED_ALLOW_IPS" not in dockerfile and "*" not in _env_values(dockerfile, "TRUSTED_PROXIES")
    proxy_address = re.search(r"ipv4_address:\s*(\S+)", compose)
    assert proxy_address is not None
    assert f"GENIUSNIGHT_TRUSTED_PROXIES: {proxy_address.group(1)}" in compose


def _env_values(text: str, name: str) -> str:
    return " ".join(re.findall(rf"{name}=(\S+)", text))


def test_the_shipped_proxy_limits_rates_connections_and_slow_headers() -> None:
    conf = Path(ROOT / "deploy" / "nginx.conf").read_text()
    for directive in ("limit_req_zone", "limit_conn_zone", "limit_req ", "limit_conn ", "client_header_timeout"):
        assert directive in conf, directive


# --- websocket messages ---------------------------------------------------------------------


async def said_hello(ws_base: str) -> Any:
    """A socket of a new room's host, past its welcome."""
    async with httpx.AsyncClient(base_url=ws_base.replace("ws://", "http://")) as c:
        room = (await c.post("/api/rooms", json={"game": "count21", "name": "Ada"})).json()
    ws = await websockets.connect(f"{ws_base}/ws/{room['room_id']}", max_size=None)
    await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] == "welcome"
    return ws


async def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` (room frames come and go meanwhile)."""
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if frame["type"] == kind:
            return frame


async def first_fragment_only(fragment: str, hold: asyncio.Event) -> AsyncIterator[str]:
    """A message whose first fragment is sent and whose end never comes."""
    yield fragment
    await hold.wait()
    yield ""


async def closed_with(ws: Any, timeout: float) -> int | None:
    """The close code the server sent, waiting at most ``timeout`` seconds for it."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd is not None else None


async def test_a_message_over_the_assembly_limit_closes_the_socket_at_its_first_fragment(server: ServerProcess) -> None:
    """A first fragment of 1 MiB without FIN held 1.07 MiB for as long as its socket lived;
    now a message past WS_MAX_MESSAGE_BYTES (64 KiB) closes its socket with 1009 at once."""
    ws = await said_hello(server.ws_base)
    hold = asyncio.Event()
    sending = asyncio.create_task(ws.send(first_fragment_only("x" * (1 << 20), hold)))
    assert await closed_with(ws, 5) == 1009
    hold.set()
    sending.cancel()
    await asyncio.gather(sending, return_exceptions=True)


async def test_a_message_within_the_assembly_limit_but_over_the_frame_limit_gets_an_error_frame(
    server: ServerProcess,
) -> None:
    ws = await said_hello(server.ws_base)
    await ws.send(json.dumps({"type": "chat", "text": "x" * (WS_MAX_MESSAGE_BYTES - 1024)}))
    assert (await next_of(ws, "error"))["code"] == "frame_too_large"
    await ws.send(json.dumps({"type": "ping", "ref": "still-open"}))
    assert await next_of(ws, "pong") == {"type": "pong", "ref": "still-open"}
    await ws.close()


async def test_a_fragmented_message_is_read(db_url: str) -> None:
    async with serve(db_url) as srv:
        ws = await said_hello(srv.ws_base)
        await ws.send(iter(['{"type": "ping",', ' "ref": "in-two"}']))
        assert await next_of(ws, "pong") == {"type": "pong", "ref": "in-two"}
        await ws.send(json.dumps({"type": "ping", "ref": "later"}))
        assert await next_of(ws, "pong") == {"type": "pong", "ref": "later"}
        await ws.close()
