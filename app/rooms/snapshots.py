"""The latest snapshot of recently used rooms, kept in the process.

Without it a move would read its room three times and every socket of the room would read it
again to send its view: reads, not the one write, would be most of a move's cost. With it a
move in steady state reads nothing: `RoomService` puts the snapshot it just committed, and
every socket's view comes from here.

Why a stale entry can never corrupt a room:
- A move is applied to the cached state but only lands through the compare-and-swap on
  `rooms.version`. If another process moved first, the CAS fails, the entry is dropped and
  the client gets `stale_version` with the fresh view, as it would have anyway.
- When a client's version differs from the cached one, `RoomService` reloads before refusing, so a
  client that saw a newer version through another process is not turned away.
- Every hub event that is not ours drops the entry (events from other processes come
  through Redis). A load that started before such an event is not cached when it ends
  (a generation count per room), so an old read cannot overwrite the news.
Views built from a stale entry are at worst late: the event that makes them stale also
queues a fresh view on every socket of the room.

An event can also be lost (a process killed between its commit and its publish, a failed
Redis publish). Then no event comes, so whatever read finds the news tells the room: a read
that returns a version (or a taken seat) newer than any this process knew calls `on_newer`,
which queues a fresh view on the room's sockets here. `app.rooms.healing` checks the cached
rooms against the database on a timer, so a room whose news was lost heals within seconds
even if nobody acts in it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import rules
from app.persist.rows import Mark, Snapshot, with_attendance

Loader = Callable[[str], Awaitable[Snapshot]]
# A state as a hub event carries it (sealed: app/persist/sealing.py), read for one room.
Decoder = Callable[[str, str], rules.GameState]
NewsListener = Callable[[Snapshot], None]
# Reads of one room a caller makes at most while news keeps overtaking them.
MAX_LOADS = 3


class SnapshotCache:
    def __init__(
        self,
        load: Loader,
        decode: Decoder | None = None,
        size: int = 10_000,
        on_newer: NewsListener | None = None,
    ) -> None:
        # A 4-player rummy51 state is about 5 KB as objects, so this holds ~50 MB at most; a
        # room pushed out is only read again on its next move.
        self._load = load
        self._decode = decode or _plain_state
        self._size = size
        self._entries: OrderedDict[str, Snapshot] = OrderedDict()
        self._generation: dict[str, int] = {}
        # The newest mark of each room this process committed, heard of or read.
        self._known: dict[str, Mark] = {}
        self._on_newer = on_newer
        # Loads in flight: their result and the room's generation when they started.
        self._loading: dict[str, tuple[asyncio.Future[Snapshot], int]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def peek(self, room: str) -> Snapshot | None:
        """The cached snapshot, or None: starts no load (for callers that must not wait)."""
        snap = self._entries.get(room)
        if snap is not None:
            self._entries.move_to_end(room)
        return snap

    async def get(self, room: str) -> Snapshot:
        """The room's snapshot: cached, or loaded once however many callers wait for it.

        A load that news overtook (an event or a commit while it read) may hold an older
        version than one already served: it is not returned while a newer read can be had,
        so no socket is ever sent a room that went back.

        Raises what the loader raises (RoomNotFound).
        """
        snap: Snapshot | None = None
        for _ in range(MAX_LOADS):
            cached = self.peek(room)
            if cached is not None:
                return cached
            future, started = self._loading.get(room) or self._start_load(room)
            snap = await asyncio.shield(future)
            if self._generation.get(room, 0) == started:
                return snap
        assert snap is not None
        return snap

    def _start_load(self, room: str) -> tuple[asyncio.Future[Snapshot], int]:
        generation = self._generation.get(room, 0)
        future: asyncio.Future[Snapshot] = asyncio.get_running_loop().create_future()
        self._loading[room] = (future, generation)

        async def load() -> None:
            try:
                snap = await self._load(room)
            except BaseException as exc:
                future.set_exception(exc)
                future.exception()  # retrieved: waiters re-raise it, nobody logs it as lost
            else:
                future.set_result(snap)
                if self._generation.get(room, 0) == generation:
                    self._store(snap)
                self._news(snap)
            finally:
                del self._loading[room]

        task = asyncio.create_task(load())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return future, generation

    async def reload(self, room: str) -> Snapshot:
        """Read the database now (a client claims a version we do not have).

        Never joins a load already in flight: that one may have started before the news.
        """
        self.forget(room)
        generation = self._generation[room]
        snap = await self._load(room)
        if self._generation.get(room, 0) == generation:
            self._store(snap)
        self._news(snap)
        return snap

    def mark(self, room: str) -> Mark | None:
        snap = self._entries.get(room)
        return None if snap is None else snap.mark

    def rooms(self) -> list[str]:
        """The rooms cached now."""
        return list(self._entries)

    def marks(self) -> dict[str, Mark]:
        """Every cached room's mark (what `app.rooms.healing` checks against the database)."""
        return {room: snap.mark for room, snap in self._entries.items()}

    def put(self, snap: Snapshot) -> None:
        """Record a snapshot this process just committed (never replaces a newer one)."""
        cached = self._entries.get(snap.id)
        mark = snap.mark
        # Of two at one version, the one with more seats taken is the newer (a join).
        if cached is None or cached.mark <= mark:
            self._generation[snap.id] = self._generation.get(snap.id, 0) + 1
            self._store(snap)
        self._learn(snap.id, mark)

    def forget(self, room: str) -> None:
        self._generation[room] = self._generation.get(room, 0) + 1
        self._entries.pop(room, None)

    def clear(self) -> None:
        """Forget every room (after a purge deleted some)."""
        for room in list(self._entries):
            self.forget(room)

    def on_event(self, room: str, event: dict[str, Any]) -> None:
        """A hub event: keep, advance or drop the room's entry.

        An entry that already holds the version announced stays. One exactly a version
        behind advances with the state the event carries (another process's move), so the
        sockets here send it without reading the database. Anything else is dropped.
        """
        if event.get("kind") != "state":
            return
        cached = self._entries.get(room)
        version = event.get("version")
        # A join's event says how many seats are taken now (RoomService.join).
        taken = event.get("taken")
        # The event itself tells the room's sockets: the read it causes is no news.
        known = self._known.get(room)
        if isinstance(version, int):
            if known is not None:
                seats = max(known[1], taken) if isinstance(taken, int) else known[1]
                self._known[room] = (max(known[0], version), seats)
        else:
            self._known.pop(room, None)  # a join of old: the next read sets the mark
        if cached is not None and isinstance(version, int):
            if isinstance(taken, int) and cached.mark[1] < taken:
                self.forget(room)  # a seat taken through another process: read it again
                return
            if cached.version >= version:
                return
            if cached.version == version - 1 and isinstance(event.get("state"), str):
                try:
                    deadline = event.get("turn_deadline")
                    advanced = replace(
                        cached,
                        version=version,
                        state=self._decode(room, event["state"]),
                        hand_seq=int(event["hand_seq"]),
                        active_at=datetime.fromisoformat(event["active_at"]),
                        seats=with_attendance(cached.seats, event.get("attendance")),
                        turn_deadline=datetime.fromisoformat(deadline) if deadline else None,
                    )
                except (ValueError, KeyError, TypeError):
                    pass  # not what we expected: read it from the database instead
                else:
                    self.put(advanced)
                    return
        self.forget(room)

    def _learn(self, room: str, mark: Mark) -> None:
        known = self._known.get(room, mark)
        self._known[room] = (max(known[0], mark[0]), max(known[1], mark[1]))

    def _news(self, snap: Snapshot) -> None:
        """A read returned `snap`: if no event or commit announced what it holds, say so."""
        known = self._known.get(snap.id)
        mark = snap.mark
        self._learn(snap.id, mark)
        if known is not None and self._on_newer is not None:
            if mark[0] > known[0] or mark[1] > known[1]:
                self._on_newer(snap)

    def _store(self, snap: Snapshot) -> None:
        self._entries[snap.id] = snap
        self._entries.move_to_end(snap.id)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)
        if len(self._generation) > 4 * self._size:
            # Counters of rooms no longer cached only guard loads in flight.
            keep = self._entries.keys() | self._loading.keys()
            self._generation = {r: g for r, g in self._generation.items() if r in keep}
            self._known = {r: v for r, v in self._known.items() if r in keep}


def _plain_state(room: str, text: str) -> rules.GameState:
    return rules.GameState.model_validate_json(text)
