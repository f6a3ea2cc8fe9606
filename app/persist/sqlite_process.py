"""The SQLite writer's own process: it runs the group commit's batches and the room
set-ups that `sqlite_writer.SqliteWriter` sends it, each in one transaction, on a
connection it alone holds.

Why a process and not a thread: a thread's every SQLite call gives up the GIL and must take
it back from a busy event loop, which holds it for up to the switch interval (5 ms). A
batch's four statements spent 2.7 ms of CPU in 15 ms of wall time, most of it waiting for
the GIL, and every move of the next batch waited behind it. Here the statements never wait
for the server's GIL, and the server pays one pipe write and one read per batch.

This file runs as a script (`python sqlite_process.py`), so it imports the standard
library only: loading the app's packages would cost the child seconds and memory. The
parent sends the statements it compiled from the models, so the SQL has one home.

The protocol, on stdin and stdout: frames of a 4-byte little-endian length and a
`marshal` payload (the parent is the only writer: marshal is safe and fast here).
- first `("hello", path, pragmas, statements)`, answered `("ok", None)`;
- then `("batch", entries)` and `("setup", ops)`, each answered `("ok", result)` or
  `("error", sqlite3 class name, message)` once committed or rolled back; in order.
End of input ends the process, so it never outlives a server killed without warning.
"""

from __future__ import annotations

import functools
import logging
import marshal
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger("rummy.store")

HEADER_BYTES = 4

# The columns of a compare-and-swap's values and of a log row, in the order the batch
# statements below take them (the parent flattens its rows in this order).
CAS_COLUMNS = ["b_id", "b_expected", "b_version", "b_state", "b_at", "b_hand_seq",
               "b_deadline", "b_attendance"]  # fmt: skip
LOG_COLUMNS = ["room_id", "version", "seat", "hand_seq", "kind", "move", "created_at"]

# One batch entry as sent: its compare-and-swap values (CAS_COLUMNS), its log rows
# flattened (LOG_COLUMNS), and the hands it ended and dealt (named parameters).
Entry = tuple[list[Any], list[Any], list[dict[str, Any]], list[dict[str, Any]]]


def frame(payload: Any) -> bytes:
    data = marshal.dumps(payload)
    return len(data).to_bytes(HEADER_BYTES, "little") + data


class Connection:
    """The writer's connection and what it runs."""

    def __init__(self, path: str, pragmas: list[str], statements: dict[str, str]) -> None:
        # Autocommit mode: the transaction is the explicit BEGIN ... COMMIT below.
        self.conn = sqlite3.connect(path, isolation_level=None)
        for pragma in pragmas:
            self.conn.execute(pragma)
        self.sql = statements

    def batch(self, entries: list[Entry]) -> list[bool]:
        """Each entry's compare-and-swap and, where it won, its rows; whether it won."""
        conn = self.conn
        with _transaction(conn):
            if self._cas_all([cas for cas, *_ in entries]):
                won = [True] * len(entries)
            else:
                cas = _cas_sql(1)
                won = [conn.execute(cas, values).rowcount == 1 for values, *_ in entries]
            logs: list[Any] = []
            ended: list[dict[str, Any]] = []
            new_hands: list[dict[str, Any]] = []
            for ok, (_, entry_logs, entry_ended, entry_hands) in zip(won, entries, strict=True):
                if ok:
                    logs += entry_logs
                    ended += entry_ended
                    new_hands += entry_hands
            if logs:
                conn.execute(_log_sql(len(logs) // len(LOG_COLUMNS)), logs)
            if ended:
                conn.executemany(self.sql["end_hand"], ended)
            if new_hands:
                conn.executemany(self.sql["new_hand"], new_hands)
        return won

    def _cas_all(self, values: list[list[Any]]) -> bool:
        """Every entry's compare-and-swap in one statement, first in its transaction.
        False, with the transaction begun again and nothing written, when any lost
        (another process moved its room): the caller then goes one by one."""
        flat = [v for row in values for v in row]
        if self.conn.execute(_cas_sql(len(values)), flat).rowcount == len(values):
            return True
        log.info("a room of a batch of %d moved elsewhere: its moves one by one", len(values))
        self.conn.execute("ROLLBACK")
        self.conn.execute("BEGIN IMMEDIATE")
        return False

    def setup(self, ops: list[tuple[Any, ...]]) -> list[Any]:
        """Room set-ups in one transaction, each in a savepoint of its own; each op's
        result, or its error as ("error", class name, message)."""
        conn = self.conn
        results: list[Any] = []
        with _transaction(conn):
            for name, *args in ops:
                conn.execute("SAVEPOINT setup")
                try:
                    results.append(getattr(self, f"_{name}")(*args))
                except sqlite3.Error as exc:
                    conn.execute("ROLLBACK TO setup")
                    results.append(_error(exc))
                conn.execute("RELEASE setup")
        return results

    def _create_room(
        self, room: dict[str, Any], seats: list[dict[str, Any]], hand: dict[str, Any]
    ) -> None:
        self.conn.execute(self.sql["insert_room"], room)
        self.conn.executemany(self.sql["insert_seat"], seats)
        self.conn.execute(self.sql["insert_hand"], hand)

    def _take_seat(
        self, room_id: str, name: str | None, token_hash: str, now: str, deadline: str | None
    ) -> int | None:
        """The room's lowest free seat, claimed; None when full. The transaction's write
        lock keeps two claims from taking one seat."""
        conn = self.conn
        free = [row[0] for row in conn.execute(self.sql["free_seats"], (room_id,))]
        if not free:
            return None
        seat = int(free[0])
        conn.execute(
            self.sql["take_seat"], (name or f"Player {seat + 1}", token_hash, room_id, seat)
        )
        conn.execute(self.sql["touch_room"], (now, room_id))
        if deadline is not None and len(free) == 1:
            conn.execute(self.sql["start_timer"], (deadline, room_id))
        return seat


def _error(exc: sqlite3.Error) -> tuple[str, str, str]:
    return ("error", type(exc).__name__, str(exc))


@functools.lru_cache(maxsize=128)
def _cas_sql(rows: int) -> str:
    """The compare-and-swap of `rows` rooms in one statement (UPDATE ... FROM, SQLite
    3.33 and later). It must begin with UPDATE: sqlite3 counts `rowcount` only for
    statements that do. VALUES names its columns column1, column2, ..."""
    row = "(" + ",".join("?" * len(CAS_COLUMNS)) + ")"
    b = {name: f"b.column{i}" for i, name in enumerate(CAS_COLUMNS, 1)}
    return (
        f"UPDATE rooms SET version = {b['b_version']}, state = {b['b_state']}, "
        f"active_at = {b['b_at']}, hand_seq = {b['b_hand_seq']}, "
        f"turn_deadline = {b['b_deadline']}, attendance = {b['b_attendance']} "
        f"FROM (VALUES {','.join([row] * rows)}) AS b "
        f"WHERE rooms.id = {b['b_id']} AND rooms.version = {b['b_expected']}"
    )


@functools.lru_cache(maxsize=128)
def _log_sql(rows: int) -> str:
    row = "(" + ",".join("?" * len(LOG_COLUMNS)) + ")"
    return f"INSERT INTO moves ({', '.join(LOG_COLUMNS)}) VALUES {','.join([row] * rows)}"


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


def _read_exactly(fd: int, n: int) -> bytes | None:
    """`n` bytes from `fd`; None at the end of input."""
    chunks: list[bytes] = []
    while n:
        chunk = os.read(fd, n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def serve(fd_in: int, fd_out: int) -> None:
    """Answer requests until the end of input."""
    connection: Connection | None = None
    while True:
        header = _read_exactly(fd_in, HEADER_BYTES)
        if header is None:
            return
        body = _read_exactly(fd_in, int.from_bytes(header, "little"))
        if body is None:
            return
        kind, *args = marshal.loads(body)
        try:
            if kind == "hello":
                connection = Connection(*args)
                reply: Any = ("ok", None)
            elif connection is None:
                raise sqlite3.InterfaceError("no hello before the first request")
            elif kind == "batch":
                reply = ("ok", connection.batch(*args))
            else:
                reply = ("ok", connection.setup(*args))
        except sqlite3.Error as exc:
            reply = _error(exc)
        _write_all(fd_out, frame(reply))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # Ctrl-C in a terminal reaches the whole process group: the server then stops
    # gracefully and may still commit; this process ends when the server closes its input.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Nothing but replies may reach stdout.
    out = os.dup(sys.stdout.fileno())
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        serve(sys.stdin.fileno(), out)
    except BrokenPipeError:
        pass  # the server is gone: nobody is left to answer
