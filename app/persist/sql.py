"""The SQLAlchemy store (SQLite or PostgreSQL): reads, and the making of rooms and seats.

Moves are written by its `Writer` (app/persist/sql_writer.py), every write of a move
defined once in app/persist/writes.py: the compare-and-swap that serializes writers across
processes, UPDATE rooms SET version = v + 1 ... WHERE id = :room AND version = :v, plus
one row in the append-only move log, in one transaction.

Stored states and deals are sealed (app/persist/sealing.py); what a row holds is opened
here, so nothing above this module sees a sealed value.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import rules
from app.errors import RoomNotFound
from app.models import Hand, MoveLog, Room, Seat
from app.persist import seal_cleartext, seat_claim, sqlite_setup
from app.persist.rows import (
    Commit,
    HandRow,
    LogEntry,
    Mark,
    SeatRow,
    Snapshot,
    as_utc,
    with_attendance,
)
from app.persist.sealing import StateCipher
from app.persist.social_sql import SocialRows
from app.persist.sql_writer import EngineBatches, SqlWriter
from app.persist.sqlite_setup import SetupOp
from app.persist.store import Writer
from app.persist.writes import seal_hand


def _log_entry(row: MoveLog) -> LogEntry:
    return LogEntry(version=row.version, seat=row.seat, kind=row.kind, move=row.move)


# Rooms per marks query: well inside any driver's limit on bound parameters.
MARKS_CHUNK = 500


def _marks_query() -> Select[Any]:
    taken = (
        select(func.count())
        .where(Seat.room_id == Room.id, or_(Seat.token_hash.is_not(None), Seat.bot.is_not(None)))
        .correlate(Room)
        .scalar_subquery()
    )
    return select(Room.id, Room.version, taken).where(Room.id.in_(bindparam("ids", expanding=True)))


_MARKS = _marks_query()  # built once: building it costs more than running it


class SqlStore(SocialRows):
    """Reads and makes rooms through SQLAlchemy; every method runs in its own short
    transaction. Moves are written by `writer` (a one-hop writer, or the engine's); the
    friends' rows by `SocialRows` (social_sql.py)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        cipher: StateCipher,
        writer: Writer | None = None,
        setup: Callable[[SetupOp], Awaitable[Any]] | None = None,
    ) -> None:
        self._sessions = sessions
        self._cipher = cipher
        self._fallback = SqlWriter(EngineBatches(sessions), cipher)
        self._writer: Writer = writer or self._fallback
        # Runs SQLite's one-hop set-ups (app/persist/sqlite_setup.py); None: the engine.
        self._setup = setup

    @property
    def writer(self) -> Writer:
        return self._writer

    @property
    def fallback(self) -> Writer:
        return self._fallback

    async def close(self) -> None:
        await self._writer.close()

    def stored_state(self, room_id: str, entry: Commit) -> str:
        return entry.sealed_state(self._cipher, room_id)

    def decode_state(self, room_id: str, stored: str) -> rules.GameState:
        """Raises SealError, or pydantic's ValidationError (a ValueError)."""
        opened = self._cipher.open(self._cipher.state_context(room_id), stored)
        return rules.GameState.model_validate_json(opened)

    async def ping(self) -> None:
        async with self._sessions() as session:
            await session.execute(select(1))

    async def create(self, snap: Snapshot) -> None:
        room_id = snap.id
        room = {
            "id": room_id,
            "variant": snap.variant,
            "players": snap.players,
            "mode": snap.mode,
            "version": 0,
            "state": self._cipher.seal(
                self._cipher.state_context(room_id), snap.state.model_dump_json()
            ),
            "hand_seq": 0,
            "created_at": snap.active_at,
            "active_at": snap.active_at,
            "spectators": snap.spectators,
            "turn_seconds": snap.turn_seconds,
            "turn_deadline": snap.turn_deadline,
            "attendance": None,
        }
        seat_rows = [
            {
                "room_id": room_id,
                "seat": s.seat,
                "name": s.name,
                "token_hash": s.token_hash,
                "bot": s.bot,
            }
            for s in snap.seats
        ]
        start = seal_hand(self._cipher, room_id, 0, rules.hand_start(snap.state).model_dump_json())
        hand = {
            "room_id": room_id,
            "seq": 0,
            "start": start,
            "start_version": 0,
            "end_version": None,
        }
        if self._setup is not None:
            await self._setup(sqlite_setup.create_room(room, seat_rows, hand))
            return
        async with self._sessions.begin() as session:
            session.add(Room(**room))
            await session.flush()
            session.add_all(Seat(**row) for row in seat_rows)
            session.add(Hand(**hand))

    async def load(self, room_id: str) -> Snapshot:
        """Raises RoomNotFound."""
        async with self._sessions() as session:
            room = await session.get(Room, room_id)
            if room is None:
                raise RoomNotFound(f"no room {room_id}")
            rows = (
                await session.scalars(
                    select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat)
                )
            ).all()
            return Snapshot(
                id=room.id,
                variant=room.variant,
                players=room.players,
                mode=room.mode,
                version=room.version,
                hand_seq=room.hand_seq,
                active_at=as_utc(room.active_at),
                state=self.decode_state(room.id, room.state),
                seats=with_attendance(
                    tuple(
                        SeatRow(
                            seat=r.seat,
                            name=r.name,
                            taken=r.token_hash is not None or r.bot is not None,
                            bot=r.bot,
                            token_hash=r.token_hash,
                        )
                        for r in rows
                    ),
                    room.attendance,
                ),
                spectators=room.spectators,
                turn_seconds=room.turn_seconds,
                turn_deadline=as_utc(room.turn_deadline) if room.turn_deadline else None,
            )

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None:
        async with self._sessions() as session:
            row = (
                await session.execute(
                    select(Seat.room_id, Seat.seat).where(Seat.token_hash == token_hash)
                )
            ).first()
            return (row[0], row[1]) if row else None

    async def take_seat(
        self,
        room_id: str,
        *,
        name: str | None,
        token_hash: str,
        now: datetime,
        deadline: datetime | None = None,
    ) -> int | None:
        """Claim the lowest free seat; None when the room is full. The seat that fills the
        room starts its first turn's timer at `deadline`.

        Each claim is its own conditional UPDATE, so two joiners (even in two processes)
        never get the same seat: the loser sees 0 rows and tries the next one.
        """
        if self._setup is not None:
            op = sqlite_setup.take_seat(room_id, name, token_hash, now, deadline)
            seat: int | None = await self._setup(op)
            return seat
        values = seat_claim.params(room_id, token_hash, now, deadline)
        async with self._sessions.begin() as session:
            free = (await session.scalars(seat_claim.FREE_SEATS, values)).all()
        for seat in free:
            async with self._sessions.begin() as session:
                conn = await session.connection()
                claim = {**values, "seat_no": seat, "seat_name": name or f"Player {seat + 1}"}
                if (await conn.execute(seat_claim.CLAIM, claim)).rowcount == 1:
                    await conn.execute(seat_claim.TOUCH_ROOM, values)
                    if deadline is not None:
                        await conn.execute(seat_claim.START_TIMER, values)
                    return seat
        return None

    async def marks(self, room_ids: Iterable[str]) -> dict[str, Mark]:
        ids = sorted(room_ids)
        found: dict[str, Mark] = {}
        async with self._sessions() as session:
            for start in range(0, len(ids), MARKS_CHUNK):
                rows = await session.execute(_MARKS, {"ids": ids[start : start + MARKS_CHUNK]})
                for room_id, version, taken in rows:
                    found[str(room_id)] = (int(version), int(taken))
        return found

    async def entries_since(self, room_id: str, seq: int, version: int) -> list[LogEntry]:
        async with self._sessions() as session:
            rows = await session.scalars(
                select(MoveLog)
                .where(
                    MoveLog.room_id == room_id,
                    MoveLog.hand_seq == seq,
                    MoveLog.version > version,
                )
                .order_by(MoveLog.version)
            )
            return [_log_entry(m) for m in rows.all()]

    async def hand_started_at(self, room_id: str, seq: int) -> int:
        async with self._sessions() as session:
            version = await session.scalar(
                select(Hand.start_version).where(Hand.room_id == room_id, Hand.seq == seq)
            )
        return int(version or 0)

    async def due_turns(self, now: datetime, limit: int) -> list[str]:
        """Rooms whose turn deadline has passed, the longest overdue first."""
        async with self._sessions() as session:
            rows = await session.scalars(
                select(Room.id)
                .where(Room.turn_deadline.is_not(None), Room.turn_deadline <= now)
                .order_by(Room.turn_deadline)
                .limit(limit)
            )
            return list(rows.all())

    async def finished_hands(self, room_id: str) -> list[tuple[HandRow, list[LogEntry]]]:
        """Every hand that has ended, with its entries in version order."""
        async with self._sessions() as session:
            hands = (
                await session.scalars(
                    select(Hand)
                    .where(Hand.room_id == room_id, Hand.end_version.is_not(None))
                    .order_by(Hand.seq)
                )
            ).all()
            moves = (
                await session.scalars(
                    select(MoveLog).where(MoveLog.room_id == room_id).order_by(MoveLog.version)
                )
            ).all()
        by_hand: dict[int, list[LogEntry]] = {}
        for m in moves:
            by_hand.setdefault(m.hand_seq, []).append(_log_entry(m))
        cipher = self._cipher
        return [
            (
                HandRow(
                    seq=h.seq,
                    start=cipher.open(cipher.hand_context(room_id, h.seq), h.start),
                    start_version=h.start_version,
                    end_version=h.end_version,
                ),
                by_hand.get(h.seq, []),
            )
            for h in hands
        ]

    async def seal_cleartext_rows(self) -> int:
        """Seal what an older server stored in the clear (app/persist/seal_cleartext.py)."""
        return await seal_cleartext.seal_all(self._sessions, self._cipher)

    async def versions(self, room_id: str) -> list[int]:
        async with self._sessions() as session:
            return list(
                (
                    await session.scalars(
                        select(MoveLog.version)
                        .where(MoveLog.room_id == room_id)
                        .order_by(MoveLog.version)
                    )
                ).all()
            )

    async def purge(self, inactive_since: datetime) -> int:
        """Delete every room with no activity since `inactive_since`; returns how many."""
        async with self._sessions.begin() as session:
            ids = (
                await session.scalars(select(Room.id).where(Room.active_at < inactive_since))
            ).all()
            if not ids:
                return 0
            # Children first: SQLite only cascades with PRAGMA foreign_keys on.
            for table in (MoveLog, Hand, Seat):
                await session.execute(delete(table).where(table.room_id.in_(ids)))
            await session.execute(delete(Room).where(Room.id.in_(ids)))
            return len(ids)
