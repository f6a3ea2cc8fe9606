"""Alembic's autogenerate against the models finds no difference, on every backend."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Connection

from app import migrate
from app.db import create_engine
from app.models import Base
from app.persist import social_tables as _social_tables  # noqa: F401  (registers its tables)


async def test_models_match_the_migrations(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await migrate.upgrade(engine)
        await migrate.upgrade(engine)  # a second run is a no-op

        def diff(connection: Connection) -> list:
            context = MigrationContext.configure(
                connection,
                opts={"compare_type": True, "render_as_batch": connection.dialect.name == "sqlite"},
            )
            return list(compare_metadata(context, Base.metadata))

        async with engine.connect() as connection:
            assert await connection.run_sync(diff) == []
            tables = await connection.run_sync(lambda c: set(c.dialect.get_table_names(c)))
        assert {"rooms", "seats", "hands", "moves", "alembic_version"} <= tables
        assert {"chat_messages", "room_social", "challenges", "challenge_entries"} <= tables
    finally:
        await engine.dispose()
    await asyncio.sleep(0)
