"""The narrow port between the move path and the turn drivers (app/turns/).

The drivers (computer seats, stand-ins, the turn timer, hints and reviews) act on rooms
only through `RoomPort`: read a room, take its lock, commit an entry through the one write
path, claim a turn. They never reach into the room service's state. The move path in turn
knows the drivers only as `TurnSteps`: one step after each commit (play the computer's
turns now due) and a wake-up for a room whose news came without a move.

A stand-in's start and end are entries of the room's log (`stand_in_entry`): the start is
a driver's (app/turns/standin.py), the end the owner's, on the move path.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from app.hub.protocol import Presence
from app.persist.rows import Commit, Snapshot

if TYPE_CHECKING:
    from app.config import Settings
    from rummy_wire.log import LogHand

STAND_IN = "stand_in"  # the log entry of a stand-in's start ({"stand_in": level}) or end (null)


def stand_in_entry(snap: Snapshot, seat: int, level: str | None) -> Commit:
    """The entry that starts (`level`) or ends (None) the stand-in of `seat`."""
    seats = tuple(replace(s, stand_in=level) if s.seat == seat else s for s in snap.seats)
    return Commit(
        seat=seat, kind=STAND_IN, payload={"stand_in": level}, state=snap.state, seats=seats
    )


class RoomPort(Protocol):
    """What a turn driver may do to rooms (the room service implements it)."""

    settings: Settings

    def clock(self) -> datetime: ...

    def lock(self, room_id: str) -> asyncio.Lock:
        """The room's lock in this process; `commit` wants it held."""
        ...

    async def snapshot(self, room_id: str, *, fresh: bool = False) -> Snapshot: ...

    async def current(self, room_id: str) -> Snapshot:
        """The room as the database has it now (for decisions a stale cache must not make)."""
        ...

    async def commit(self, snap: Snapshot, entry: Commit) -> Snapshot:
        """Persist `entry` made on `snap` and tell every socket; returns the room after it.
        Raises StaleVersion when another writer moved the room first."""
        ...

    async def claim(self, key: str, seconds: float) -> bool:
        """Whether this process, of all that share the hub, plays the turn `key`."""
        ...

    async def presence(self, room_id: str) -> Presence: ...

    def owner_returning(self, room_id: str, seat: int) -> bool:
        """Whether the owner of `seat` is coming back right now: no stand-in move for it."""
        ...

    async def due_rooms(self, limit: int) -> list[str]:
        """Rooms whose turn deadline passed (at most `limit`)."""
        ...

    async def hand_log(self, room_id: str) -> list[LogHand]: ...


class TurnSteps(Protocol):
    """What the move path asks of the turn drivers."""

    async def after_commit(self, snap: Snapshot) -> Snapshot:
        """Play the computer's turns now due in `snap` (the room's lock is held); returns
        the room after them."""
        ...

    def wake(self, snap: Snapshot) -> None:
        """The computer's turn may be due in `snap` (news, a restart): play it soon."""
        ...


class NoTurns:
    """Turn drivers for a room service that has none (tests of the move path alone)."""

    async def after_commit(self, snap: Snapshot) -> Snapshot:
        return snap

    def wake(self, snap: Snapshot) -> None:
        return None
