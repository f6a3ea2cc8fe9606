"""Engine and session factory, plus the SQLite settings that make it behave under load."""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def create_engine(url: str) -> AsyncEngine:
    """An async engine for `url`; for SQLite also creates the file's folder."""
    parsed = make_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            folder = os.path.dirname(os.path.abspath(parsed.database))
            os.makedirs(folder, exist_ok=True)
        # SQLite has one writer at a time anyway; a small pool avoids queueing on locks.
        kwargs["pool_size"] = 1
        kwargs["max_overflow"] = 4
    else:
        # No pre-ping: it would add a round trip to every transaction, every move's
        # included. A connection the server dropped fails one transaction, is discarded by
        # the pool, and the group commit retries its moves on a fresh one.
        # Hundreds of sockets connecting at once each read their room and seat: room for
        # them (two processes use 60 of PostgreSQL's default 100 connections).
        kwargs["pool_size"] = 10
        kwargs["max_overflow"] = 20
    engine = create_async_engine(url, **kwargs)
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Foreign keys are off by default in SQLite; WAL lets readers run beside the writer;
    # busy_timeout makes a second process wait for the write lock instead of failing.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
