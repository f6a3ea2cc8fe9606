"""Room set-up on SQLite in one hop: a new room's rows and a join's seat claim, run by
the group commit's writer process (`SqliteWriter.setup`, app/persist/sqlite_process.py),
many to a transaction. `SqlStore` builds the ops here, as data the process runs; their
statements are compiled here, from the models.

Through the engine a create was half a dozen statements, each a hop through the event loop,
and SQLite's write lock is held from the first of them to COMMIT. In a connect storm the
loop is busy, the lock was held for seconds, and the writer's batches (and the other
creates) waited until SQLite's busy timeout gave up: 500s and 503s. Here a set-up holds the
lock only while its statements run, and the set-ups waiting together share one COMMIT (and
its fsync), each in a savepoint of its own so one that fails leaves the others.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.dialects import sqlite

from app.models import Hand, Room, Seat
from app.persist import seat_claim

_DIALECT = sqlite.dialect(paramstyle="named")


def sqlite_sql(statement: Any) -> str:
    """A SQLAlchemy statement as the SQLite text the writer process runs (named
    parameters; an insert without values takes every column of its table)."""
    return str(statement.compile(dialect=_DIALECT))


# The statements the writer process runs for a set-up (`sqlite_process.Connection`).
SETUP_SQL = {
    "insert_room": sqlite_sql(insert(Room)),
    "insert_seat": sqlite_sql(insert(Seat)),
    "insert_hand": sqlite_sql(insert(Hand)),
    "free_seats": sqlite_sql(seat_claim.FREE_SEATS),
    "claim_seat": sqlite_sql(seat_claim.CLAIM),
    "touch_room": sqlite_sql(seat_claim.TOUCH_ROOM),
    "start_timer": sqlite_sql(seat_claim.START_TIMER),
}

# The text SQLAlchemy stores a datetime as on SQLite, so every writer's rows read back alike.
_to_text = Room.__table__.c.active_at.type.dialect_impl(_DIALECT).bind_processor(_DIALECT)
assert _to_text is not None  # SQLite's DateTime always converts
stamp: Callable[[Any], Any] = _to_text

# An op as the writer process takes it: its name and its arguments (marshal's types only).
SetupOp = tuple[Any, ...]


def create_room(room: dict[str, Any], seats: list[dict[str, Any]], hand: dict[str, Any]) -> SetupOp:
    """The op that writes a new room's rows (a value for every column of each table)."""
    row = {
        **room,
        "created_at": stamp(room["created_at"]),
        "active_at": stamp(room["active_at"]),
        "turn_deadline": stamp(room["turn_deadline"]) if room["turn_deadline"] else None,
        "spectators": int(room["spectators"]),
    }
    return ("create_room", row, seats, hand)


def take_seat(
    room_id: str, name: str | None, token_hash: str, now: datetime, deadline: datetime | None
) -> SetupOp:
    """The op that claims the room's lowest free seat (it returns None when the room is
    full); the seat that fills a room with a turn timer starts its first turn's timer at
    `deadline`."""
    stamped = stamp(deadline) if deadline is not None else None
    return ("take_seat", seat_claim.params(room_id, token_hash, stamp(now), stamped), name)
