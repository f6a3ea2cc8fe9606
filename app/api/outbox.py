"""What one websocket still has to be sent, bounded whatever its client does.

A client that sends frames and never reads would otherwise grow the server without end:
every refused frame asks for an error frame and a resync view, and none of them leaves
while the client's TCP window is shut. So the room's news are two slots, not a queue (the
newest view and the newest presence, put by the room's fan-out, app/api/fanout.py: a
thousand state events cost what one does), and the frames that must go out one by one
(error frames, pongs) wait in a queue of at most `limit`. One more means the client has
stopped keeping up: the outbox is `behind` and the socket is closed with `CLOSE_BEHIND`,
after which the client reconnects and the connect view resyncs it.

While the socket's writer waits with nothing to send, frames skip it: the fan-out's news
and the reader's error frames and pongs go out at once (`send_directly`), and a move wakes
no task per socket. A send that has to wait (the client's TCP window shut) is handed to
the writer, which finishes it before anything else; until it has, news wait in the slots
and frames in the queue again. (bench/load.py, 200 rooms on one SQLite process, six pairs
alternated with the writer sending everything: 9% more moves a second at a lower p99 and
4.5% less CPU a move.)
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, NamedTuple

from pydantic_core import to_json

# 4409, "out of step": the client sent more than it read (4429 is the frame rate's).
# Clients reconnect on it and resync from the view every connect sends (docs/operations.md,
# "Limits").
CLOSE_BEHIND = 4409
MAX_QUEUED_FRAMES = 64

# Sends a frame's text now; returns None once it is sent, or what is left of a send that
# had to wait (the client's TCP window shut), for the writer to finish first.
SendNow = Callable[[str], Coroutine[Any, Any, None] | None]


class Outbox:
    """Pending news and frames of one socket. One writer takes them; anyone may put."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_QUEUED_FRAMES if limit is None else limit
        self.behind = False
        self._frames: deque[str] = deque()  # texts
        self._state: str | None = None
        self._presence: str | None = None
        self._failure: BaseException | None = None
        self._ready = asyncio.Event()
        # The newest version put, sent or waiting in its slot: a room never goes back on
        # screen, so an older one is dropped here.
        self._newest = -1
        # How news may skip the writer (`send_now`), and whether the writer waits with
        # nothing left to send: only then does a frame sent at once keep the order.
        self._send_now: SendNow | None = None
        self._idle = False
        self._rest: Coroutine[Any, Any, None] | None = None
        # The version of the newest view handed to the socket (sent, or taken by the
        # writer to send), and of the one waiting in its slot: app/api/catchup.py compares
        # the first with the room's, so a socket that missed a view is sent it again.
        self.sent_version = -1
        self._slot_version = -1

    def send_directly(self, send_now: SendNow) -> None:
        """Let news go out at once through `send_now` while the writer has nothing to send:
        a move's fan-out then wakes no writer task per socket."""
        self._send_now = send_now

    def put_state(self, version: int, frame: str) -> None:
        """The newest state frame (text) of the room, of `version`: replaces one not sent."""
        if version < self._newest:
            return
        self._newest = version
        if self._sent_now(frame):
            self.sent_version = max(self.sent_version, version)
        else:
            self._state = frame
            self._slot_version = version
            self._wake()

    def put_presence(self, frame: str) -> None:
        """The newest presence frame (text): replaces one not sent."""
        if not self._sent_now(frame):
            self._presence = frame
            self._wake()

    def fail(self, failure: BaseException) -> None:
        """The room's news could not be made (an AppError is told, anything else closes)."""
        self._failure = failure
        self._wake()

    def put(self, frame: dict[str, Any]) -> None:
        """Send or queue a frame (compact JSON, as starlette's `send_json` wrote it), or mark
        the outbox `behind` when `limit` frames already wait."""
        text = to_json(frame).decode()
        if self._sent_now(text):
            return
        if len(self._frames) >= self.limit:
            self.behind = True
        else:
            self._frames.append(text)
        self._wake()

    def _wake(self) -> None:
        self._idle = False
        self._ready.set()

    def _sent_now(self, frame: str) -> bool:
        """Whether `frame` went out (or started to) without the writer."""
        if not self._idle or self._send_now is None:
            return False
        try:
            rest = self._send_now(frame)
        except Exception as exc:  # the client is gone: the writer ends the socket
            self.fail(exc)
            return True
        if rest is not None:
            self._rest = rest  # the writer finishes it before anything else
            self._wake()
        return True

    def close(self) -> None:
        """The socket is closing: a send begun at once and held back, which no writer will
        finish now, is closed rather than left never awaited."""
        rest, self._rest = self._rest, None
        if rest is not None:
            rest.close()

    def __len__(self) -> int:
        return len(self._frames)

    async def take(self) -> Taken:
        """Wait for something to send."""
        if not self._ready.is_set():
            self._idle = True
        await self._ready.wait()
        self._idle = False
        self._ready.clear()
        taken = Taken(self._rest, list(self._frames), self._state, self._presence, self._failure)
        if self._state is not None:
            self.sent_version = max(self.sent_version, self._slot_version)
        self._frames.clear()
        self._rest = self._state = self._presence = self._failure = None
        return taken


class Taken(NamedTuple):
    rest: Coroutine[Any, Any, None] | None  # a frame sent at once whose send had to wait: first
    frames: list[str]  # texts, in order, before the news
    state: str | None  # frame text
    presence: str | None  # frame text
    failure: BaseException | None
