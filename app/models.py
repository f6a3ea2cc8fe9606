"""Tables: rooms (with the current state snapshot), seats, hands and the append-only move log.

Only a SHA-256 of each seat token is stored. The move log's unique (room, version) backs
up the compare-and-swap on `rooms.version`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import true

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer, default=0)
    # rules.GameState as JSON: the snapshot every move starts from.
    state: Mapped[str] = mapped_column(Text)
    # The hand now being played (rows in `hands` count from 0).
    hand_seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Last join, move or vote: the room expires RUMMY_ROOM_TTL_DAYS after it.
    active_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # Whether anyone with the room's id may watch it (docs/api.md v1.1 spectators).
    spectators: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The turn timer (docs/api.md v1.1 `turn_seconds`): NULL for none. `turn_deadline` is when
    # the turn now being played runs out, written with every move (app/turns/timers.py); every
    # process's scheduler looks for the rooms whose deadline passed, so it outlives a restart.
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn_deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    # Per seat, JSON: {"stand_in": [level or null], "timeouts": [int]} (app/turns/standin.py).
    # On the room's row so that the move's compare-and-swap writes it: a stand-in's start
    # and end are ordered with the moves across processes. NULL: nobody stood in yet.
    attendance: Mapped[str | None] = mapped_column(Text, nullable=True)


class Seat(Base):
    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # SHA-256 hex of the seat token; NULL while the seat is free or played by a bot.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    # Strategy or level name when the server plays this seat.
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Hand(Base):
    __tablename__ = "hands"

    room_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    # rules.hand_start(state) as JSON: holds the seed, so it is shown only once the hand ended.
    start: Mapped[str] = mapped_column(Text)
    start_version: Mapped[int] = mapped_column(Integer)
    end_version: Mapped[int | None] = mapped_column(Integer, nullable=True)


class MoveLog(Base):
    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("room_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(String(32), ForeignKey("rooms.id", ondelete="CASCADE"))
    # The room's version after this entry was applied: 1, 2, 3... with no gap.
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    hand_seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # "move" or "vote"
    move: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
