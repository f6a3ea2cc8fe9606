"""The Redis channels one server process listens on: its own rooms', not every room's.

A process subscribes to `rummy:room:<id>` for the rooms it has a socket in, not to
`rummy:room:*`: parsing every event of the cluster would cost each process about a core at
100,000 tables, spent on news of rooms it has no socket in. It subscribes (`want`) when the
room's first socket here joins its fan-out; a seat's socket waits for the subscription with
`ready`, so no event between its first view's read and the subscription is missed.
`reconcile` (on the hub's heartbeat) unsubscribes the rooms whose last socket here closed,
and the hub drops their cached snapshots, which no event would keep current
(app/hub/redis.py). With room affinity at the proxy (deploy/haproxy.cfg) a room's requests
come where its sockets are, so a process hears only the rooms whose players it serves. A
control channel of its own keeps the subscription connection open while it has no room.

Events are hints: one missed while a subscription was being made is found by the heal
(app/rooms/healing.py) and the catch-up (app/api/catchup.py) within an interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from redis.exceptions import RedisError

log = logging.getLogger("rummy.room_channels")

OnMessage = Callable[[str, str], None]  # (room, data)
SUBSCRIBE_WAIT_SECONDS = 2.0  # a seat's socket waits this long at most for its subscription


class RoomChannels:
    def __init__(self, redis: Any, prefix: str, control: str, on_message: OnMessage) -> None:
        self._redis = redis
        self._prefix = prefix
        self._control = control
        self._on_message = on_message
        self._wanted: set[str] = set()
        self._active: set[str] = set()  # subscribed, as Redis confirmed
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._pubsub: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    def listening(self, room: str) -> bool:
        return room in self._active

    def want(self, room: str) -> None:
        """Subscribe to `room` unless already (or on the way)."""
        if room in self._wanted:
            return
        self._wanted.add(room)
        self._send("subscribe", [room])

    async def ready(self, room: str) -> None:
        """`want` and wait until Redis confirms (at most `SUBSCRIBE_WAIT_SECONDS`: an event
        missed meanwhile is healed, a socket must not hang on Redis)."""
        self.want(room)
        if room in self._active or self._pubsub is None:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(room, []).append(future)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(future), SUBSCRIBE_WAIT_SECONDS)

    def reconcile(self, rooms: Iterable[str]) -> set[str]:
        """Listen to exactly `rooms` (and whatever `want` asked since); returns the rooms
        dropped."""
        keep = set(rooms)
        drop = self._wanted - keep
        add = keep - self._wanted
        self._wanted = (self._wanted & keep) | add
        if add:
            self._send("subscribe", sorted(add))
        if drop:
            self._send("unsubscribe", sorted(drop))
        return drop

    def _send(self, command: str, rooms: list[str]) -> None:
        pubsub = self._pubsub
        if pubsub is None:
            return  # not connected: `run` subscribes to every wanted room when it is
        channels = [self._prefix + room for room in rooms]
        task = asyncio.create_task(self._command(pubsub, command, channels))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _command(self, pubsub: Any, command: str, channels: list[str]) -> None:
        try:
            await getattr(pubsub, command)(*channels)
        except (RedisError, OSError):
            log.warning("%s on Redis failed; the listener reconnects", command)

    async def run(self, on_ready: Callable[[], Any]) -> None:
        """Listen until the connection is lost (raises); `on_ready` runs once subscribed."""
        pubsub = self._redis.pubsub()
        try:
            channels = [self._prefix + room for room in sorted(self._wanted)]
            await pubsub.subscribe(self._control, *channels)
            self._pubsub = pubsub
            await on_ready()
            async for message in pubsub.listen():
                self._handle(message)
        finally:
            self._pubsub = None
            self._active.clear()
            with contextlib.suppress(RedisError, OSError):
                await pubsub.aclose()

    def _handle(self, message: dict[str, Any]) -> None:
        kind, channel = message.get("type"), str(message.get("channel"))
        if not channel.startswith(self._prefix):
            return  # the control channel
        room = channel.removeprefix(self._prefix)
        if kind == "message":
            self._on_message(room, str(message["data"]))
        elif kind == "subscribe":
            self._active.add(room)
            for future in self._waiters.pop(room, ()):
                if not future.done():
                    future.set_result(None)
        elif kind == "unsubscribe":
            self._active.discard(room)
