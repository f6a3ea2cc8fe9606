"""No frozen socket: a socket that missed a view is sent the room's newest again.

The heal (app/rooms/healing.py) brings this process's cached rooms up to the database, and
a newer room wakes its sockets. That leaves one hole: a socket that missed a view while the
cache itself was current (seen in a kill -9 run: a seat never got the new hand in which it
was its turn, though both processes had that version cached) would wait until its client
reconnected. So each socket's outbox remembers the version of the newest view it was handed
(`Outbox.sent_version`), and every heal interval `catch_up` compares it with the cached
room's: any socket behind is sent the current view (the room's fan-out makes it once per
seat, as for a move). On a quiet process it is a loop over the sockets and nothing else.
"""

from __future__ import annotations

import asyncio
import logging

from app.api.fanout import Fanout
from app.rooms.service import RoomService

log = logging.getLogger("rummy.catchup")


def catch_up(fanout: Fanout, service: RoomService) -> int:
    """Send the current view to every socket here that is behind its cached room; returns
    how many were."""
    late = 0
    for audience in fanout.audiences():
        snap = service.cached(audience.room)
        if snap is None:
            continue  # not cached: the heal reads it and wakes its sockets
        for outbox in audience.behind(snap.version):
            audience.want(outbox, state=True)
            late += 1
    return late


async def catch_up_forever(fanout: Fanout, service: RoomService, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            late = catch_up(fanout, service)
            if late:
                log.warning("%d sockets had missed a view; sent them the current one", late)
        except Exception:  # never let one bad round stop the next
            log.exception("catching sockets up failed")
