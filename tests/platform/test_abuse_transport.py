"""What one person could do to a server through its transport and edge (docs/deploy.md,
"Abuse limits"): a forged X-Forwarded-For, and the proxy set-up that prevents it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support import ROOT, ServerProcess


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
    return httpx.post(f"{srv.base}/api/rooms", json=body, headers={"X-Forwarded-For": forwarded_for})


def test_a_forged_x_forwarded_for_from_an_untrusted_peer_does_not_change_the_limits_address(
    behind_nobody: ServerProcess,
) -> None:
    answers = [create_room(behind_nobody, f"198.51.100.{i}").status_code for i in range(4)]
    assert answers == [200, 200, 429, 429]


def test_x_forwarded_for_from_a_trusted_proxy_names_the_client(behind_local_proxy: ServerProcess) -> None:
    # the proxy tells two clients apart: each has its own two rooms a minute
    answers = [create_room(behind_local_proxy, f"198.51.100.{i % 2}").status_code for i in range(5)]
    assert answers == [200, 200, 200, 200, 429]


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
