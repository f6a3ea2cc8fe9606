"""A room's social row (app/persist/social_tables.py `RoomSocial`): its chat option and its
rematch, read and written through the store, and how the room's public summary shows them."""

from __future__ import annotations

from app.persist import Store
from app.views import RoomSummary


class RoomSocialRows:
    def __init__(self, store: Store) -> None:
        self._store = store

    async def chat_on(self, room: str) -> bool:
        row = await self._store.social_row(room)
        return row is None or row[0]

    async def rematch(self, room: str) -> str | None:
        row = await self._store.social_row(room)
        return None if row is None else row[1]

    async def set_chat(self, room: str, on: bool) -> None:
        await self._store.set_chat(room, on)

    async def claim_rematch(self, room: str, new_room: str) -> str:
        """Record `new_room` as `room`'s rematch unless one is recorded already; returns the
        one recorded (the compare-and-set that lets exactly one rematch exist)."""
        return await self._store.claim_rematch(room, new_room)

    async def summary(self, summary: RoomSummary) -> RoomSummary:
        """`summary` with the room's chat option and rematch."""
        row = await self._store.social_row(summary.room)
        if row is None:
            return summary
        chat, rematch = row
        options = summary.options.model_copy(update={"chat": chat})
        return summary.model_copy(update={"options": options, "rematch": rematch})
