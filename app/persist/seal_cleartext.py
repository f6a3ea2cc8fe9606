"""Rows an older server stored in the clear, sealed when a server starts.

Run at start, before serving: until then a legacy room's row (and its current hand's deal)
would still show the hand in progress. Each UPDATE is conditional on the plain value it
read, so a move another process writes meanwhile wins and is left alone. On SQLite the
file is then vacuumed, so the plain text does not linger in its free pages (PostgreSQL's
own vacuum reclaims the old row versions).
"""

from __future__ import annotations

import logging

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Hand, Room
from app.persist.sealing import PREFIX, StateCipher
from app.persist.writes import seal_hand

log = logging.getLogger("rummy.store")


async def seal_all(sessions: async_sessionmaker[AsyncSession], cipher: StateCipher) -> int:
    """Seal every state and deal stored in the clear; returns how many."""
    sealed = 0
    async with sessions.begin() as session:
        rooms = (
            await session.execute(
                select(Room.id, Room.state).where(Room.state.not_like(f"{PREFIX}%"))
            )
        ).all()
        for room_id, plain in rooms:
            result = await session.execute(
                update(Room)
                .where(Room.id == room_id, Room.state == plain)
                .values(state=cipher.seal(cipher.state_context(room_id), plain))
            )
            sealed += result.rowcount  # type: ignore[attr-defined]
        hands = (
            await session.execute(
                select(Hand.room_id, Hand.seq, Hand.start).where(Hand.start.not_like(f"{PREFIX}%"))
            )
        ).all()
        for room_id, seq, plain in hands:
            await session.execute(
                update(Hand)
                .where(Hand.room_id == room_id, Hand.seq == seq)
                .values(start=seal_hand(cipher, room_id, seq, plain))
            )
        sealed += len(hands)
    if sealed:
        log.info("sealed %d rows stored in the clear by an older server", sealed)
        async with sessions() as session:
            # VACUUM runs outside any transaction.
            autocommit = {"isolation_level": "AUTOCOMMIT"}
            conn = await session.connection(execution_options=autocommit)
            if conn.dialect.name == "sqlite":
                await conn.exec_driver_sql("VACUUM")
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return sealed
