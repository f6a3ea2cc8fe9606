"""What the room service, the turn drivers and the sockets ask of a hub: per-room locks,
events to the room's listeners, presence and away marks, and claims on computer turns.

Two implementations: `app.hub.local.LocalHub` serves one process; `app.hub.redis.RedisHub`
carries events, presence and claims across processes (RUMMY_REDIS_URL). The composition
root (app/main.py `create_hub`) picks one. The lock only orders writers inside one
process; across processes the compare-and-swap on `rooms.version` lets exactly one win.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Protocol

Event = dict[str, Any]  # {"kind": "state", ...} or {"kind": "presence"}
Listener = Callable[[Event], None]
Watcher = Callable[[str, Event], None]
# Who has a socket in a room, and since when each other seat is away.
Presence = tuple[set[int], dict[int, datetime]]


class Hub(Protocol):
    # The time away marks are made with: the room service puts its own (injectable) clock.
    clock: Callable[[], datetime]

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def lock(self, room: str) -> asyncio.Lock:
        """The lock that orders moves on `room` inside this process."""
        ...

    def subscribe(self, room: str, listener: Listener) -> Callable[[], None]:
        """Call `listener(event)` for every event of `room`; returns the unsubscribe."""
        ...

    async def publish(self, room: str, event: Event) -> None:
        """Deliver `event` to the room's listeners in every process."""
        ...

    def notify(self, room: str, event: Event) -> None:
        """Deliver `event` to this process's listeners only."""
        ...

    def rooms(self) -> set[str]:
        """Rooms with at least one listener (socket) in this process."""
        ...

    def keep_current(
        self, rooms: Callable[[], Iterable[str]], forget: Callable[[str], None]
    ) -> None:
        """The snapshot cache (its rooms, and how to drop one), for a hub that does not hear
        every room's events to keep it current."""
        ...

    def watch(self, watcher: Watcher) -> None:
        """Call `watcher(room, event)` for every event of every room (the snapshot cache)."""
        ...

    async def connect(self, room: str, seat: int) -> None: ...

    async def disconnect(self, room: str, seat: int) -> None: ...

    async def presence(self, room: str) -> set[int]:
        """Seats with at least one open connection."""
        ...

    async def away_since(self, room: str) -> dict[int, datetime]:
        """When each seat without a socket lost its last one."""
        ...

    def presence_now(self, room: str) -> Presence | None:
        """`presence` and `away_since` if known without a read, else None."""
        ...

    async def claim(self, key: str, seconds: float) -> bool:
        """Whether this process holds `key` (one computer turn) for `seconds`."""
        ...


def away_of(marks: dict[int, datetime], present: set[int]) -> dict[int, datetime]:
    """The away marks of the seats not present: a seat back on a socket is not away."""
    return {s: t for s, t in marks.items() if s not in present}
