"""A seat's websocket (/asyncapi.json): typed frames both ways, the token in the first
frame (so no URL carries it), and the reconnect rules of the AsyncAPI document: every drop
reconnects with websockets' backoff, except the refusals that lose the seat for good
(`SeatLost`); the first `state` after each connect is the truth to resync from.

    async with aclosing(sockets(seat)) as connections:
        async for ws in connections:          # one per (re)connect
            async for frame in ws.frames():   # ServerFrame models; ends when the socket drops
                ...
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any, cast

from websockets.asyncio.client import connect as websockets_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from rummy_client.errors import SeatLost
from rummy_client.models import (
    AuthFrame,
    ChatPost,
    ClientFrame,
    ErrorFrame,
    Move,
    MoveFrame,
    PingFrame,
    ServerFrame,
    VoteFrame,
    VoteKind,
    read_frame,
)
from rummy_client.urls import Seat, ws_url

log = logging.getLogger("rummy.client")

# The refusals that lose the seat for good (asyncapi.json `x-close-codes`, reconnect false):
# as error codes, as close codes, and as the statuses of a refused handshake.
FATAL_CODES = frozenset({"unauthorized", "forbidden", "room_not_found", "room_expired"})
FATAL_CLOSE_CODES = frozenset({4401, 4403, 4404, 4410})
FATAL_STATUSES = frozenset({401, 403, 404, 410})
MAX_FRAME_BYTES = 2**22


class SeatSocket:
    """One open socket of a seat: typed frames to send and to read."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws  # websockets' ClientConnection, or anything with send/close/async-for
        self.received = 0

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, seat: Seat) -> AsyncIterator[SeatSocket]:
        """One connection, no reconnects: `async with SeatSocket.open(seat) as ws: ...`."""
        url = ws_url(seat.server, seat.room)
        async with websockets_connect(url, max_size=MAX_FRAME_BYTES) as ws:
            socket = cls(ws)
            await socket.auth(seat.token)
            yield socket

    async def send(self, frame: ClientFrame) -> None:
        await self.ws.send(frame.model_dump_json(exclude_none=True))

    async def auth(self, token: str) -> None:
        await self.send(AuthFrame(type="auth", token=token))

    async def move(self, move: Move, version: int) -> None:
        await self.send(MoveFrame(type="move", move=move, version=version))

    async def vote(self, vote: VoteKind, version: int | None = None) -> None:
        await self.send(VoteFrame(type="vote", vote=vote, version=version))

    async def ping(self) -> None:
        await self.send(PingFrame(type="ping"))

    async def chat(self, text: str) -> None:
        await self.send(ChatPost(type="chat", text=text))

    async def frames(self) -> AsyncIterator[ServerFrame]:
        """The server's frames until the socket drops (then the iteration just ends).

        Raises:
            SeatLost: the server refused the seat for good (an error frame or a close code).
        """
        try:
            async for raw in self.ws:
                self.received += 1
                frame = read_frame(raw)
                if isinstance(frame, ErrorFrame) and frame.error.code in FATAL_CODES:
                    raise SeatLost(f"{frame.error.code}: {frame.error.message}")
                yield frame
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code in FATAL_CLOSE_CODES:
                raise SeatLost(f"websocket closed: {code}") from exc
            log.info("connection lost (%s)", exc)

    @contextlib.asynccontextmanager
    async def keepalive(self, seconds: float) -> AsyncIterator[None]:
        """Ping every `seconds` meanwhile: the server closes a silent socket (4408)."""

        async def ping_forever() -> None:
            while True:
                await asyncio.sleep(seconds)
                await self.ping()

        task = asyncio.create_task(ping_forever())
        try:
            yield
        finally:
            task.cancel()


async def sockets(
    seat: Seat, *, max_retries: int = 30, connect: Callable[..., Any] = websockets_connect
) -> AsyncGenerator[SeatSocket]:
    """The seat's socket, authenticated, again after every drop (websockets' backoff).

    Raises SeatLost when the server refuses the seat for good, ConnectionError after
    `max_retries` connections in a row that failed or closed before a single frame.
    `connect` is websockets' (a test may wrap it)."""
    failures = 0

    def retry_or_raise(exc: Exception) -> Exception | None:
        """websockets' `process_exception`: None retries (after its backoff)."""
        nonlocal failures
        if isinstance(exc, InvalidStatus) and exc.response.status_code in FATAL_STATUSES:
            return SeatLost(f"websocket refused: {exc.response.status_code}")
        if not isinstance(exc, (TimeoutError, OSError, InvalidHandshake)):
            return exc
        failures += 1
        if failures > max_retries:
            return ConnectionError(f"gave up after {max_retries} reconnects")
        log.info("connection failed (%s); reconnecting", exc)
        return None

    reconnecting = connect(
        ws_url(seat.server, seat.room),
        open_timeout=10,
        max_size=MAX_FRAME_BYTES,
        process_exception=retry_or_raise,
    )
    # aclosing: leaving the loop closes the socket now, not at GC. (connect.__aiter__ is an
    # async generator; its annotation says only AsyncIterator.)
    connections = cast("AsyncGenerator[Any]", aiter(reconnecting))
    async with contextlib.aclosing(connections):
        async for ws in connections:
            socket = SeatSocket(ws)
            await socket.auth(seat.token)
            yield socket
            # The server closed it: the loop opens the next one.
            failures = 1 if socket.received else failures + 1
            if failures > max_retries:
                raise ConnectionError(f"gave up after {max_retries} reconnects")
