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
parent sends the statements it compiled (app/persist/writes.py, sqlite_setup.py), so the
SQL has one home.

The protocol, on stdin and stdout: frames of a 4-byte little-endian length and a
`marshal` payload (the parent is the only writer: marshal is safe and fast here).
- first `("hello", path, pragmas, statements)`, answered `("ok", None)`;
- then `("batch", entries)` and `("setup", ops)`, each answered `("ok", result)` or
  `("error", sqlite3 class name, message)` once committed or rolled back; in order.
End of input ends the process, so it never outlives a server killed without warning.
"""

from __future__ import annotations

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

# One batch entry as sent: its values by name (app/persist/writes.py `FIELDS`), which the
# parent's statements take as named parameters.
Entry = dict[str, Any]


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
        conn, sql = self.conn, self.sql
        with _transaction(conn):
            won = self._cas(entries)
            rows = [entry for ok, entry in zip(won, entries, strict=True) if ok]
            conn.executemany(sql["log_row"], rows)
            conn.executemany(sql["end_hand"], [e for e in rows if e["ended"]])
            conn.executemany(sql["new_hand"], [e for e in rows if e["new_hand"] is not None])
        return won

    def _cas(self, entries: list[Entry]) -> list[bool]:
        """Every entry's compare-and-swap, first in its transaction. When any lost (another
        process moved its room), the transaction is begun again and they go one by one."""
        conn, cas = self.conn, self.sql["cas"]
        if conn.executemany(cas, entries).rowcount == len(entries):
            return [True] * len(entries)
        log.info("a room of a batch of %d moved elsewhere: its moves one by one", len(entries))
        conn.execute("ROLLBACK")
        conn.execute("BEGIN IMMEDIATE")
        return [conn.execute(cas, entry).rowcount == 1 for entry in entries]

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

    def _run(self, steps: list[tuple[str, dict[str, Any]]]) -> list[int]:
        """Named statements (app/persist/social_writes.py) in order; each one's row count."""
        return [self.conn.execute(self.sql[name], params).rowcount for name, params in steps]

    def _take_seat(self, params: dict[str, Any], name: str | None) -> int | None:
        """The room's lowest free seat, claimed; None when full. The transaction's write
        lock keeps two claims from taking one seat. `params`: app/persist/seat_claim.py."""
        conn, sql = self.conn, self.sql
        free = [row[0] for row in conn.execute(sql["free_seats"], params)]
        if not free:
            return None
        seat = int(free[0])
        claim = {**params, "seat_no": seat, "seat_name": name or f"Player {seat + 1}"}
        conn.execute(sql["claim_seat"], claim)
        conn.execute(sql["touch_room"], params)
        if params["deadline"] is not None:
            conn.execute(sql["start_timer"], params)
        return seat


def _error(exc: sqlite3.Error) -> tuple[str, str, str]:
    return ("error", type(exc).__name__, str(exc))


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


class _JsonLines(logging.Formatter):
    """The server's RUMMY_LOG_FORMAT=json lines (app/logsetup.py), which this script, of the
    standard library only, cannot import."""

    def format(self, record: logging.LogRecord) -> str:
        import json
        from datetime import UTC, datetime

        moment = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        line = {"time": moment, "level": record.levelname, "logger": record.name}
        line["message"] = record.getMessage()
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if os.environ.get("RUMMY_LOG_FORMAT", "").lower() == "json":
        logging.root.handlers[0].setFormatter(_JsonLines())
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
