"""Bring the schema to alembic head from inside the app (used by `rummy serve` and tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

# migrations/ sits beside app/ both in the repo and in an installed tree.
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


async def upgrade(engine: AsyncEngine) -> None:
    """Run every pending migration on `engine`, in one transaction."""

    def _upgrade(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "head")

    async with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several `rummy serve` processes may start together: one migrates at a time.
            await connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7142319)")
        await connection.run_sync(_upgrade)
