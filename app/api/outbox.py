"""What one websocket still has to be sent, bounded whatever its client does.

A client that sends frames and never reads would otherwise grow the server without end:
every refused frame asks for an error frame and a resync view, and none of them leaves
while the client's TCP window is shut. So the room's news are two flags, not a queue (the
writer loads the newest view at send time, so a thousand state events cost what one does),
and the frames that must go out one by one (error frames, pongs) wait in a queue of at
most `limit`. One more means the client has stopped keeping up: the outbox is `behind` and
the socket is closed with `CLOSE_BEHIND`, after which the client reconnects and the
connect view resyncs it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

# 4409, "out of step": the client sent more than it read (4429 is the frame rate's).
# Clients reconnect on it and resync from the view every connect sends (README, "Limits").
CLOSE_BEHIND = 4409
MAX_QUEUED_FRAMES = 64


class Outbox:
    """Pending news and frames of one socket. One writer takes them; anyone may put."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_QUEUED_FRAMES if limit is None else limit
        self.behind = False
        self._frames: deque[dict[str, Any]] = deque()
        self._state = False
        self._presence = False
        self._ready = asyncio.Event()

    def notify(self, event: dict[str, Any]) -> None:
        """A hub event (`{"kind": "state"}` or `{"kind": "presence"}`): news to send once."""
        if event.get("kind") == "presence":
            self._presence = True
        else:
            self._state = True
        self._ready.set()

    def put(self, frame: dict[str, Any]) -> None:
        """Queue a frame, or mark the outbox `behind` when `limit` frames already wait."""
        if len(self._frames) >= self.limit:
            self.behind = True
        else:
            self._frames.append(frame)
        self._ready.set()

    def __len__(self) -> int:
        return len(self._frames)

    async def take(self) -> tuple[list[dict[str, Any]], bool, bool]:
        """Wait for something to send: (frames in order, state wanted, presence wanted)."""
        await self._ready.wait()
        self._ready.clear()
        frames = list(self._frames)
        self._frames.clear()
        state, presence = self._state, self._presence
        self._state = self._presence = False
        return frames, state, presence
