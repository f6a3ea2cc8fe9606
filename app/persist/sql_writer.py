"""The `Writer` of the SQL databases, and the engine's way of running its batches.

`SqlWriter` does what every database does alike: it puts the batch in room id order, makes
each entry's values once (app/persist/writes.py: the state and any deal sealed), hands
them to its database's `Batches`, and answers each entry with its new version or None.
What differs is only how a batch reaches the database, one `Batches` each:
- `EngineBatches` (here): statement by statement through the SQLAlchemy engine, any
  async driver; the fallback of a failed batch, and the batch path with
  RUMMY_BATCH_WRITER=false;
- `sqlite_writer.WriterProcess`: the whole batch in one request to SQLite's writer process;
- `pg_writer.PostgresBatches`: the whole batch in one PostgreSQL statement.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.persist.sealing import StateCipher
from app.persist.store import Batch, batch_order
from app.persist.writes import ONE, Values, entry_values


class Batches(Protocol):
    @property
    def stamp(self) -> Callable[[datetime], Any] | None:
        """How this database's connection takes a time (None: as a datetime)."""
        ...

    async def write(self, entries: list[Values]) -> list[bool]:
        """The entries' writes (app/persist/writes.py) in one transaction, in the order
        given: each entry's compare-and-swap and, where it won, its rows. Whether each won.
        Raises what the database raises (nothing of the batch is then written)."""
        ...

    async def close(self) -> None: ...


class SqlWriter:
    """A `Writer` (app/persist/store.py) for a SQL database, through its `Batches`."""

    def __init__(self, batches: Batches, cipher: StateCipher) -> None:
        self._batches = batches
        self._cipher = cipher

    async def commit_many(self, batch: Batch) -> list[int | None]:
        """See `Writer.commit_many`."""
        order = batch_order(batch)
        cipher, stamp = self._cipher, self._batches.stamp
        won = await self._batches.write([entry_values(*batch[i], cipher, stamp) for i in order])
        results: list[int | None] = [None] * len(batch)
        for i, ok in zip(order, won, strict=True):
            if ok:
                results[i] = batch[i][0].version + 1
        return results

    async def close(self) -> None:
        await self._batches.close()


class EngineBatches:
    """Batches statement by statement through the engine (`writes.ONE`, an entry at a
    time): any async driver runs them."""

    stamp = None  # the engine's DateTime type converts

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def write(self, entries: list[Values]) -> list[bool]:
        try:
            async with self._sessions.begin() as session:
                conn = await session.connection()
                won = [(await conn.execute(ONE.cas, e)).rowcount == 1 for e in entries]
                rows = [e for e, ok in zip(entries, won, strict=True) if ok]
                if rows:
                    await conn.execute(ONE.log_row, rows)
                ended = [e for e in rows if e["ended"]]
                if ended:
                    await conn.execute(ONE.end_hand, ended)
                dealt = [e for e in rows if e["new_hand"] is not None]
                if dealt:
                    await conn.execute(ONE.new_hand, dealt)
        except IntegrityError:
            if len(entries) != 1:
                raise
            # The unique (room, version) in the log caught a writer the UPDATE did not:
            # this one entry lost its race.
            return [False]
        return won

    async def close(self) -> None:
        """The engine's connections are the engine's to close."""
