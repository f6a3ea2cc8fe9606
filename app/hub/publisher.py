"""Room events out to Redis in batches: what gathered while the event loop was busy goes as
one pipeline.

`RedisHub.publish` does not wait for Redis on the move's path: a PUBLISH of its own would
cost every event a pool checkout, a write and a read. Events wait in one queue (one queue,
so each room's events keep their order) and one task sends whatever has gathered as a
single pipeline: one checkout, one write and one read for all of them. A batch that fails
is logged and dropped: events are hints, and the heal round (app/rooms/healing.py) and
each socket's catch-up (app/api/catchup.py) bring the other processes level.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from redis.exceptions import RedisError

from app.metrics import M

log = logging.getLogger("rummy.redis_hub")

MAX_BATCH = 256  # PUBLISHes in one pipeline
MAX_WAITING = 50_000  # past this (Redis away for long) the oldest are dropped


class Publisher:
    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._waiting: deque[tuple[str, str]] = deque(maxlen=MAX_WAITING)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._dropping = False  # logged once per spell of dropping, not once per event

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="redis-hub-publish")

    def put(self, channel: str, message: str) -> None:
        if len(self._waiting) == MAX_WAITING:
            M.hub_dropped.inc()  # the oldest, pushed out by this one
            if not self._dropping:
                self._dropping = True
                log.warning("Redis is behind: dropping the oldest waiting events")
        M.hub_published.inc()
        self._waiting.append((channel, message))
        self._wake.set()

    async def stop(self) -> None:
        """Send what is waiting (a graceful stop's last presence events), then stop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(RedisError, OSError):
            await self._send_waiting()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._send_waiting()
            except (RedisError, OSError):
                log.exception("publishing to Redis failed; other processes miss some events")

    async def _send_waiting(self) -> None:
        while self._waiting:
            batch = [self._waiting.popleft() for _ in range(min(len(self._waiting), MAX_BATCH))]
            pipe = self._redis.pipeline(transaction=False)
            for channel, message in batch:
                pipe.publish(channel, message)
            try:
                await pipe.execute()
            except (RedisError, OSError):
                M.hub_dropped.inc(len(batch))
                raise
        self._dropping = False
