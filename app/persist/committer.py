"""Group commit: moves of different rooms that arrive together share one transaction.

A move's write is one UPDATE (the version compare-and-swap) and one log row; its cost is
mostly the transaction around them (the thread hop per statement on SQLite, the commit's
fsync). So moves queue here, and one task at a time takes everything queued and writes it
in one transaction through a `Writer` (app/persist/store.py); a move is answered only
once that transaction committed. With one move waiting the batch is that move alone, so an idle
server adds no delay; under load the batches grow and each commit serves many moves.

Safe because nothing in a batch depends on another entry: each entry keeps its own
compare-and-swap (a lost race fails only that entry, with `StaleVersion`); one process
never has two entries of one room in flight (the room lock is held until the commit
returns); rooms are written in id order, so batches of two processes cannot deadlock. If
the batch transaction fails as a whole, its entries are retried one by one, so one bad
entry fails alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime

from app.errors import StaleVersion
from app.metrics import M
from app.persist.rows import Commit, Snapshot
from app.persist.store import Writer

log = logging.getLogger("rummy.committer")

MAX_BATCH = 64

_Item = tuple[Snapshot, Commit, datetime, "asyncio.Future[int]"]


class GroupCommitter:
    def __init__(
        self, writer: Writer, fallback: Writer | None = None, max_batch: int = MAX_BATCH
    ) -> None:
        self._writer = writer
        # Where a failed batch's entries go one by one (the engine, for the one-hop writers).
        self._fallback = fallback or writer
        self._max_batch = max_batch
        self._queue: list[_Item] = []
        self._task: asyncio.Task[None] | None = None

    async def commit(self, room: Snapshot, entry: Commit, now: datetime) -> int:
        """Persist `entry` made on `room`; returns the new version once it is committed.

        Raises:
            StaleVersion: another writer moved the room first.
        """
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((room, entry, now, future))
        if self._task is None or self._task.done():
            # The drain runs while anything is queued and then ends, so nothing is left
            # running when the app stops.
            self._task = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._queue:
            batch = self._queue[: self._max_batch]
            del self._queue[: self._max_batch]
            try:
                await self._write(batch)
            except BaseException as exc:  # cancelled at shutdown: nobody waits forever
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                raise

    async def _write(self, batch: list[_Item]) -> None:
        began = time.perf_counter()
        try:
            results = await self._writer.commit_many([(r, e, n) for r, e, n, _ in batch])
            M.commit_seconds.observe(time.perf_counter() - began)
            M.commit_batch.observe(len(batch))
        except Exception:
            log.warning("group commit of %d entries failed; one by one", len(batch), exc_info=True)
            for item in batch:
                await self._write_one(item)
            return
        for (*_, future), version in zip(batch, results, strict=True):
            _settle(future, version)

    async def _write_one(self, item: _Item) -> None:
        room, entry, now, future = item
        try:
            [version] = await self._fallback.commit_many([(room, entry, now)])
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
        else:
            _settle(future, version)


def _settle(future: asyncio.Future[int], version: int | None) -> None:
    """Answer a move with its new version, or StaleVersion where its CAS lost."""
    if future.done():
        return
    if version is None:
        future.set_exception(StaleVersion("the room moved on"))
    else:
        future.set_result(version)
