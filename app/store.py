"""Persistence of rooms: load a snapshot, create, take a seat, and commit one move or vote.

`commit` is the compare-and-swap that serializes writers across processes:
UPDATE rooms SET version = v + 1 ... WHERE id = :room AND version = :v, plus one row in the
append-only move log, in one transaction. Zero rows updated means someone else won.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, Protocol

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import rules
from app.errors import RoomNotFound, StaleVersion
from app.models import Hand, MoveLog, Room, Seat


def as_utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str | None
    taken: bool
    bot: str | None


@dataclass(frozen=True)
class Snapshot:
    """A room as loaded: its settings, seats, version and current game state."""

    id: str
    variant: str
    players: int
    mode: str
    version: int
    hand_seq: int
    active_at: datetime
    state: rules.GameState
    seats: tuple[SeatRow, ...]

    @property
    def is_waiting(self) -> bool:
        """An online room deals at creation but plays only once every seat is taken."""
        return any(not s.taken for s in self.seats)

    @property
    def bot_seats(self) -> dict[int, str]:
        return {s.seat: s.bot for s in self.seats if s.bot}


@dataclass(frozen=True)
class NewSeat:
    name: str | None
    token_hash: str | None
    bot: str | None


@dataclass(frozen=True)
class Commit:
    """One accepted move or vote, ready to persist."""

    seat: int
    kind: str  # "move" | "vote"
    payload: dict[str, Any]
    state: rules.GameState
    # The hand that was being played ended (or was abandoned) with this entry.
    hand_ended: bool = False
    # A new hand was dealt by this entry: its rules.hand_start(state) as JSON.
    new_hand_start: str | None = None

    @cached_property
    def state_json(self) -> str:
        """The state as stored; serialized once for the database and the hub's event."""
        return self.state.model_dump_json()

    @cached_property
    def payload_json(self) -> str:
        return json.dumps(self.payload)


class BatchWriter(Protocol):
    """Writes group-commit batches in one hop instead of statement by statement through the
    engine (app/writers.py picks one per database)."""

    async def commit_many(
        self, batch: Sequence[tuple[Snapshot, Commit, datetime]]
    ) -> list[int | None]: ...

    async def close(self) -> None: ...


def cas_params(room: Snapshot, entry: Commit, at: Any) -> dict[str, Any]:
    """The bound values of `BATCH_SQL.cas` for one entry (`at`: its time as the driver
    takes it)."""
    new_hand = entry.new_hand_start is not None
    return {
        "b_id": room.id,
        "b_expected": room.version,
        "b_version": room.version + 1,
        "b_state": entry.state_json,
        "b_at": at,
        "b_hand_seq": room.hand_seq + 1 if new_hand else room.hand_seq,
    }


@dataclass
class BatchRows:
    """What the entries that won their CAS write besides their room: one log row each,
    and the hands they ended or dealt."""

    logs: list[dict[str, Any]] = field(default_factory=list)
    ended: list[dict[str, Any]] = field(default_factory=list)
    new_hands: list[dict[str, Any]] = field(default_factory=list)

    def add(self, room: Snapshot, entry: Commit, at: Any) -> None:
        new_version = room.version + 1
        self.logs.append(
            {
                "room_id": room.id,
                "version": new_version,
                "seat": entry.seat,
                "hand_seq": room.hand_seq,
                "kind": entry.kind,
                "move": entry.payload_json,
                "created_at": at,
            }
        )
        if entry.hand_ended:
            self.ended.append({"b_room": room.id, "b_seq": room.hand_seq, "b_end": new_version})
        if entry.new_hand_start is not None:
            self.new_hands.append(
                {
                    "room_id": room.id,
                    "seq": room.hand_seq + 1,
                    "start": entry.new_hand_start,
                    "start_version": new_version,
                    "end_version": None,
                }
            )


def batch_order(batch: Sequence[tuple[Snapshot, Commit, datetime]]) -> list[int]:
    """The batch's indices in room id order: two processes' batches then never wait on
    each other in a cycle."""
    return sorted(range(len(batch)), key=lambda i: batch[i][0].id)


class Store:
    """SQLAlchemy implementation; every method runs in its own short transaction."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], writer: BatchWriter | None = None
    ) -> None:
        self._sessions = sessions
        self._writer = writer

    async def close(self) -> None:
        if self._writer is not None:
            await self._writer.close()

    async def ping(self) -> None:
        async with self._sessions() as session:
            await session.execute(select(1))

    async def create(
        self,
        room_id: str,
        *,
        variant: str,
        players: int,
        mode: str,
        state: rules.GameState,
        seats: list[NewSeat],
        now: datetime,
    ) -> None:
        async with self._sessions.begin() as session:
            session.add(
                Room(
                    id=room_id,
                    variant=variant,
                    players=players,
                    mode=mode,
                    version=0,
                    state=state.model_dump_json(),
                    hand_seq=0,
                    created_at=now,
                    active_at=now,
                )
            )
            await session.flush()
            session.add_all(
                Seat(room_id=room_id, seat=i, name=s.name, token_hash=s.token_hash, bot=s.bot)
                for i, s in enumerate(seats)
            )
            session.add(
                Hand(
                    room_id=room_id,
                    seq=0,
                    start=rules.hand_start(state).model_dump_json(),
                    start_version=0,
                )
            )

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
                state=rules.GameState.model_validate_json(room.state),
                seats=tuple(
                    SeatRow(
                        seat=r.seat,
                        name=r.name,
                        taken=r.token_hash is not None or r.bot is not None,
                        bot=r.bot,
                    )
                    for r in rows
                ),
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
        self, room_id: str, *, name: str | None, token_hash: str, now: datetime
    ) -> int | None:
        """Claim the lowest free seat; None when the room is full.

        Each claim is its own conditional UPDATE, so two joiners (even in two processes)
        never get the same seat: the loser sees 0 rows and tries the next one.
        """
        async with self._sessions.begin() as session:
            free = (
                await session.scalars(
                    select(Seat.seat)
                    .where(Seat.room_id == room_id, Seat.token_hash.is_(None), Seat.bot.is_(None))
                    .order_by(Seat.seat)
                )
            ).all()
        for seat in free:
            async with self._sessions.begin() as session:
                result = await session.execute(
                    update(Seat)
                    .where(
                        Seat.room_id == room_id,
                        Seat.seat == seat,
                        Seat.token_hash.is_(None),
                        Seat.bot.is_(None),
                    )
                    .values(name=name or f"Player {seat + 1}", token_hash=token_hash)
                )
                if result.rowcount == 1:  # type: ignore[attr-defined]
                    await session.execute(
                        update(Room).where(Room.id == room_id).values(active_at=now)
                    )
                    return seat
        return None

    async def commit(self, room: Snapshot, entry: Commit, now: datetime) -> int:
        """Persist one accepted move or vote made on `room`; returns the new version.

        Raises:
            StaleVersion: the room is no longer at `expected_version` (another writer won).
        """
        room_id, expected_version, hand_seq = room.id, room.version, room.hand_seq
        new_version = expected_version + 1
        try:
            async with self._sessions.begin() as session:
                values: dict[str, Any] = {
                    "state": entry.state_json,
                    "version": new_version,
                    "active_at": now,
                }
                if entry.new_hand_start is not None:
                    values["hand_seq"] = hand_seq + 1
                result = await session.execute(
                    update(Room)
                    .where(Room.id == room_id, Room.version == expected_version)
                    .values(**values)
                )
                if result.rowcount != 1:  # type: ignore[attr-defined]
                    raise StaleVersion("the room moved on")
                session.add(
                    MoveLog(
                        room_id=room_id,
                        version=new_version,
                        seat=entry.seat,
                        hand_seq=hand_seq,
                        kind=entry.kind,
                        move=entry.payload_json,
                        created_at=now,
                    )
                )
                if entry.hand_ended:
                    await session.execute(
                        update(Hand)
                        .where(
                            Hand.room_id == room_id,
                            Hand.seq == hand_seq,
                            Hand.end_version.is_(None),
                        )
                        .values(end_version=new_version)
                    )
                if entry.new_hand_start is not None:
                    session.add(
                        Hand(
                            room_id=room_id,
                            seq=hand_seq + 1,
                            start=entry.new_hand_start,
                            start_version=new_version,
                        )
                    )
        except IntegrityError:
            # The unique (room, version) in the log caught a writer the UPDATE did not.
            raise StaleVersion("the room moved on") from None
        return new_version

    async def commit_many(
        self, batch: Sequence[tuple[Snapshot, Commit, datetime]]
    ) -> list[int | None]:
        """Persist several rooms' entries in one transaction (group commit, app/committer.py).

        Each entry keeps its own compare-and-swap: its result is the new version, or None
        when another writer won that room (nothing of that entry is written). Rooms are
        updated in id order, so two processes' batches never wait on each other in a cycle.
        The statements are built once (`BATCH_SQL`); each entry only binds values.
        Raises what the database raises; the caller then commits the entries one by one.
        """
        if self._writer is not None:
            return await self._writer.commit_many(batch)
        results: list[int | None] = [None] * len(batch)
        rows = BatchRows()
        sql = BATCH_SQL
        async with self._sessions.begin() as session:
            conn = await session.connection()
            for i in batch_order(batch):
                room, entry, now = batch[i]
                result = await conn.execute(sql.cas, cas_params(room, entry, now))
                if result.rowcount == 1:
                    results[i] = room.version + 1
                    rows.add(room, entry, now)
            if rows.logs:
                await conn.execute(sql.log, rows.logs)
            for params in rows.ended:
                await conn.execute(sql.end_hand, params)
            if rows.new_hands:
                await conn.execute(sql.new_hand, rows.new_hands)
        return results

    async def finished_hands(self, room_id: str) -> list[tuple[Hand, list[MoveLog]]]:
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
        by_hand: dict[int, list[MoveLog]] = {}
        for m in moves:
            by_hand.setdefault(m.hand_seq, []).append(m)
        return [(h, by_hand.get(h.seq, [])) for h in hands]

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


class _BatchSQL:
    """The group commit's statements, built once: building a statement costs more than
    running it."""

    def __init__(self) -> None:
        self.cas = (
            update(Room)
            .where(Room.id == bindparam("b_id"), Room.version == bindparam("b_expected"))
            .values(
                version=bindparam("b_version"),
                state=bindparam("b_state"),
                active_at=bindparam("b_at"),
                hand_seq=bindparam("b_hand_seq"),
            )
        )
        self.log = insert(MoveLog)
        self.end_hand = (
            update(Hand)
            .where(
                Hand.room_id == bindparam("b_room"),
                Hand.seq == bindparam("b_seq"),
                Hand.end_version.is_(None),
            )
            .values(end_version=bindparam("b_end"))
        )
        self.new_hand = insert(Hand)


BATCH_SQL = _BatchSQL()
