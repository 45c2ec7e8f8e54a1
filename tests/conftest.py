"""Shared fixtures: a migrated temporary database, the app in-process, and real servers.

The fixture game ``count21`` (``geniusnight/fixtures/count21.py``) stands in for a game
wherever a test is about the platform rather than a game's rules.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, Phase, settings

# In CI a failing property test reports its first counterexample at once: shrinking a long
# random game can take longer than the whole suite may.
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

from support import TOY, ServerProcess, postgres_database  # noqa: E402


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database migrated to the head once per test process; each test gets a copy
    of the file (the same schema and rows as migrating it afresh, without running alembic
    each time)."""
    from geniusnight.cli import db_upgrade

    path = tmp_path_factory.mktemp("migrated") / "head.db"
    db_upgrade(f"sqlite+aiosqlite:///{path}")
    # the migration closed its connections: the write-ahead log is checkpointed into the file
    assert not path.with_name("head.db-wal").exists()
    return path


def sqlite_copy(template: Path, path: Path) -> str:
    """A migrated SQLite database of its own at ``path``; its URL."""
    shutil.copyfile(template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def db_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    return sqlite_copy(migrated_sqlite, tmp_path / "test.db")


@pytest.fixture
async def app(db_url: str) -> AsyncIterator[object]:
    from geniusnight.server.app import create_app
    from geniusnight.settings import Settings

    application = create_app(
        Settings(
            env="test",
            database_url=db_url,
            extra_engines=[TOY],
            bot_delay_ms=0,
            admin_token="a" * 32,
        )
    )
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: object) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    # as a browser on the site's own page: every request names its Origin
    headers = {"Origin": "http://testserver"}
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver", headers=headers) as c:
        yield c


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[ServerProcess]:
    """One real server per test module (each test makes its own rooms)."""
    url = sqlite_copy(migrated_sqlite, tmp_path_factory.mktemp("server") / "server.db")
    srv = ServerProcess(url).start()
    yield srv
    srv.stop()


PG = os.environ.get("GENIUSNIGHT_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgres"])
async def any_db_url(request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[str]:
    """A migrated database of its own: SQLite, and the real PostgreSQL when configured."""
    from geniusnight.cli import db_upgrade

    if request.param == "sqlite":
        yield sqlite_copy(migrated_sqlite, tmp_path / "test.db")
        return
    if not PG:
        pytest.skip("GENIUSNIGHT_TEST_POSTGRES_URL not set")
    async with postgres_database(PG, "gn_seats") as url:
        db_upgrade(url)
        yield url
