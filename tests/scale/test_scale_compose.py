"""The deployment files: ``docker compose config -q`` where Docker Compose exists, and the
shape every deployment relies on (checked without Docker)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {"GENIUSNIGHT_ADMIN_TOKEN": "a" * 24, "GENIUSNIGHT_SECRET_KEY": "s" * 40}


def _compose() -> list[str] | None:
    """The compose command, or None: ``docker`` may exist without its compose plugin."""
    if shutil.which("docker"):
        ok = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=20).returncode == 0
        if ok:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def test_docker_compose_config_is_valid() -> None:
    cmd = _compose()
    if cmd is None:
        pytest.skip("docker compose is not installed")
    result = subprocess.run(
        [*cmd, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
        cwd=ROOT,
        env={**os.environ, **ENV},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def _load() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def test_compose_runs_migrations_once_before_two_app_replicas() -> None:
    services = _load()["services"]
    assert set(services) >= {"postgres", "redis", "migrate", "app", "proxy"}
    assert services["migrate"]["command"] == ["geniusnight", "db", "upgrade"]
    app = services["app"]
    assert app["deploy"]["replicas"] == 2
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "--no-migrate" in app["command"]
    env = app["environment"]
    assert env["GENIUSNIGHT_ENV"] == "production"
    assert env["GENIUSNIGHT_DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert env["GENIUSNIGHT_REDIS_URL"].startswith("redis://")
    # secrets come from the environment; compose refuses to start without them
    assert ":?" in env["GENIUSNIGHT_ADMIN_TOKEN"] and ":?" in env["GENIUSNIGHT_SECRET_KEY"]


def test_proxy_passes_websocket_upgrades() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert "proxy_http_version 1.1;" in conf
    assert "server app:8000;" in conf


def test_dockerfile_runs_as_a_non_root_user_on_all_interfaces() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    # the pinned, hash-checked dependencies, then the package without resolving them again
    assert "COPY requirements/server.txt ./requirements.txt" in text
    assert "pip install --require-hashes -r requirements.txt" in text and "pip install --no-deps ." in text
    assert "\nUSER geniusnight\n" in text
    assert '"geniusnight", "serve", "--host", "0.0.0.0"' in text


def test_health_checks_use_healthz_and_readyz() -> None:
    # the image checks liveness; compose waits for readiness before the proxy starts
    assert "http://127.0.0.1:8000/healthz" in (ROOT / "Dockerfile").read_text()
    app = _load()["services"]["app"]
    assert any("http://127.0.0.1:8000/readyz" in part for part in app["healthcheck"]["test"])
    assert _load()["services"]["proxy"]["depends_on"]["app"]["condition"] == "service_healthy"
