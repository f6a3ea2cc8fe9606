"""Group-commit batches on SQLite, each written in one call to a thread of its own.

Through SQLAlchemy's async SQLite driver every statement is a hop to the driver's thread
and back through the event loop, and under load the loop is busy: a batch of five moves
(a dozen statements) waited a dozen turns of the loop, 5 ms at the median and 65 ms at the
99th percentile, while SQLite itself commits such a batch in 0.2 ms with its fsync. Here
the whole batch, from BEGIN to COMMIT, is one call on a thread that owns its own
connection, so a batch costs the loop one hop.

The batch's compare-and-swaps and log rows are one statement each, written here for SQLite
(`sql.BATCH_SQL.cas` and the log insert for many rows at once); the rest, and a batch whose
swap lost, are the group commit's SQLAlchemy statements compiled once for SQLite. The
connection gets the engine's pragmas (WAL, synchronous=FULL), so what lands on disk is what
`sql.EngineWriter` would write, sealed alike. A new room's rows
and a join's seat claim take the same thread (`setup`, app/persist/sqlite_setup.py), so no
write of this process waits for SQLite's busy timeout; the engine's few other writes
(purges, sealing old rows) are ordered with these by that timeout.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from sqlalchemy import insert
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import URL

from app.db import sqlite_pragmas
from app.models import Hand
from app.persist.sealing import StateCipher
from app.persist.sql import BATCH_SQL, BatchRows, cas_params
from app.persist.sqlite_setup import SetupOp, stamp
from app.persist.store import Batch, batch_order

log = logging.getLogger("rummy.store")

_DIALECT = sqlite.dialect(paramstyle="named")
_LOG_COLUMNS = ["room_id", "version", "seat", "hand_seq", "kind", "move", "created_at"]
_HAND_COLUMNS = ["room_id", "seq", "start", "start_version", "end_version"]


def _sql(statement: Any, columns: list[str] | None = None) -> str:
    return str(statement.compile(dialect=_DIALECT, column_keys=columns))


_CAS = _sql(BATCH_SQL.cas)
_END_HAND = _sql(BATCH_SQL.end_hand)
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
        """See `Writer.commit_many`.

        The values to write (states sealed, log rows) are made here on the event loop, and
        the thread only runs the statements: made there, they took the GIL back and forth
        with a busy loop, and a batch of 40 moves spent 5 ms of CPU in 20 ms.

        Raises what sqlite3 raises (the whole batch is then rolled back)."""
        order = batch_order(batch)
        entries: list[_Entry] = []
        for i in order:
            room, entry, now = batch[i]
            at = stamp(now)
            rows = BatchRows(self._cipher)
            rows.add(room, entry, at)
            entries.append((cas_params(room, entry, at, self._cipher, stamp), rows))
        loop = asyncio.get_running_loop()
        won = await loop.run_in_executor(self._thread, self._write, entries)
        results: list[int | None] = [None] * len(batch)
        for i, ok in zip(order, won, strict=True):
            if ok:
                results[i] = batch[i][0].version + 1
        return results

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

    def _write(self, entries: list[_Entry]) -> list[bool]:
        conn = self._connection()
        with _transaction(conn):
            # Each statement gives up the GIL while SQLite runs it, and taking it back may
            # wait for the loop: the usual batch, where every compare-and-swap wins, is one
            # UPDATE for all its rooms and one INSERT for all its log rows.
            if _cas_all(conn, [params for params, _ in entries]):
                won = [True] * len(entries)
            else:
                won = [conn.execute(_CAS, params).rowcount == 1 for params, _ in entries]
            logs: list[Any] = []
            ended: list[dict[str, Any]] = []
            new_hands: list[dict[str, Any]] = []
            for ok, (_, rows) in zip(won, entries, strict=True):
                if ok:
                    logs += [row[c] for row in rows.logs for c in _LOG_COLUMNS]
                    ended += rows.ended
                    new_hands += rows.new_hands
            if logs:
                conn.execute(_log_sql(len(logs) // len(_LOG_COLUMNS)), logs)
            if ended:
                conn.executemany(_END_HAND, ended)
            if new_hands:
                conn.executemany(_NEW_HAND, new_hands)
        return won


# One entry as the thread writes it: its compare-and-swap's values and its other rows.
_Entry = tuple[dict[str, Any], BatchRows]


def _cas_all(conn: sqlite3.Connection, params: list[dict[str, Any]]) -> bool:
    """Every entry's compare-and-swap in one statement, first in its transaction. False,
    with the transaction begun again and nothing written, when any lost (another process
    moved its room): the caller then goes one by one. (A savepoint would cost two more
    statements in every batch, each a round of the GIL.)"""
    values = [p[c] for p in params for c in _CAS_COLUMNS]
    if conn.execute(_cas_sql(len(params)), values).rowcount == len(params):
        return True
    log.info("a room of a batch of %d moved elsewhere: its moves one by one", len(params))
    conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")
    return False


# `sql.BATCH_SQL.cas` for many rooms at once (UPDATE ... FROM, SQLite 3.33 and later).
_CAS_COLUMNS = ["b_id", "b_expected", "b_version", "b_state", "b_at", "b_hand_seq",
                "b_deadline", "b_attendance"]  # fmt: skip


@functools.lru_cache(maxsize=128)
def _cas_sql(rows: int) -> str:
    # It must begin with UPDATE: sqlite3 counts `rowcount` only for statements that do
    # (a WITH ... UPDATE reads -1). VALUES names its columns column1, column2, ...
    row = "(" + ",".join("?" * len(_CAS_COLUMNS)) + ")"
    b = {name: f"b.column{i}" for i, name in enumerate(_CAS_COLUMNS, 1)}
    return (
        f"UPDATE rooms SET version = {b['b_version']}, state = {b['b_state']}, "
        f"active_at = {b['b_at']}, hand_seq = {b['b_hand_seq']}, "
        f"turn_deadline = {b['b_deadline']}, attendance = {b['b_attendance']} "
        f"FROM (VALUES {','.join([row] * rows)}) AS b "
        f"WHERE rooms.id = {b['b_id']} AND rooms.version = {b['b_expected']}"
    )


@functools.lru_cache(maxsize=128)
def _log_sql(rows: int) -> str:
    row = "(" + ",".join("?" * len(_LOG_COLUMNS)) + ")"
    return f"INSERT INTO moves ({', '.join(_LOG_COLUMNS)}) VALUES {','.join([row] * rows)}"


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
