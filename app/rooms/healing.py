"""Rooms heal on their own when an event is lost between processes.

A process can commit a move and die before it publishes the event, and a Redis publish can
fail: then the other processes keep the room's old snapshot and their sockets wait for
news that never comes. One task per process (`heal_forever`) reads, every few seconds and
in one query per 500 rooms (`Store.marks`), the mark (version, seats taken) of every room it has
cached or has sockets in, and compares it with what it holds:
- a room the database has further along is read again; the read tells its sockets here
  (`SnapshotCache`'s `on_newer`), so they get the fresh view and its bots play on;
- a room the database no longer has was purged: its sockets read it and close (4410).
A missed event costs at most one interval of delay.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rooms.reads import RoomReads

log = logging.getLogger("rummy.healing")


async def heal_once(service: RoomReads) -> int:
    """Compare this process's rooms with the database once; returns how many changed."""
    cached = service.snapshots.marks()
    rooms = cached.keys() | service.hub.rooms()
    if not rooms:
        return 0
    found = await service.store.marks(rooms)
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


async def heal_forever(service: RoomReads, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            changed = await heal_once(service)
            if changed:
                log.info("%d rooms were behind the database; read them again", changed)
        except Exception:  # the database may be briefly away; try again next round
            log.exception("checking cached rooms against the database failed")
