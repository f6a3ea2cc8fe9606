"""Persistence: a `Store` for reads and room set-up, a `Writer` for moves (store.py), their
SQL implementations, the group commit, and the sealing of secrets at rest."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db import create_sessionmaker
from app.persist.committer import GroupCommitter
from app.persist.pg_writer import PostgresBatches
from app.persist.rows import Commit, HandRow, LogEntry, NewSeat, SeatRow, Snapshot
from app.persist.sealing import cipher_for
from app.persist.sql import SqlStore
from app.persist.sql_writer import Batches, SqlWriter
from app.persist.sqlite_writer import WriterProcess, sqlite_file
from app.persist.store import Store, Writer

__all__ = [
    "Commit",
    "GroupCommitter",
    "HandRow",
    "LogEntry",
    "NewSeat",
    "SeatRow",
    "Snapshot",
    "SqlStore",
    "Store",
    "Writer",
    "create_store",
]


def create_store(engine: AsyncEngine, settings: Settings) -> SqlStore:
    """The SQL store of `engine`, sealing under this process's key, with the one-hop
    writer of its database unless RUMMY_BATCH_WRITER is off."""
    cipher = cipher_for(settings)
    batches = one_hop_batches(engine) if settings.batch_writer else None
    writer = SqlWriter(batches, cipher) if batches is not None else None
    # SQLite's writer process also makes rooms and takes seats: one writer, no busy waits.
    setup = batches.setup if isinstance(batches, WriterProcess) else None
    return SqlStore(create_sessionmaker(engine), cipher, writer, setup)


def one_hop_batches(engine: AsyncEngine) -> Batches | None:
    """How a whole batch reaches the database in one hop; None where the engine's own
    statement-by-statement path is the only one (other drivers, in-memory SQLite)."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        return WriterProcess(path) if path else None
    if url.get_backend_name() == "postgresql" and url.get_driver_name() == "asyncpg":
        return PostgresBatches(engine)
    return None
