"""Engine and session factory, plus the SQLite settings that make it behave under load."""

from __future__ import annotations

import logging
import os
from typing import Any

from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import AsyncAdaptedQueuePool, ConnectionPoolEntry

from app.errors import Unavailable

# How long a caller waits for a pooled connection unless told (RUMMY_DB_POOL_TIMEOUT_SECONDS).
POOL_TIMEOUT_SECONDS = 5.0


class BoundedPool(AsyncAdaptedQueuePool):
    """A queue pool whose wait for a connection ends in `Unavailable` (503 `unavailable`,
    a socket's error frame and close code), so every caller above the store, the
    websocket's included, answers a full pool as an API error rather than a crash."""

    def _do_get(self) -> ConnectionPoolEntry:
        try:
            return super()._do_get()
        except sa_exc.TimeoutError:
            raise Unavailable(
                f"the database is busy: no connection within {self._timeout:g} s, try again"
            ) from None


# SQLAlchemy keeps its own loggers at WARNING unless asked; a pool class of ours logs under
# our module's name instead, where the server's INFO level printed "Pool disposed" and
# "Pool recreating" at every shutdown and, at debug, every connection's checkout.
logging.getLogger(f"{__name__}.{BoundedPool.__name__}").setLevel(logging.WARNING)


def create_engine(url: str, pool_timeout: float = POOL_TIMEOUT_SECONDS) -> AsyncEngine:
    """An async engine for `url`; for SQLite also creates the file's folder."""
    parsed = make_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            folder = os.path.dirname(os.path.abspath(parsed.database))
            os.makedirs(folder, exist_ok=True)
        # In WAL readers run beside the one writer, and a connection stays checked out
        # across turns of a busy event loop: 1+4 connections queued a connect storm's
        # reads for 30 s. Each connection is a thread of aiosqlite's, so 10 in all.
        kwargs["pool_size"] = 4
        kwargs["max_overflow"] = 6
    else:
        # No pre-ping: it would add a round trip to every transaction, every move's
        # included. A connection the server dropped fails one transaction, is discarded by
        # the pool, and the group commit retries its moves on a fresh one.
        # Hundreds of sockets connecting at once each read their room and seat: room for
        # them (two processes use 60 of PostgreSQL's default 100 connections).
        kwargs["pool_size"] = 10
        kwargs["max_overflow"] = 20
    if parsed.database != ":memory:":
        kwargs["poolclass"] = BoundedPool
        kwargs["pool_timeout"] = pool_timeout
    engine = create_async_engine(url, **kwargs)
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


# Foreign keys are off by default in SQLite; WAL lets readers run beside the writer;
# busy_timeout makes a second process wait for the write lock instead of failing.
SQLITE_PRAGMAS = [
    "PRAGMA foreign_keys=ON",
    "PRAGMA journal_mode=WAL",
    "PRAGMA busy_timeout=10000",
    "PRAGMA synchronous=FULL",
]


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
