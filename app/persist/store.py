"""The two faces of persistence: a `Store` reads rooms and makes them (create, seats,
the hand log, purge), and a `Writer` persists accepted moves and votes, a batch at a
time. Every move takes one path: `GroupCommitter` → `Store.writer.commit_many`, and,
if a batch fails as a whole, each entry alone through `Store.fallback`.

Implementations, side by side in this package:
- `sql.SqlStore` (SQLAlchemy, SQLite or PostgreSQL) with `sql_writer.SqlWriter`, which
  writes the statements of `writes` (each write defined once) through one database's
  `Batches`: the engine's, statement by statement (`sql_writer.EngineBatches`, any async
  driver: the fallback, and the batch path when RUMMY_BATCH_WRITER=false), SQLite's
  writer process (`sqlite_writer.WriterProcess`, a whole batch in one request) or
  PostgreSQL's one statement (`pg_writer.PostgresBatches`);
- `tests/kit/memory_store.MemoryStore` with its `MemoryWriter`, for fast tests of the room service.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

import rules
from app.persist.rows import (
    ChallengePlan,
    ChatRow,
    Commit,
    EntryRow,
    HandRow,
    LogEntry,
    Mark,
    Snapshot,
)
from app.persist.social_tables import Challenge

# One entry of a group commit: the room as the move saw it, the entry, and its time.
Batch = Sequence[tuple[Snapshot, Commit, datetime]]


class Writer(Protocol):
    async def commit_many(self, batch: Batch) -> list[int | None]:
        """Persist several rooms' entries in one transaction.

        Each entry keeps its own compare-and-swap on its room's version: its result is
        the new version, or None when another writer moved that room first (nothing of
        that entry is written). Rooms are written in id order (`batch_order`), so two
        processes' batches never wait on each other in a cycle.
        Raises what the database raises: the caller then writes the entries one by one.
        """
        ...

    async def close(self) -> None: ...


class Store(Protocol):
    @property
    def writer(self) -> Writer:
        """Where group commits go."""
        ...

    @property
    def fallback(self) -> Writer:
        """Where a failed batch's entries go one at a time, so one bad entry fails alone."""
        ...

    async def ping(self) -> None: ...

    async def create(self, room: Snapshot) -> None:
        """Write a new room (`rows.new_snapshot`): its row, seats and first hand."""
        ...

    async def load(self, room_id: str) -> Snapshot:
        """Raises RoomNotFound."""
        ...

    def stored_state(self, room_id: str, entry: Commit) -> str:
        """The entry's state as the store keeps it, and as the hub event carries it."""
        ...

    def decode_state(self, room_id: str, stored: str) -> rules.GameState:
        """A state as `stored_state` gave it (from another process's event)."""
        ...

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None: ...

    async def take_seat(
        self,
        room_id: str,
        *,
        name: str | None,
        token_hash: str,
        now: datetime,
        deadline: datetime | None = None,
    ) -> int | None:
        """Claim the lowest free seat; None when the room is full. When that seat fills
        a room with a turn timer, its first turn runs out at `deadline`."""
        ...

    async def due_turns(self, now: datetime, limit: int) -> list[str]:
        """Up to `limit` rooms whose turn deadline is `now` or earlier, most overdue first."""
        ...

    async def finished_hands(self, room_id: str) -> list[tuple[HandRow, list[LogEntry]]]:
        """Every hand that has ended, with its entries in version order."""
        ...

    async def marks(self, room_ids: Iterable[str]) -> dict[str, Mark]:
        """The mark of each of these rooms the database has (a room it lacks is absent): a
        cheap check of cached snapshots against the database (app/healing.py)."""
        ...

    async def entries_since(self, room_id: str, seq: int, version: int) -> list[LogEntry]:
        """The log entries of hand `seq` after `version`, in version order."""
        ...

    async def hand_started_at(self, room_id: str, seq: int) -> int:
        """The version at which hand `seq` of the room was dealt (0 for the first)."""
        ...

    async def versions(self, room_id: str) -> list[int]: ...

    async def purge(self, inactive_since: datetime) -> int:
        """Delete every room with no activity since `inactive_since`; returns how many."""
        ...

    async def close(self) -> None: ...

    # -- the friends' rows (app/social/): every write defined once in social_writes.py --

    async def social_row(self, room: str) -> tuple[bool, str | None] | None:
        """The room's chat option and rematch; None: no row (chat on, no rematch)."""
        ...

    async def set_chat(self, room: str, on: bool) -> None: ...

    async def claim_rematch(self, room: str, new_room: str) -> str:
        """Record `new_room` as `room`'s rematch unless one is recorded already; returns the
        one recorded (the compare-and-set that lets exactly one rematch exist)."""
        ...

    async def delete_room(self, room: str) -> None:
        """A room and every row of it (a rematch's room that lost its race)."""
        ...

    async def chat_since(
        self, room: str, seat: int, since: datetime
    ) -> tuple[int, datetime | None]:
        """How many messages `seat` wrote in `room` after `since`, and the oldest one's time."""
        ...

    async def add_chat(
        self, room: str, seat: int, name: str, text: str, at: datetime
    ) -> int | None:
        """Store a message under the room's next id; returns it, or None when another
        writer took that id first."""
        ...

    async def chat_messages(self, room: str, since: int | None, limit: int) -> list[ChatRow]:
        """Messages after id `since`, else the last `limit`; oldest first."""
        ...

    async def add_challenge(self, plan: ChallengePlan) -> None:
        """A challenge, its challenger's entry and its first invitation, in one transaction."""
        ...

    async def challenge(self, challenge: str) -> Challenge | None: ...

    async def add_entry(
        self, challenge: str, room: str, name: str, invite_name: str | None
    ) -> None:
        """The challenge's next entry, numbered after those before it."""
        ...

    async def entries(self, challenge: str) -> list[EntryRow]:
        """The challenge's entries in the order they were played."""
        ...

    async def add_invite(
        self, challenge: str, code_hash: str, name: str, now: datetime, at_most: int
    ) -> bool:
        """A new invitation; False (nothing written) when the challenge has `at_most`."""
        ...

    async def invite(self, code_hash: str) -> tuple[str, str] | None:
        """The challenge and name of an invitation."""
        ...

    async def spend_invite(self, challenge: str, code_hash: str, now: datetime) -> bool:
        """Spend an unspent invitation; False when it was spent already."""
        ...

    async def unspend_invite(self, code_hash: str) -> None: ...


def batch_order(batch: Batch) -> list[int]:
    """The batch's indices in room id order: two processes' batches then never wait on
    each other in a cycle."""
    return sorted(range(len(batch)), key=lambda i: batch[i][0].id)
