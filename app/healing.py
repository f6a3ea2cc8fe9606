"""Rooms heal on their own when an event is lost between processes.

A process can commit a move and die before it publishes the event, and a Redis publish can
fail: then the other processes keep the room's old snapshot and their sockets wait for
news that never comes. One task per process (`heal_forever`) reads, every few seconds and
in one query per `CHUNK` rooms, the mark (version, seats taken) of every room it has
cached or has sockets in, and compares it with what it holds:
- a room the database has further along is read again; the read tells its sockets here
  (`SnapshotCache`'s `on_newer`), so they get the fresh view and its bots play on;
- a room the database no longer has was purged: its sockets read it and close (4410).
A missed event costs at most one interval of delay.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import create_sessionmaker
from app.models import Room, Seat
from app.snapshots import Mark

if TYPE_CHECKING:
    from app.service import RoomService

log = logging.getLogger("rummy.healing")

CHUNK = 500  # rooms per query: well inside any driver's limit on bound parameters


def _marks_query() -> Select[Any]:
    taken = (
        select(func.count())
        .where(Seat.room_id == Room.id, or_(Seat.token_hash.is_not(None), Seat.bot.is_not(None)))
        .correlate(Room)
        .scalar_subquery()
    )
    return select(Room.id, Room.version, taken).where(Room.id.in_(bindparam("ids", expanding=True)))


class RoomMarks:
    """Reads rooms' marks: a cheap check of a cached snapshot against the database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._sessions = create_sessionmaker(engine)
        self._query = _marks_query()  # built once: building costs more than running it

    async def of(self, room: str) -> Mark | None:
        """The room's mark, None when the database has no such room."""
        return (await self.many([room])).get(room)

    async def many(self, rooms: Iterable[str]) -> dict[str, Mark]:
        ids = sorted(rooms)
        found: dict[str, Mark] = {}
        async with self._sessions() as session:
            for start in range(0, len(ids), CHUNK):
                rows = await session.execute(self._query, {"ids": ids[start : start + CHUNK]})
                for row in rows:
                    found[str(row[0])] = (int(row[1]), int(row[2]))
        return found


async def heal_once(service: RoomService, marks: RoomMarks) -> int:
    """Compare this process's rooms with the database once; returns how many changed."""
    cached = service.snapshots.marks()
    rooms = cached.keys() | service.hub.rooms()
    if not rooms:
        return 0
    found = await marks.many(rooms)
    changed = 0
    for room in rooms:
        mark = found.get(room)
        held = service.snapshots.mark(room)  # now: a move here may have landed during the query
        if mark is not None and held is not None and held[0] >= mark[0] and held[1] >= mark[1]:
            continue
        changed += 1
        if mark is None:
            # Only the purge deletes rooms: the sockets read it, find nothing and close.
            service.snapshots.forget(room)
            service.hub.notify(room, {"kind": "state"})
        else:
            await service.refresh(room)
            if room not in cached:
                # Sockets whose room fell out of the cache: no read knew what they saw.
                service.hub.notify(room, {"kind": "state", "version": mark[0]})
    return changed


async def heal_forever(service: RoomService, marks: RoomMarks, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            changed = await heal_once(service, marks)
            if changed:
                log.info("%d rooms were behind the database; read them again", changed)
        except Exception:  # the database may be briefly away; try again next round
            log.exception("checking cached rooms against the database failed")
