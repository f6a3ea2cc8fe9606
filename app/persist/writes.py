"""The writes of an accepted move or vote, each defined once, from app/models.py's tables.

An entry writes, in one transaction:
- the compare-and-swap of its room's row: UPDATE rooms SET version = v + 1, state, ...
  WHERE id = :room AND version = v (zero rows: another writer moved the room first, and
  the entry writes nothing else);
- one row of the append-only move log;
- the end of the hand it ended, and the row of the hand it dealt.

Each write is a function of a source of entries `e` whose columns are `FIELDS`:
`WriteStatements(one_entry())` binds one entry's values (the engine and the SQLite writer
process run these, an entry at a time), and app/persist/pg_writer.py builds PostgreSQL's
one statement per batch from the same functions over the batch's arrays. Every writer
binds the values `entry_values` makes, so what lands is the same row on every path.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Boolean, Insert, Update, bindparam, insert, null, select, update
from sqlalchemy.types import TypeEngine

from app.models import Hand, MoveLog, Room
from app.persist.rows import Commit, Snapshot, attendance_json
from app.persist.sealing import StateCipher

# An entry's values, as every write binds them, and the types they are bound as. No name is
# a column's: SQLAlchemy keeps those for the parameters it makes itself.
FIELDS: dict[str, TypeEngine[Any]] = {
    "room": Room.id.type,
    "expected": Room.version.type,  # the version the entry was made on
    "new_version": Room.version.type,  # the version it makes: expected + 1
    "sealed_state": Room.state.type,  # the room's state after it
    "hand": MoveLog.hand_seq.type,  # the hand it was played in
    "next_seq": Room.hand_seq.type,  # the room's hand after it: one more if it dealt
    "at": Room.active_at.type,
    "by_seat": MoveLog.seat.type,
    "entry_kind": MoveLog.kind.type,
    "payload": MoveLog.move.type,
    "ended": Boolean(),  # it ended the hand `hand`
    "new_hand": Hand.start.type,  # the deal of hand `next_seq`, sealed; None: none dealt
    "deadline": Room.turn_deadline.type,
    "attendance_json": Room.attendance.type,
}

Values = dict[str, Any]


def entry_values(
    room: Snapshot,
    entry: Commit,
    at: datetime,
    cipher: StateCipher,
    stamp: Callable[[datetime], Any] | None = None,
) -> Values:
    """What `entry`, made on `room` at `at`, writes: the values of `FIELDS`. `stamp` turns
    its times into what the connection takes (SQLite's writer process: text)."""
    deal = entry.new_hand_start
    next_seq = room.hand_seq if deal is None else room.hand_seq + 1
    deadline = entry.turn_deadline
    return {
        "room": room.id,
        "expected": room.version,
        "new_version": room.version + 1,
        "sealed_state": entry.sealed_state(cipher, room.id),
        "hand": room.hand_seq,
        "next_seq": next_seq,
        "at": at if stamp is None else stamp(at),
        "by_seat": entry.seat,
        "entry_kind": entry.kind,
        "payload": entry.payload_json,
        "ended": entry.hand_ended,
        "new_hand": None if deal is None else seal_hand(cipher, room.id, next_seq, deal),
        "deadline": deadline if stamp is None or deadline is None else stamp(deadline),
        "attendance_json": room.attendance if entry.seats is None else attendance_json(entry.seats),
    }


def seal_hand(cipher: StateCipher, room_id: str, seq: int, start: str) -> str:
    """A hand's deal as `hands.start` stores it: it holds the match seed, which derives
    every later hand, so it is sealed even once the hand is over."""
    return cipher.seal(cipher.hand_context(room_id, seq), start)


# A source of entries: an attribute per name of `FIELDS`, each a column or a bound value
# (`one_entry()`, or the `.c` of a selectable of entries).
Entries = Any


def one_entry() -> Entries:
    """One entry's values, as parameters bound by the names of `FIELDS`."""
    return SimpleNamespace(**{name: bindparam(name, type_=kind) for name, kind in FIELDS.items()})


def cas(e: Entries) -> Update:
    """The compare-and-swap of each entry's room: it matches no row where the room is no
    longer at the version the entry was made on."""
    return (
        update(Room)
        .where(Room.id == e.room, Room.version == e.expected)
        .values(
            version=e.new_version,
            state=e.sealed_state,
            active_at=e.at,
            hand_seq=e.next_seq,
            turn_deadline=e.deadline,
            attendance=e.attendance_json,
        )
    )


def log_row(e: Entries) -> Insert:
    """Each entry's row of the move log (its unique room and version back up the swap)."""
    row = {
        "room_id": e.room,
        "version": e.new_version,
        "seat": e.by_seat,
        "hand_seq": e.hand,
        "kind": e.entry_kind,
        "move": e.payload,
        "created_at": e.at,
    }
    return insert(MoveLog).from_select(list(row), select(*row.values()))


def end_hand(e: Entries) -> Update:
    """The end of the hand each entry ended (for entries that ended one)."""
    return (
        update(Hand)
        .where(Hand.room_id == e.room, Hand.seq == e.hand, Hand.end_version.is_(None))
        .values(end_version=e.new_version)
    )


def new_hand(e: Entries) -> Insert:
    """The row of the hand each entry dealt (for entries that dealt one)."""
    row = {
        "room_id": e.room,
        "seq": e.next_seq,
        "start": e.new_hand,
        "start_version": e.new_version,
        "end_version": null(),
    }
    return insert(Hand).from_select(list(row), select(*row.values()))


class WriteStatements:
    """The four writes over one source of entries, built once: building a statement costs
    more than running it."""

    def __init__(self, e: Entries) -> None:
        self.cas = cas(e)
        self.log_row = log_row(e)
        self.end_hand = end_hand(e)
        self.new_hand = new_hand(e)


# An entry at a time: the engine runs these, and SQLite's writer process their text.
ONE = WriteStatements(one_entry())
