"""The friends' rows in the SQL store: what `SqlStore` reads and writes for chat, rematch,
challenges and a room's options (`Store`'s social methods, app/persist/store.py).

Writes are the statements of app/persist/social_writes.py, run by name: on SQLite by the
writer process that orders every write, elsewhere through the engine. A chat message's text
is sealed here and opened here (app/persist/sealing.py, bound to its room and id), so
nothing above the store sees a sealed value.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.persist.rows import ChallengePlan, ChatRow, EntryRow
from app.persist.sealing import StateCipher
from app.persist.social_tables import (
    Challenge,
    ChallengeEntry,
    ChallengeInvite,
    ChatMessage,
    RoomSocial,
)
from app.persist.social_writes import writes_for
from app.persist.sqlite_setup import SetupOp, stamp

Step = tuple[str, dict[str, Any]]


def _utc(at: datetime) -> datetime:
    # SQLite gives back naive datetimes; every time the server writes is UTC.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _chat_context(room: str, number: int) -> str:
    return f"chat_messages.text:{room}:{number}"


class SocialRows:
    """`SqlStore`'s social methods (it holds the sessions, the cipher and SQLite's setup)."""

    _sessions: async_sessionmaker[AsyncSession]
    _cipher: StateCipher
    _setup: Callable[[SetupOp], Awaitable[Any]] | None

    async def _write(self, *steps: Step) -> list[int]:
        """Run the named writes in one transaction; each one's row count."""
        if self._setup is not None:
            op = ("run", [(f"social_{name}", _for_sqlite(params)) for name, params in steps])
            counts: list[int] = await self._setup(op)
            return counts
        async with self._sessions.begin() as session:
            conn = await session.connection()
            writes = writes_for(conn.dialect.name)
            return [(await conn.execute(writes[n], p)).rowcount for n, p in steps]

    # -- a room's options and its rematch ---------------------------------------------------

    async def social_row(self, room: str) -> tuple[bool, str | None] | None:
        """The room's chat option and rematch; None: no row (chat on, no rematch)."""
        async with self._sessions() as session:
            row = await session.get(RoomSocial, room)
        return None if row is None else (row.chat, row.rematch)

    async def set_chat(self, room: str, on: bool) -> None:
        await self._write(
            ("ensure_social", {"room": room}), ("set_chat", {"room": room, "chat": on})
        )

    async def claim_rematch(self, room: str, new_room: str) -> str:
        """Record `new_room` as `room`'s rematch unless one is recorded already; returns the
        one recorded."""
        ensure = ("ensure_social", {"room": room})
        await self._write(ensure, ("claim_rematch", {"room": room, "new_room": new_room}))
        found = await self.social_row(room)
        assert found is not None and found[1] is not None
        return found[1]

    async def delete_room(self, room: str) -> None:
        """A room and every row of it (a rematch's room that lost its race)."""
        await self._write(("delete_room", {"room": room}))

    # -- chat -------------------------------------------------------------------------------

    async def chat_since(
        self, room: str, seat: int, since: datetime
    ) -> tuple[int, datetime | None]:
        """How many messages `seat` wrote in `room` after `since`, and the oldest one's time."""
        query = select(func.count(), func.min(ChatMessage.at)).where(
            ChatMessage.room_id == room, ChatMessage.seat == seat, ChatMessage.at > since
        )
        async with self._sessions() as session:
            count, oldest = (await session.execute(query)).one()
        return int(count or 0), _utc(oldest) if oldest is not None else None

    async def add_chat(
        self, room: str, seat: int, name: str, text: str, at: datetime
    ) -> int | None:
        """Store a message under the room's next id; returns it, or None when another
        process took that id first (the caller tries again)."""
        async with self._sessions() as session:
            last = await session.scalar(
                select(func.max(ChatMessage.id)).where(ChatMessage.room_id == room)
            )
        number = (last or 0) + 1
        sealed = self._cipher.seal(_chat_context(room, number), text)
        row = {"room": room, "id": number, "seat": seat, "name": name, "text": sealed, "at": at}
        try:
            await self._write(("add_chat", row))
        except (IntegrityError, sqlite3.IntegrityError):
            return None
        return number

    async def chat_messages(self, room: str, since: int | None, limit: int) -> list[ChatRow]:
        """Messages after id `since` (at most 1000), else the last `limit`; oldest first."""
        query = select(ChatMessage).where(ChatMessage.room_id == room)
        if since is not None:
            query = query.where(ChatMessage.id > since).order_by(ChatMessage.id).limit(1000)
        else:
            query = query.order_by(ChatMessage.id.desc()).limit(limit)
        async with self._sessions() as session:
            rows = sorted((await session.scalars(query)).all(), key=lambda r: r.id)
        return [
            ChatRow(
                id=r.id,
                seat=r.seat,
                name=r.name,
                text=self._cipher.open(_chat_context(room, r.id), r.text),
                at=_utc(r.at),
            )
            for r in rows
        ]

    # -- challenges -------------------------------------------------------------------------

    async def add_challenge(self, plan: ChallengePlan) -> None:
        """A challenge with its challenger's entry (seq 0) and its first invitation, in one
        transaction."""
        c, now = plan.challenge, plan.now
        await self._write(
            ("add_challenge", {"challenge": c, "room": plan.room, "variant": plan.variant,
                               "players": plan.players, "bots": plan.bots, "now": now}),
            ("add_entry", {"challenge": c, "room": plan.room, "label": plan.name,
                           "invitation": None}),
            ("add_invite", {"challenge": c, "code": plan.invite_hash,
                            "label": plan.invite_name, "now": now, "at_most": 1}),
        )  # fmt: skip

    async def challenge(self, challenge: str) -> Challenge | None:
        async with self._sessions() as session:
            return await session.get(Challenge, challenge)

    async def add_entry(
        self, challenge: str, room: str, name: str, invite_name: str | None
    ) -> None:
        """The challenge's next entry, numbered after those before it."""
        row = {"challenge": challenge, "room": room, "label": name, "invitation": invite_name}
        await self._write(("add_entry", row))

    async def entries(self, challenge: str) -> list[EntryRow]:
        query = (
            select(ChallengeEntry)
            .where(ChallengeEntry.challenge_id == challenge)
            .order_by(ChallengeEntry.seq)
        )
        async with self._sessions() as session:
            rows = (await session.scalars(query)).all()
        return [EntryRow(room=r.room_id, name=r.name, invite_name=r.invite_name) for r in rows]

    async def add_invite(
        self, challenge: str, code_hash: str, name: str, now: datetime, at_most: int
    ) -> bool:
        """A new invitation; False (nothing written) when the challenge has `at_most`."""
        row = {"challenge": challenge, "code": code_hash, "label": name, "now": now}
        (added,) = await self._write(("add_invite", {**row, "at_most": at_most}))
        return added == 1

    async def invite(self, code_hash: str) -> tuple[str, str] | None:
        """The challenge and name of an invitation."""
        async with self._sessions() as session:
            found = await session.get(ChallengeInvite, code_hash)
        return None if found is None else (found.challenge_id, found.name)

    async def spend_invite(self, challenge: str, code_hash: str, now: datetime) -> bool:
        """Spend an unspent invitation; False when it was spent already (or is not there)."""
        row = {"challenge": challenge, "code": code_hash, "now": now}
        (spent,) = await self._write(("spend_invite", row))
        return spent == 1

    async def unspend_invite(self, code_hash: str) -> None:
        await self._write(("unspend_invite", {"code": code_hash}))


def _for_sqlite(params: dict[str, Any]) -> dict[str, Any]:
    """`params` as the writer process takes them (marshal's types, SQLite's datetimes)."""
    return {
        k: stamp(v) if isinstance(v, datetime) else int(v) if isinstance(v, bool) else v
        for k, v in params.items()
    }
