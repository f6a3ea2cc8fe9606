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
from app.persist.rows import Commit, HandRecord, LogEntry, Mark, Snapshot

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
        """Write a new room (`records.new_snapshot`): its row, seats and first hand."""
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

    async def finished_hands(self, room_id: str) -> list[tuple[HandRecord, list[LogEntry]]]:
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


def batch_order(batch: Batch) -> list[int]:
    """The batch's indices in room id order: two processes' batches then never wait on
    each other in a cycle."""
    return sorted(range(len(batch)), key=lambda i: batch[i][0].id)
