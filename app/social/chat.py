"""Chat at the table (docs/api.md v1.2 "Chat"): checked, rate limited, stored with the room,
sent to every socket of the room through the hub.

A message is no move: it changes no version and takes no room lock, only this module's own
per-room lock, which orders the ids it hands out in this process; across processes the
primary key (room, id) makes the second writer of an id try again with the next.
Nothing here logs: a message's text must never reach a log line (docs/api.md). The store
keeps it sealed (app/persist/social_sql.py, bound to its room and id), so neither a
database dump nor a driver that logs its statements' parameters (aiosqlite at DEBUG) shows
it.
"""

from __future__ import annotations

import asyncio
import weakref
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.errors import AppError, Forbidden, InvalidText, RateLimited, Unauthorized
from app.persist.rows import ChatRow
from app.rooms.service import RoomService
from app.social.options import RoomSocialRows
from rummy_wire.friends import ChatMessage as ChatEntry
from rummy_wire.textpolicy import Refused, check_text

MAX_CODE_POINTS = 200
RATE_MESSAGES = 10  # per seat
RATE_WINDOW = timedelta(seconds=10)
HISTORY = 100  # messages GET .../chat gives without `since`
ON_CONNECT = 30  # recent messages a socket is sent when it opens (its outbox holds 64)
ID_RETRIES = 5
QUIET_ROOMS_MAX = 100_000


def clean_text(text: str) -> str:
    """`text` trimmed, under the one text policy (rummy_wire/textpolicy.py). Raises InvalidText."""
    try:
        return check_text(text, MAX_CODE_POINTS, "a message")
    except Refused as exc:
        raise InvalidText(str(exc)) from None


def chat_frame(entry: ChatEntry) -> dict[str, Any]:
    return {"type": "chat", "message": entry.model_dump(mode="json")}


class Chat:
    def __init__(
        self,
        service: RoomService,
        rows: RoomSocialRows,
    ) -> None:
        self._service = service
        self._rows = rows
        # Rooms read to have no message, so that a connect storm reads no chat: any chat
        # frame of the room, from any process, takes it out (`_heard`).
        self._quiet: set[str] = set()
        self._heard_count = 0
        service.hub.watch(self._heard)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def post(self, room: str, seat: int | None, text: str) -> ChatEntry:
        """Store and send one message of `seat` (None: a spectator, refused).

        Raises Forbidden, InvalidText, RateLimited, RoomNotFound, RoomExpired."""
        snap = await self._service.snapshot(room)
        if seat is None:
            raise Forbidden("spectators may read the chat but not write in it")
        if not await self._rows.chat_on(room):
            raise Forbidden("chat is off in this room")
        text = clean_text(text)
        name = snap.seats[seat].name or f"Player {seat + 1}"
        lock = self._locks.get(room)
        if lock is None:
            lock = self._locks[room] = asyncio.Lock()
        async with lock:
            entry = await self._store(room, seat, name, text)
        await self._service.hub.publish(room, {"kind": "frame", "frame": chat_frame(entry)})
        return entry

    async def _store(self, room: str, seat: int, name: str, text: str) -> ChatEntry:
        store = self._service.store
        for _ in range(ID_RETRIES + 1):
            now = self._service.clock()
            count, oldest = await store.chat_since(room, seat, now - RATE_WINDOW)
            if count >= RATE_MESSAGES:
                raise RateLimited(
                    f"at most {RATE_MESSAGES} messages per seat every {RATE_WINDOW.seconds} s",
                    retry_after=_until_free(oldest, now),
                )
            number = await store.add_chat(room, seat, name, text, now)
            if number is not None:
                return ChatEntry(id=number, seat=seat, name=name, text=text, at=now)
            # Another process took that id: take the next one.
        raise RateLimited("the room's chat is busy: try again", retry_after=1.0)

    async def history(self, room: str, since: int | None, limit: int = HISTORY) -> list[ChatEntry]:
        """Messages after id `since`, oldest first; without it the last `limit`."""
        rows = await self._service.store.chat_messages(room, since, limit)
        return [_entry(r) for r in rows]

    async def readable(self, room: str, seat: int | None) -> None:
        """Raises unless a seat (or, where the room may be watched, anyone) may read."""
        snap = await self._service.snapshot(room)
        if seat is None and not snap.spectators:
            raise Unauthorized("this room has no spectators: its chat needs a seat token")

    async def on_connect(self, room: str) -> list[dict[str, Any]]:
        """The frames of the recent messages, for a socket that just opened."""
        if room in self._quiet:
            return []
        heard = self._heard_count
        try:
            entries = await self.history(room, None, ON_CONNECT)
        except (SQLAlchemyError, OSError, AppError):
            return []  # the table opens all the same; GET .../chat catches up

        if not entries and heard == self._heard_count:
            if len(self._quiet) >= QUIET_ROOMS_MAX:
                self._quiet.clear()
            self._quiet.add(room)
        return [chat_frame(e) for e in entries]

    def _heard(self, room: str, event: dict[str, Any]) -> None:
        frame = event.get("frame")
        if event.get("kind") == "frame" and isinstance(frame, dict) and frame.get("type") == "chat":
            self._heard_count += 1
            self._quiet.discard(room)

    async def from_socket(self, room: str, seat: int | None, frame: dict[str, Any]) -> None:
        """A `{"type": "chat", "text"}` frame; its refusal is the caller's error frame."""
        text = frame.get("text")
        if not isinstance(text, str):
            raise InvalidText("a chat frame needs its text as a string")
        await self.post(room, seat, text)


def _entry(row: ChatRow) -> ChatEntry:
    return ChatEntry(id=row.id, seat=row.seat, name=row.name, text=row.text, at=row.at)


def _until_free(oldest: datetime | None, now: datetime) -> float:
    """Seconds until the oldest message of the window leaves it (`Retry-After`)."""
    if oldest is None:
        return 1.0
    return max(1.0, (oldest + RATE_WINDOW - now).total_seconds())
