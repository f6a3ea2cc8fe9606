"""Group-commit batches on SQLite, each written in one call to a thread of its own.

Through SQLAlchemy's async SQLite driver every statement is a hop to the driver's thread
and back through the event loop, and under load the loop is busy: a batch of five moves
(a dozen statements) waited a dozen turns of the loop, 5 ms at the median and 65 ms at the
99th percentile, while SQLite itself commits such a batch in 0.2 ms with its fsync. Here
the whole batch, from BEGIN to COMMIT, is one call on a thread that owns its own
connection, so a batch costs the loop one hop.

The statements are the group commit's SQLAlchemy statements (`sql.BATCH_SQL`) compiled
once for SQLite, and the connection gets the engine's pragmas (WAL, synchronous=FULL), so
what lands on disk is what `sql.EngineWriter` would write, sealed alike. A new room's rows
and a join's seat claim take the same thread (`setup`, app/persist/sqlite_setup.py), so no
write of this process waits for SQLite's busy timeout; the engine's few other writes
(purges, sealing old rows) are ordered with these by that timeout.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from sqlalchemy import insert
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import URL

from app.db import sqlite_pragmas
from app.models import Hand, MoveLog
from app.persist.sealing import StateCipher
from app.persist.sql import BATCH_SQL, BatchRows, cas_params
from app.persist.sqlite_setup import SetupOp, stamp
from app.persist.store import Batch, batch_order

_DIALECT = sqlite.dialect(paramstyle="named")
_LOG_COLUMNS = ["room_id", "version", "seat", "hand_seq", "kind", "move", "created_at"]
_HAND_COLUMNS = ["room_id", "seq", "start", "start_version", "end_version"]


def _sql(statement: Any, columns: list[str] | None = None) -> str:
    return str(statement.compile(dialect=_DIALECT, column_keys=columns))


_CAS = _sql(BATCH_SQL.cas)
_END_HAND = _sql(BATCH_SQL.end_hand)
_LOG = _sql(insert(MoveLog), _LOG_COLUMNS)
_NEW_HAND = _sql(insert(Hand), _HAND_COLUMNS)


def sqlite_file(url: URL) -> str | None:
    """The database file of a SQLite URL; None for in-memory SQLite, which a second
    connection would not see."""
    if url.database in (None, "", ":memory:"):
        return None
    return url.database


class SqliteWriter:
    """A `Writer` for one SQLite database file; one instance per file and process."""

    def __init__(self, path: str, cipher: StateCipher) -> None:
        self._path = path
        self._cipher = cipher
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummy-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._setups: list[tuple[SetupOp, asyncio.Future[Any]]] = []
        self._setup_task: asyncio.Task[None] | None = None

    async def commit_many(self, batch: Batch) -> list[int | None]:
        """See `Writer.commit_many`; the states are sealed on the writer thread too.

        Raises what sqlite3 raises (the whole batch is then rolled back)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._write, batch)

    async def setup(self, op: SetupOp) -> Any:
        """Run a room set-up (app/persist/sqlite_setup.py) on the writer thread; the ones
        that wait meanwhile share the next transaction. Returns what `op` returns.

        Raises what `op` raises (only its own savepoint is rolled back), or what the
        commit raises."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._setups.append((op, future))
        if self._setup_task is None:
            self._setup_task = asyncio.create_task(self._drain_setups())
        return await future

    async def _drain_setups(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._setups:
                ops, self._setups = self._setups, []
                try:
                    results = await loop.run_in_executor(
                        self._thread, self._run_setups, [op for op, _ in ops]
                    )
                except Exception as exc:
                    results = [exc] * len(ops)
                for (_, future), result in zip(ops, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._setup_task = None

    def _run_setups(self, ops: list[SetupOp]) -> list[Any]:
        conn = self._connection()
        results: list[Any] = []
        with _transaction(conn):
            for op in ops:
                conn.execute("SAVEPOINT setup")
                try:
                    results.append(op(conn))
                except sqlite3.Error as exc:
                    conn.execute("ROLLBACK TO setup")
                    results.append(exc)
                conn.execute("RELEASE setup")
        return results

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=True)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            # Autocommit mode: the transaction is the explicit BEGIN ... COMMIT below.
            conn = sqlite3.connect(self._path, isolation_level=None)
            sqlite_pragmas(conn, None)
            self._conn = conn
        return self._conn

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _write(self, batch: Batch) -> list[int | None]:
        conn = self._connection()
        results: list[int | None] = [None] * len(batch)
        cipher = self._cipher
        rows = BatchRows(cipher)
        with _transaction(conn):
            for i in batch_order(batch):
                room, entry, now = batch[i]
                at = stamp(now)
                if conn.execute(_CAS, cas_params(room, entry, at, cipher, stamp)).rowcount == 1:
                    results[i] = room.version + 1
                    rows.add(room, entry, at)
            if rows.logs:
                conn.executemany(_LOG, rows.logs)
            if rows.ended:
                conn.executemany(_END_HAND, rows.ended)
            if rows.new_hands:
                conn.executemany(_NEW_HAND, rows.new_hands)
        return results


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception. IMMEDIATE takes the write
    lock at once, so a compare-and-swap reads what it then writes over."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
