"""What one websocket still has to be sent, bounded whatever its client does.

A client that sends frames and never reads would otherwise grow the server without end:
every refused frame asks for an error frame and a resync view, and none of them leaves
while the client's TCP window is shut. So the room's news are two slots, not a queue (the
newest view and the newest presence, put by the room's fan-out, app/api/fanout.py: a
thousand state events cost what one does), and the frames that must go out one by one
(error frames, pongs) wait in a queue of at most `limit`. One more means the client has
stopped keeping up: the outbox is `behind` and the socket is closed with `CLOSE_BEHIND`,
after which the client reconnects and the connect view resyncs it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, NamedTuple

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
        self._state: tuple[int, str] | None = None
        self._presence: str | None = None
        self._failure: BaseException | None = None
        self._ready = asyncio.Event()

    def put_state(self, version: int, frame: str) -> None:
        """The newest state frame (text) of the room, of `version`: replaces one not sent."""
        self._state = (version, frame)
        self._ready.set()

    def put_presence(self, frame: str) -> None:
        """The newest presence frame (text): replaces one not sent."""
        self._presence = frame
        self._ready.set()

    def fail(self, failure: BaseException) -> None:
        """The room's news could not be made (an AppError is told, anything else closes)."""
        self._failure = failure
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

    async def take(self) -> Taken:
        """Wait for something to send."""
        await self._ready.wait()
        self._ready.clear()
        taken = Taken(list(self._frames), self._state, self._presence, self._failure)
        self._frames.clear()
        self._state = self._presence = self._failure = None
        return taken


class Taken(NamedTuple):
    frames: list[dict[str, Any]]  # in order, before the news
    state: tuple[int, str] | None  # (version, frame text)
    presence: str | None  # frame text
    failure: BaseException | None
