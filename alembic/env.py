"""Alembic environment: async engine, URL from GENIUSNIGHT_DATABASE_URL (or -x url=...)."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from geniusnight.settings import Settings
from geniusnight.storage.database import make_engine
from geniusnight.storage.models import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    return (
        config.attributes.get("url") or context.get_x_argument(as_dictionary=True).get("url") or Settings().database_url
    )


def run_migrations_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = make_engine(database_url())
    async with engine.connect() as connection:
        await connection.run_sync(do_run_migrations)
    await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
elif config.attributes.get("connection") is not None:
    # a connection the caller holds: an in-memory database, which lives only in it
    do_run_migrations(config.attributes["connection"])
else:
    asyncio.run(run_async_migrations())
