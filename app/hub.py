"""Room hub: per-room locks, websocket subscribers and presence.

`Hub` is in-process: it serves one server process. Its interface (lock, subscribe,
publish, connect/disconnect, presence) is what routes use, so `RedisHub` can carry events
and presence across processes (RUMMY_REDIS_URL) without touching them. The lock only
orders writers inside one process; across processes the compare-and-swap on
`rooms.version` in the database is what lets exactly one writer win.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import weakref
from collections import defaultdict
from collections.abc import Callable
from typing import Any

log = logging.getLogger("rummy.hub")

Event = dict[str, Any]  # {"kind": "state"} or {"kind": "presence"}
Listener = Callable[[Event], None]


class Hub:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        self._connections: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))

    async def start(self) -> None:
        """Nothing to connect in-process."""

    async def stop(self) -> None:
        """Nothing to close in-process."""

    def lock(self, room: str) -> asyncio.Lock:
        """The lock that orders moves on `room` inside this process."""
        lock = self._locks.get(room)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[room] = lock
        return lock

    def subscribe(self, room: str, listener: Listener) -> Callable[[], None]:
        """Call `listener(event)` for every event of `room`; returns the unsubscribe."""
        self._listeners[room].add(listener)

        def unsubscribe() -> None:
            listeners = self._listeners.get(room)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._listeners[room]

        return unsubscribe

    async def publish(self, room: str, event: Event) -> None:
        self._deliver(room, event)

    def _deliver(self, room: str, event: Event) -> None:
        for listener in list(self._listeners.get(room, ())):
            listener(event)

    async def connect(self, room: str, seat: int) -> None:
        self._connections[room][seat] += 1
        await self.publish(room, {"kind": "presence"})

    async def disconnect(self, room: str, seat: int) -> None:
        seats = self._connections.get(room)
        if seats is not None:
            seats[seat] -= 1
            if seats[seat] <= 0:
                del seats[seat]
            if not seats:
                del self._connections[room]
        await self.publish(room, {"kind": "presence"})

    async def presence(self, room: str) -> set[int]:
        """Seats with at least one open connection."""
        return {seat for seat, n in self._connections.get(room, {}).items() if n > 0}


class RedisHub(Hub):
    """Fan-out and presence through Redis, for several server processes on one database.

    Events go to channel `rummy:room:<id>`; every process listens on `rummy:room:*` and
    delivers to its own websockets. Presence is a Redis hash per room whose fields are
    `<seat>:<process>` connection counts, so one process never overwrites another's.
    """

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis = redis.from_url(url, decode_responses=True)
        self._process = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._redis.aclose()

    async def _listen(self) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe("rummy:room:*")
        self._ready.set()
        try:
            async for message in pubsub.listen():
                if message.get("type") != "pmessage":
                    continue
                room = str(message["channel"]).removeprefix("rummy:room:")
                try:
                    self._deliver(room, json.loads(message["data"]))
                except Exception:  # a bad frame must not stop the fan-out
                    log.exception("bad hub message")
        finally:
            await pubsub.aclose()

    async def publish(self, room: str, event: Event) -> None:
        await self._redis.publish(f"rummy:room:{room}", json.dumps(event))

    async def connect(self, room: str, seat: int) -> None:
        key = f"rummy:presence:{room}"
        await self._redis.hincrby(key, f"{seat}:{self._process}", 1)
        # Counts of a process that died are forgotten a day after the room's last connect.
        await self._redis.expire(key, 86400)
        await self.publish(room, {"kind": "presence"})

    async def disconnect(self, room: str, seat: int) -> None:
        key = f"rummy:presence:{room}"
        left = await self._redis.hincrby(key, f"{seat}:{self._process}", -1)
        if left <= 0:
            await self._redis.hdel(key, f"{seat}:{self._process}")
        await self.publish(room, {"kind": "presence"})

    async def presence(self, room: str) -> set[int]:
        counts = await self._redis.hgetall(f"rummy:presence:{room}")
        return {int(field.split(":", 1)[0]) for field, n in counts.items() if int(n) > 0}


def create_hub(redis_url: str | None) -> Hub:
    return RedisHub(redis_url) if redis_url else Hub()
