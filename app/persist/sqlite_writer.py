"""Group-commit batches on SQLite, each written in one request to a process of its own.

Through SQLAlchemy's async SQLite driver every statement is a hop to the driver's thread
and back through the event loop, and under load the loop is busy: a batch of five moves
(a dozen statements) waited a dozen turns of the loop, 5 ms at the median and 65 ms at the
99th percentile, while SQLite itself commits such a batch in 0.2 ms with its fsync. A
thread of our own that ran the whole batch still waited for the GIL at each statement
(app/persist/sqlite_process.py says how long). So the batch goes, from BEGIN to COMMIT, to
a process that owns the connection: the loop writes it to a pipe and is answered once it
is committed.

The batch's compare-and-swaps and log rows are one statement each, written for SQLite in
sqlite_process.py; a batch whose swap lost goes one by one there. The connection gets the
engine's pragmas (WAL, synchronous=FULL), so what lands on disk is what `sql.EngineWriter`
would write, sealed alike. A new room's rows and a join's seat claim take the same process
(`setup`, app/persist/sqlite_setup.py), so no write of this process waits for SQLite's busy
timeout; the engine's few other writes (purges, sealing old rows) are ordered with these by
that timeout.

If the process ends, what waits on it fails with `sqlite3.OperationalError` (the group
commit then writes its entries through the engine) and the next request starts another.
"""

from __future__ import annotations

import asyncio
import logging
import marshal
import sqlite3
import sys
from collections import deque
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import URL

from app.db import SQLITE_PRAGMAS
from app.models import Hand
from app.persist import sqlite_process
from app.persist.sealing import StateCipher
from app.persist.sql import BATCH_SQL, BatchRows, cas_params
from app.persist.sqlite_process import CAS_COLUMNS, HEADER_BYTES, LOG_COLUMNS, frame
from app.persist.sqlite_setup import SETUP_SQL, SetupOp, sqlite_sql, stamp
from app.persist.store import Batch, batch_order

log = logging.getLogger("rummy.store")

# How long a closing server waits for the process to answer what it was sent and end.
CLOSE_SECONDS = 10.0

_SCRIPT = str(Path(sqlite_process.__file__))


# Every statement the writer process runs but the batch's own (sqlite_process.py).
_STATEMENTS = {
    "end_hand": sqlite_sql(BATCH_SQL.end_hand),
    "new_hand": sqlite_sql(
        insert(Hand), ["room_id", "seq", "start", "start_version", "end_version"]
    ),
    **SETUP_SQL,
}


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
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None
        # The requests sent and not yet answered, oldest first: the process answers in order.
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._setups: list[tuple[SetupOp, asyncio.Future[Any]]] = []
        self._setup_task: asyncio.Task[None] | None = None

    async def commit_many(self, batch: Batch) -> list[int | None]:
        """See `Writer.commit_many`. The values to write (states sealed, log rows) are made
        here on the event loop; the process only runs the statements.

        Raises what sqlite3 raises (the whole batch is then rolled back)."""
        order = batch_order(batch)
        entries: list[sqlite_process.Entry] = []
        for i in order:
            room, entry, now = batch[i]
            at = stamp(now)
            rows = BatchRows(self._cipher)
            rows.add(room, entry, at)
            cas = cas_params(room, entry, at, self._cipher, stamp)
            entries.append(
                (
                    [cas[c] for c in CAS_COLUMNS],
                    [row[c] for row in rows.logs for c in LOG_COLUMNS],
                    rows.ended,
                    rows.new_hands,
                )
            )
        won = await self._request(("batch", entries))
        results: list[int | None] = [None] * len(batch)
        for i, ok in zip(order, won, strict=True):
            if ok:
                results[i] = batch[i][0].version + 1
        return results

    async def setup(self, op: SetupOp) -> Any:
        """Run a room set-up (app/persist/sqlite_setup.py) in the writer process; the ones
        that wait meanwhile share the next transaction. Returns what `op` returns.

        Raises what `op` raises (only its own savepoint is rolled back), or what the
        commit raises."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._setups.append((op, future))
        if self._setup_task is None:
            self._setup_task = asyncio.create_task(self._drain_setups())
        return await future

    async def _drain_setups(self) -> None:
        try:
            while self._setups:
                ops, self._setups = self._setups, []
                try:
                    results = await self._request(("setup", [op for op, _ in ops]))
                except Exception as exc:
                    results = [exc] * len(ops)
                for (_, future), result in zip(ops, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    elif _is_error(result):
                        future.set_exception(_sqlite_error(result))
                    else:
                        future.set_result(result)
        finally:
            self._setup_task = None

    async def close(self) -> None:
        """End the process once it has answered what it was sent."""
        process, self._process = self._process, None
        if process is None:
            return
        assert process.stdin is not None
        process.stdin.close()
        try:
            async with asyncio.timeout(CLOSE_SECONDS):
                await process.wait()
        except TimeoutError:
            log.error("the SQLite writer process did not end when asked: killed")
            process.kill()
            await process.wait()
        if self._reader is not None:
            await self._reader

    async def _request(self, request: tuple[Any, ...]) -> Any:
        process = self._process
        if process is None or process.returncode is not None:
            process = await self._start()
        reply = await self._send(process, request)
        if _is_error(reply):
            raise _sqlite_error(reply)
        return reply[1]

    async def _send(self, process: asyncio.subprocess.Process, request: tuple[Any, ...]) -> Any:
        assert process.stdin is not None
        data = frame(request)  # first: a value marshal refuses must not leave a reply unasked
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        process.stdin.write(data)
        return await future

    async def _start(self) -> asyncio.subprocess.Process:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._process is not None and self._process.returncode is None:
                return self._process
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-I",  # the standard library only: nothing of the server's path or settings
                _SCRIPT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            self._reader = asyncio.create_task(self._read_replies(process))
            hello = ("hello", self._path, SQLITE_PRAGMAS, _STATEMENTS)
            reply = await self._send(process, hello)
            if _is_error(reply):
                assert process.stdin is not None
                process.stdin.close()  # it ends; the next request starts another
                raise _sqlite_error(reply)
            self._process = process
            return process

    async def _read_replies(self, process: asyncio.subprocess.Process) -> None:
        """Answer each request in turn until the process ends; then fail what still waits."""
        stdout = process.stdout
        assert stdout is not None
        try:
            while True:
                header = await stdout.readexactly(HEADER_BYTES)
                body = await stdout.readexactly(int.from_bytes(header, "little"))
                future = self._waiting.popleft()
                if not future.done():
                    future.set_result(marshal.loads(body))
        except asyncio.IncompleteReadError:
            pass  # the process ended
        finally:
            if self._process is process:
                self._process = None
                log.error("the SQLite writer process ended unasked")
            while self._waiting:
                future = self._waiting.popleft()
                if not future.done():
                    future.set_exception(
                        sqlite3.OperationalError("the SQLite writer process ended")
                    )


def _is_error(reply: Any) -> bool:
    return isinstance(reply, tuple) and len(reply) == 3 and reply[0] == "error"


def _sqlite_error(reply: tuple[str, str, str]) -> sqlite3.Error:
    """The sqlite3 exception the process reported, as the thread it replaced raised it."""
    _, name, message = reply
    kind = getattr(sqlite3, name, None)
    if not (isinstance(kind, type) and issubclass(kind, sqlite3.Error)):
        kind = sqlite3.Error
    return kind(message)
