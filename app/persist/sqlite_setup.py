"""Room set-up on SQLite in one hop: a new room's rows and a join's seat claim, run on the
group commit's writer thread (`SqliteWriter.setup`), many to a transaction. `SqlStore`
builds the ops; the writer only runs them.

Through the engine a create was half a dozen statements, each a hop through the event loop,
and SQLite's write lock is held from the first of them to COMMIT. In a connect storm the
loop is busy, the lock was held for seconds, and the writer thread's batches (and the other
creates) waited until SQLite's busy timeout gave up: 500s and 503s. Here a set-up holds the
lock only while its statements run, and the set-ups waiting together share one COMMIT (and
its fsync), each in a savepoint of its own so one that fails leaves the others.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.dialects import sqlite

from app.models import Hand, Room, Seat

_DIALECT = sqlite.dialect(paramstyle="named")
_ROOM_COLUMNS = [
    "id",
    "variant",
    "players",
    "mode",
    "version",
    "state",
    "hand_seq",
    "created_at",
    "active_at",
    "spectators",
    "turn_seconds",
    "turn_deadline",
]
_INSERT_ROOM = str(insert(Room).compile(dialect=_DIALECT, column_keys=_ROOM_COLUMNS))
_INSERT_SEAT = str(
    insert(Seat).compile(
        dialect=_DIALECT, column_keys=["room_id", "seat", "name", "token_hash", "bot"]
    )
)
_INSERT_HAND = str(
    insert(Hand).compile(dialect=_DIALECT, column_keys=["room_id", "seq", "start", "start_version"])
)
_FREE_SEATS = (
    "SELECT seat FROM seats WHERE room_id = ? AND token_hash IS NULL AND bot IS NULL ORDER BY seat"
)
_TAKE_SEAT = "UPDATE seats SET name = ?, token_hash = ? WHERE room_id = ? AND seat = ?"
_TOUCH_ROOM = "UPDATE rooms SET active_at = ? WHERE id = ?"
_START_TIMER = "UPDATE rooms SET turn_deadline = ? WHERE id = ? AND turn_seconds IS NOT NULL"

# The text SQLAlchemy stores a datetime as on SQLite, so every writer's rows read back alike.
_to_text = Room.__table__.c.active_at.type.dialect_impl(_DIALECT).bind_processor(_DIALECT)
assert _to_text is not None  # SQLite's DateTime always converts
stamp: Callable[[Any], Any] = _to_text

SetupOp = Callable[[sqlite3.Connection], Any]


def create_room(room: dict[str, Any], seats: list[dict[str, Any]], hand: dict[str, Any]) -> SetupOp:
    """The op that writes a new room's rows (column values as the models name them)."""
    row = {
        **room,
        "created_at": stamp(room["created_at"]),
        "active_at": stamp(room["active_at"]),
        "turn_deadline": stamp(room["turn_deadline"]) if room["turn_deadline"] else None,
        "spectators": int(room["spectators"]),
    }

    def op(conn: sqlite3.Connection) -> None:
        conn.execute(_INSERT_ROOM, row)
        conn.executemany(_INSERT_SEAT, seats)
        conn.execute(_INSERT_HAND, hand)

    return op


def take_seat(
    room_id: str, name: str | None, token_hash: str, now: datetime, deadline: datetime | None
) -> SetupOp:
    """The op that claims the room's lowest free seat (None when full); the seat that
    fills a room with a turn timer starts its first turn's timer at `deadline`. SQLite's
    write lock, held by the transaction, keeps two claims from taking one seat."""

    def op(conn: sqlite3.Connection) -> int | None:
        free = [row[0] for row in conn.execute(_FREE_SEATS, (room_id,))]
        if not free:
            return None
        seat = int(free[0])
        conn.execute(_TAKE_SEAT, (name or f"Player {seat + 1}", token_hash, room_id, seat))
        conn.execute(_TOUCH_ROOM, (stamp(now), room_id))
        if deadline is not None and len(free) == 1:
            conn.execute(_START_TIMER, (stamp(deadline), room_id))
        return seat

    return op
