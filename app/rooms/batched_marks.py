"""Rooms' marks read in batches: the asks that arrive while one read is out share the next.

A socket that connects checks its cached room against the database (`RoomService.current`),
so a storm of thousands of connects would be thousands of reads through a pool of five
connections: most would wait out the pool's timeout. Batched, they are a few reads of many
rooms each. Every ask is answered by a read that started after it was made, so no answer
predates the news it is there to catch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

from app.persist.rows import Mark

Reader = Callable[[Iterable[str]], Awaitable[dict[str, Mark]]]


class MarksBatcher:
    def __init__(self, read: Reader) -> None:
        self._read = read
        self._asks: dict[str, list[asyncio.Future[Mark | None]]] = {}
        self._task: asyncio.Task[None] | None = None

    async def mark(self, room: str) -> Mark | None:
        """`room`'s mark as the database has it now; None when it has no such room.

        Raises what the read raises (Unavailable when no connection was free in time)."""
        future: asyncio.Future[Mark | None] = asyncio.get_running_loop().create_future()
        self._asks.setdefault(room, []).append(future)
        if self._task is None:
            self._task = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._asks:
                asks, self._asks = self._asks, {}
                try:
                    found = await self._read(asks)
                except Exception as exc:
                    for futures in asks.values():
                        for future in futures:
                            if not future.done():
                                future.set_exception(exc)
                    continue
                for room, futures in asks.items():
                    for future in futures:
                        if not future.done():
                            future.set_result(found.get(room))
        finally:
            self._task = None
