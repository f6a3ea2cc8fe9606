"""Group-commit batches on SQLite, each written in one request to a process of its own.

Through SQLAlchemy's async SQLite driver every statement is a hop to the driver's thread
and back through the event loop, and under load the loop is busy: a batch of five moves
(a dozen statements) waited a dozen turns of the loop, 5 ms at the median and 65 ms at the
99th percentile, while SQLite itself commits such a batch in 0.2 ms with its fsync. A
thread of our own that ran the whole batch still waited for the GIL at each statement
(app/persist/sqlite_process.py says how long). So the batch goes, from BEGIN to COMMIT, to
a process that owns the connection: the loop writes it to a pipe and is answered once it
is committed.

The process runs the writes of app/persist/writes.py, an entry at a time, compiled here for
SQLite and sent to it when it starts; a batch whose swap lost goes one by one there. The
connection gets the engine's pragmas (WAL, synchronous=FULL), so what lands on disk is what
the engine would write (`sql_writer.EngineBatches`), from the same values. A new room's
rows and a join's seat claim take the same process (`setup`, app/persist/sqlite_setup.py),
so no write of this process waits for SQLite's busy timeout; the engine's few other writes
(purges, sealing old rows) are ordered with these by that timeout.

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

from sqlalchemy.engine import URL

from app.db import SQLITE_PRAGMAS
from app.persist import sqlite_process
from app.persist.social_writes import SQLITE_SOCIAL
from app.persist.sqlite_process import HEADER_BYTES, frame
from app.persist.sqlite_setup import SETUP_SQL, SetupOp, sqlite_sql, stamp
from app.persist.writes import ONE, Values

log = logging.getLogger("rummy.store")

# How long a closing server waits for the process to answer what it was sent and end.
CLOSE_SECONDS = 10.0

_SCRIPT = str(Path(sqlite_process.__file__))


# Every statement the writer process runs (sqlite_process.py): the writes, the set-ups and
# the friends' writes.
_STATEMENTS = {
    "cas": sqlite_sql(ONE.cas),
    "log_row": sqlite_sql(ONE.log_row),
    "end_hand": sqlite_sql(ONE.end_hand),
    "new_hand": sqlite_sql(ONE.new_hand),
    **SETUP_SQL,
    **SQLITE_SOCIAL,
}


def sqlite_file(url: URL) -> str | None:
    """The database file of a SQLite URL; None for in-memory SQLite, which a second
    connection would not see."""
    if url.database in (None, "", ":memory:"):
        return None
    return url.database


class WriterProcess:
    """SQLite's writer process, from the server's side: its `Batches`
    (app/persist/sql_writer.py) and room set-ups, for one database file; one instance
    per file and process."""

    stamp = staticmethod(stamp)  # the process takes times as SQLAlchemy stores them

    def __init__(self, path: str) -> None:
        self._path = path
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None
        # The requests sent and not yet answered, oldest first: the process answers in order.
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._setups: list[tuple[SetupOp, asyncio.Future[Any]]] = []
        self._setup_task: asyncio.Task[None] | None = None

    async def write(self, entries: list[Values]) -> list[bool]:
        """See `Batches.write`: the values were made on the event loop; the process only
        runs the statements. Raises what sqlite3 raises (the whole batch is then rolled
        back)."""
        won: list[bool] = await self._request(("batch", entries))
        return won

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
