"""A room's social row (app/persist/social_tables.py `RoomSocial`): its chat option and its
rematch, and how the room's public summary shows them."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.persist.social_tables import RoomSocial
from app.views import RoomSummary


class RoomSocialRows:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def _row(self, room: str) -> RoomSocial | None:
        async with self._sessions() as session:
            return await session.get(RoomSocial, room)

    async def chat_on(self, room: str) -> bool:
        row = await self._row(room)
        return row is None or row.chat

    async def rematch(self, room: str) -> str | None:
        row = await self._row(room)
        return None if row is None else row.rematch

    async def set_chat(self, room: str, on: bool) -> None:
        async with self._sessions.begin() as session:
            await self._ensure(session, room)
            await session.execute(
                update(RoomSocial).where(RoomSocial.room_id == room).values(chat=on)
            )

    async def claim_rematch(self, room: str, new_room: str) -> str:
        """Record `new_room` as `room`'s rematch unless one is recorded already; returns the
        one recorded (the compare-and-set that lets exactly one rematch exist)."""
        async with self._sessions.begin() as session:
            await self._ensure(session, room)
            await session.execute(
                update(RoomSocial)
                .where(RoomSocial.room_id == room, RoomSocial.rematch.is_(None))
                .values(rematch=new_room)
            )
            winner = await session.scalar(
                select(RoomSocial.rematch).where(RoomSocial.room_id == room)
            )
        assert winner is not None
        return winner

    @staticmethod
    async def _ensure(session: AsyncSession, room: str) -> None:
        """The room's row, made if missing (by whichever writer comes first)."""
        dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
        insert = pg_insert if dialect == "postgresql" else sqlite_insert
        await session.execute(
            insert(RoomSocial).values(room_id=room, chat=True).on_conflict_do_nothing()
        )

    async def summary(self, summary: RoomSummary) -> RoomSummary:
        """`summary` with the room's chat option and rematch."""
        row = await self._row(summary.room)
        if row is None:
            return summary
        options = summary.options.model_copy(update={"chat": row.chat})
        return summary.model_copy(update={"options": options, "rematch": row.rematch})
