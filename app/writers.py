"""The group commit's writer for the configured database (see app/committer.py)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from app.pg_writer import PostgresWriter
from app.sqlite_writer import SqliteWriter, sqlite_file
from app.store import BatchWriter


def create_batch_writer(engine: AsyncEngine) -> BatchWriter | None:
    """A writer that commits a whole batch in one hop; None where the engine's own
    statement-by-statement path is the only one (other drivers, in-memory SQLite)."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        return SqliteWriter(path) if path else None
    if url.get_backend_name() == "postgresql" and url.get_driver_name() == "asyncpg":
        return PostgresWriter(engine)
    return None
