"""Alembic environment: runs on the app's own connection when given one, else on the URL
from RUMMY_DATABASE_URL (the `alembic` command line)."""

import asyncio

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Base
from app.persist import social_tables as _social_tables  # noqa: F401  (registers its tables)

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things in place: batch mode copies the table.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def _run(connection: Connection) -> None:
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_on_url(url: str) -> None:
    engine = create_async_engine(url, poolclass=pool.NullPool)
    async with engine.begin() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def _url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    return url or Settings().database_url


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
    else:
        asyncio.run(_run_on_url(_url()))
