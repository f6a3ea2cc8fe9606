"""The websocket guards: the idle sweeper (one task closes sockets whose client sent
nothing for `ws_idle_seconds`, 4408), the per-frame rates (`frame`, and `move` for moves
and votes: 4429 or an error frame), and a refusal before a socket opens (429). The
middleware (app/guards/middleware.py) counts the sockets per address and calls these."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import AppError, RateLimited, error_payload
from app.guards.http import AUTH_FAIL_STATUS, send_error
from app.guards.ratelimit import RateLimits
from app.metrics import M

WS_CLOSE_IDLE = 4408
WS_CLOSE_RATE_LIMITED = 4429
# Close codes our websocket endpoint uses for the same failures (policy violation and the
# 44xx mirrors of the HTTP statuses).
_AUTH_FAIL_CLOSE = frozenset({1008, 4401, 4403, 4404})
_IDLE_REASON = "idle timeout"
# How often the sweeper looks for idle sockets: a quarter of the limit, so a socket is
# closed at most a quarter late; not below 0.1 s, which a tiny limit (tests) would make a
# busy loop, nor above 15 s, so the default 600 s limit is kept within 2.5%.
_SWEEP_FRACTION = 0.25
_SWEEP_MIN_SECONDS = 0.1
_SWEEP_MAX_SECONDS = 15.0


def _sweep_period(idle: float) -> float:
    return min(max(idle * _SWEEP_FRACTION, _SWEEP_MIN_SECONDS), _SWEEP_MAX_SECONDS)


class _Socket:
    """One websocket's state, shared by its guarded receive and send and the sweeper."""

    __slots__ = ("accepted", "closed", "idle_closed", "waiting_since", "send")

    def __init__(self, send: Send) -> None:
        self.accepted = False
        self.closed = False  # we closed it, or the app did: later sends are dropped
        self.idle_closed = False  # the sweeper closed it
        # When its pending receive began waiting (loop time), `inf` while none is pending:
        # the limit counts only time the app spent waiting on the client, as the timeout
        # around the receive did, not time it spent handling a frame.
        self.waiting_since = math.inf
        self.send = send  # the server's, below the guard


def socket_state(send: Send) -> _Socket:
    """A new socket's guard state, `send` being the server's."""
    return _Socket(send)


class IdleSweeper:
    """One task per middleware that closes the sockets idle past `idle` seconds, running
    only while accepted sockets are open."""

    def __init__(self, idle: float) -> None:
        self.idle = idle
        self._watched: set[_Socket] = set()  # accepted sockets the sweeper looks at
        self._sweeper: asyncio.Task[None] | None = None
        # The sweeper's closes, held so that they are not collected before they finish.
        self._closing: set[asyncio.Task[None]] = set()

    def watch(self, sock: _Socket) -> None:
        self._watched.add(sock)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(
                self._sweep(), name="rummy-ws-idle-sweeper"
            )

    def unwatch(self, sock: _Socket) -> None:
        self._watched.discard(sock)
        if not self._watched:
            # Nothing left to watch: no task may outlive the sockets (a server stopping,
            # or tests starting and stopping many servers in one process).
            self.stop()

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        period = _sweep_period(self.idle)
        while self._watched:
            await asyncio.sleep(period)
            deadline = loop.time() - self.idle
            for sock in self._watched:
                if sock.waiting_since < deadline and not sock.closed:
                    self._close_idle(sock)

    def _close_idle(self, sock: _Socket) -> None:
        """Close `sock` under its app, as its receive would: the app's later sends are
        dropped and its pending receive returns the disconnect (`guarded_receive`)."""
        sock.closed = sock.idle_closed = True
        # The server puts a disconnect in the socket's receive queue when it sends the
        # close, which wakes the pending receive. A task, not an await here: the send
        # waits while the client's TCP window is shut, and one such client must not hold
        # up the sweep of the others.
        message = {"type": "websocket.close", "code": WS_CLOSE_IDLE, "reason": _IDLE_REASON}
        M.socket_closes[WS_CLOSE_IDLE].inc()
        task = asyncio.get_running_loop().create_task(_close_quietly(sock.send, message))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    # --- websocket frames ------------------------------------------------------------


async def serve_socket(
    app: ASGIApp,
    scope: Scope,
    receive: Receive,
    sock: _Socket,
    *,
    client: str,
    rates: RateLimits | None,
    sweeper: IdleSweeper | None,
    failed_check: Callable[[], Awaitable[None]],
) -> None:
    """Run the app on one socket with its frames counted (`rates`, None when the rates are
    off) and its idleness watched (`sweeper`, None without an idle limit)."""
    guarded = _GuardedSocket(sock, receive, client, rates, sweeper, failed_check)
    await app(scope, guarded.receive, guarded.send)


class _GuardedSocket:
    """The app's receive and send of one socket, under the guards."""

    def __init__(
        self,
        sock: _Socket,
        receive: Receive,
        client: str,
        rates: RateLimits | None,
        sweeper: IdleSweeper | None,
        failed_check: Callable[[], Awaitable[None]],
    ) -> None:
        self.sock = sock
        self._receive = receive
        self.client = client
        self.rates = rates
        self.sweeper = sweeper
        self.failed_check = failed_check
        self.now = asyncio.get_running_loop().time

    async def send(self, message: Message) -> None:
        sock, kind = self.sock, message["type"]
        if sock.closed:
            return  # we closed the socket under the app; drop what it still sends
        if kind == "websocket.accept":
            sock.accepted = True
            if self.sweeper is not None:
                self.sweeper.watch(sock)
        elif kind == "websocket.close":
            sock.closed = True
            M.socket_closes[message.get("code", 1000)].inc()
            if not sock.accepted or message.get("code") in _AUTH_FAIL_CLOSE:
                if message.get("code", 1000) != 1000:
                    await self.failed_check()
        elif kind == "websocket.http.response.start":
            if message.get("status") in AUTH_FAIL_STATUS:
                await self.failed_check()
        await sock.send(message)

    async def _close(self, code: int, reason: str) -> Message:
        if not self.sock.closed:
            self.sock.closed = True
            M.socket_closes[code].inc()
            await self.sock.send({"type": "websocket.close", "code": code, "reason": reason})
        return _disconnect(code, reason)

    async def _refuse_frame(self, message: str) -> None:
        frame = {"type": "error", **error_payload(RateLimited(message))[1]}
        await self.send({"type": "websocket.send", "text": json.dumps(frame)})

    async def _next(self) -> Message:
        """The client's next message, timed by the sweeper while it is awaited."""
        sock = self.sock
        if self.sweeper is None or not sock.accepted:
            return await self._receive()
        sock.waiting_since = self.now()
        try:
            message = await self._receive()
        finally:
            sock.waiting_since = math.inf
        if sock.idle_closed:
            # Whatever woke the receive (the server's disconnect for our close, or a
            # frame that came too late), the socket is closed for idleness.
            return _disconnect(WS_CLOSE_IDLE, _IDLE_REASON)
        return message

    async def receive(self) -> Message:
        while True:
            if self.sock.closed:
                return {"type": "websocket.disconnect", "code": 1000}
            message = await self._next()
            if message["type"] != "websocket.receive" or self.rates is None:
                return message
            # Every frame counts, whatever it holds: junk costs the server an answer too.
            if await self.rates.hit("frame", self.client) is not None:
                await self._refuse_frame("too many frames: this socket is closed")
                return await self._close(WS_CLOSE_RATE_LIMITED, "rate_limited")
            if _is_action(message.get("text")):
                if await self.rates.hit("move", self.client) is not None:
                    await self._refuse_frame("too many moves: slow down and retry later")
                    continue
            return message


def _disconnect(code: int, reason: str) -> Message:
    """What the app's receive gets for a socket the guard closed under it."""
    return {"type": "websocket.disconnect", "code": code, "reason": reason}


async def _close_quietly(send: Send, message: Message) -> None:
    """Send the sweeper's close; a client already gone has its disconnect queued by the
    server anyway, so a failed send has no one to tell."""
    with contextlib.suppress(Exception):  # the server's ClientDisconnected, an OSError
        await send(message)


async def refuse_socket(
    scope: Scope, receive: Receive, send: Send, exc: AppError, wait: float | None
) -> None:
    """Refuse a websocket before it opens: a 429 where the server can answer HTTP there."""
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await send_error(_denial(send), exc, wait)
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": exc.code})


def _denial(send: Send) -> Send:
    """Adapt an HTTP response to the websocket denial-response messages."""

    async def denial_send(message: Message) -> None:
        await send({**message, "type": message["type"].replace("http.", "websocket.http.", 1)})

    return denial_send


def _is_action(text: str | None) -> bool:
    """Whether a frame is a move or a vote (what the `move` rate counts), read as the app
    reads it: parsed, so that no spelling of the key escapes the count."""
    if text is None:
        return False
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # the app answers it with invalid_request
        return False
    return isinstance(data, dict) and data.get("type") in ("move", "vote")
