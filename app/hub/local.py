"""The in-process hub (`app.hub.protocol.Hub`): per-room locks, listeners, presence and
away marks for one server process. `app.hub.redis.RedisHub` builds on it to span processes.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from app.hub.protocol import Event, Listener, Presence, away_of

log = logging.getLogger("rummy.hub")

# Rooms whose away marks one process keeps at most (the oldest rooms' are dropped first).
AWAY_ROOMS_MAX = 100_000


class LocalHub:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        self._connections: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        # Called with (room, event) for every event of every room, before its listeners.
        self._watchers: list[Callable[[str, Event], None]] = []
        # When each seat's last socket closed, while it has none (docs/api.md `away_since`).
        self._away: dict[str, dict[int, datetime]] = {}
        # The time away marks are made with: the room service puts its own (injectable) clock.
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

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

    def notify(self, room: str, event: Event) -> None:
        """Deliver `event` to this process only: news a read found, which the other
        processes find on their own (`app.rooms.healing`)."""
        self._deliver(room, event)

    def rooms(self) -> set[str]:
        """Rooms with at least one listener (socket) in this process."""
        return set(self._listeners)

    def keep_current(
        self, rooms: Callable[[], Iterable[str]], forget: Callable[[str], None]
    ) -> None:
        """The snapshot cache (its rooms, and how to drop one), for a hub that does not hear
        every room's events to keep it current. In-process every event is heard."""

    def watch(self, watcher: Callable[[str, Event], None]) -> None:
        """Call `watcher(room, event)` for every event of every room (the snapshot cache)."""
        self._watchers.append(watcher)

    def _deliver(self, room: str, event: Event) -> None:
        for watcher in self._watchers:
            watcher(room, event)
        for listener in list(self._listeners.get(room, ())):
            listener(event)

    async def connect(self, room: str, seat: int) -> None:
        self._count_socket(room, seat)
        await self.publish(room, {"kind": "presence"})

    async def disconnect(self, room: str, seat: int) -> None:
        self._uncount_socket(room, seat)
        await self.publish(room, {"kind": "presence"})

    def _count_socket(self, room: str, seat: int) -> None:
        self._connections[room][seat] += 1
        marks = self._away.get(room)
        if marks is not None:
            marks.pop(seat, None)

    def _uncount_socket(self, room: str, seat: int) -> bool:
        """Returns whether that was the seat's last socket here."""
        seats = self._connections.get(room)
        last = False
        if seats is not None:
            seats[seat] -= 1
            if seats[seat] <= 0:
                del seats[seat]
                last = True
                self._mark_away(room, seat)
            if not seats:
                del self._connections[room]
        return last

    def _mark_away(self, room: str, seat: int) -> None:
        if room not in self._away and len(self._away) >= AWAY_ROOMS_MAX:
            del self._away[next(iter(self._away))]
        self._away.setdefault(room, {})[seat] = self.clock()

    async def away_since(self, room: str) -> dict[int, datetime]:
        """When each seat without a socket lost its last one. A seat that never had a socket
        (in this hub's memory) has no mark: it is not away, only not there yet."""
        return away_of(self._away.get(room, {}), await self.presence(room))

    def presence_now(self, room: str) -> Presence | None:
        """`presence` and `away_since` if this process knows them without a read, else None
        (the room's fan-out then waits for them in a task). In-process: always known."""
        present = self._present(room)
        return present, away_of(self._away.get(room, {}), present)

    async def claim(self, key: str, seconds: float) -> bool:
        """Whether this process holds `key` (a computer turn: app.turns.standin `turn_claim`): in
        one process the room's lock already orders everything, so always."""
        return True

    async def presence(self, room: str) -> set[int]:
        """Seats with at least one open connection."""
        return self._present(room)

    def _present(self, room: str) -> set[int]:
        return {seat for seat, n in self._connections.get(room, {}).items() if n > 0}
