"""Hostile-input guards that no library gives us, as one pure-ASGI middleware (no
`BaseHTTPMiddleware`, so streaming and websockets pass through untouched). Every knob is a
`Settings` field (env prefix `RUMMY_`); README's "Limits" says what a client sees.

- A request body over `max_body_bytes` gets 413 before the app sees a byte of it; one that
  has not fully arrived after `body_timeout_seconds` gets 408 (a slowloris client cannot
  hold the server).
- A websocket whose client sent nothing for `ws_idle_seconds` is closed with 4408. One
  sweeper task per middleware finds such sockets, waking every quarter of `ws_idle_seconds`
  (0.1 s to 15 s), so a socket is closed up to that much later than the limit: an
  `asyncio.timeout` around every frame's receive (a timer handle made and cancelled per
  frame) cost about 3% of the event loop's CPU under load, while a frame now costs the
  socket a clock read and two stores. The sweeper runs only while accepted sockets are open.
- The rates of app/ratelimit.py, by route: room creation, joins, moves and votes (REST and
  websocket) each spend one action of their kind. A failed credential check (401, 403 or
  404 on a room's URL, or the websocket's 44xx close) spends an `auth_fail` action; once
  those run out, every room URL answers that client 429 until the window slides on.
- Every websocket frame, whatever it holds (junk, ping, a refused move), spends a `frame`
  action; over that rate the socket gets an error frame `rate_limited` and is closed with
  4429. Moves and votes are told apart on the parsed frame, never on its text, so an
  escaped key (`{"\\u0074ype": "move"}`) is counted like any other move.
- `ws_max_per_client` open websockets per address (per process); one more gets 429.

The frame-size cap is uvicorn's `ws_max_size` (1009 "message too big"), set where the
server is configured. `rate_limit_enabled=false` turns off the rates and the socket count.
Clients are keyed by `scope["client"]`, which uvicorn takes from `X-Forwarded-For` when the
connection comes from a trusted proxy (127.0.0.1 by default, `FORWARDED_ALLOW_IPS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import (
    AppError,
    PayloadTooLarge,
    RateLimited,
    RequestTimeout,
    error_json,
    error_payload,
)
from app.ratelimit import RateLimits

WS_CLOSE_IDLE = 4408
WS_CLOSE_RATE_LIMITED = 4429

_ROOM_PATH = re.compile(r"^/api/rooms/[^/]+(?:/.*)?$")
_JOIN_PATH = re.compile(r"^/api/rooms/[^/]+/join/?$")
_MOVE_PATH = re.compile(r"^/api/rooms/[^/]+/(?:moves|votes)/?$")
_CREATE_PATHS = frozenset({"/api/rooms", "/api/rooms/", "/api/challenges", "/api/challenges/"})
# A challenge's entry makes a room too (app/social/challenges.py): counted as a create.
_CHALLENGE_PLAY_PATH = re.compile(r"^/api/challenges/[^/]+/play/?$")
# Responses that mean "your credential or room id was wrong".
_AUTH_FAIL_STATUS = frozenset({401, 403, 404})
# Close codes our websocket endpoint uses for the same failures (policy violation and the
# 44xx mirrors of the HTTP statuses).
_AUTH_FAIL_CLOSE = frozenset({1008, 4401, 4403, 4404})
_SLOW_DOWN = "too many requests: slow down and retry later"
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


async def _send_error(send: Send, exc: AppError, retry: float | None = None) -> None:
    status, body = error_json(exc)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if retry is not None:
        headers.append((b"retry-after", str(max(1, math.ceil(retry))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _rate_kind(method: str, path: str) -> str | None:
    if method != "POST":
        return None
    if path in _CREATE_PATHS or _CHALLENGE_PLAY_PATH.match(path):
        return "create"
    if _JOIN_PATH.match(path):
        return "join"
    if _MOVE_PATH.match(path):
        return "move"
    return None


class Guards:
    """Pure ASGI middleware applying the guards above to HTTP requests and websockets."""

    def __init__(self, app: ASGIApp, settings: Any, rates: RateLimits | None = None) -> None:
        self.app = app
        self.max_body_bytes: int = settings.max_body_bytes
        self.body_timeout: float = settings.body_timeout_seconds
        self.ws_idle: float = settings.ws_idle_seconds
        self.ws_max_per_client: int = settings.ws_max_per_client
        self.enabled: bool = settings.rate_limit_enabled
        # Parsed even when off, so a bad rate fails at start-up, not at the first request.
        self.rates = rates or RateLimits(settings)
        self._sockets: dict[str, int] = {}  # open websockets by client address
        self._watched: set[_Socket] = set()  # accepted sockets the sweeper looks at
        self._sweeper: asyncio.Task[None] | None = None
        # The sweeper's closes, held so that they are not collected before they finish.
        self._closing: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self.app(scope, self._lifespan_receive(receive), send)
        else:
            await self.app(scope, receive, send)

    def _lifespan_receive(self, receive: Receive) -> Receive:
        async def lifespan_receive() -> Message:
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                # Sockets still open at shutdown (past the server's grace) must not leave
                # the sweeper pending on a loop that is about to close.
                self._stop_sweeper()
            return message

        return lifespan_receive

    # --- rate-limit decisions shared by both protocols -------------------------------

    async def _blocked(self, scope: Scope, kind: str | None) -> float | None:
        """Seconds to wait when this request must be refused, else `None` (spends one)."""
        if not self.enabled:
            return None
        client = _client(scope)
        if _ROOM_PATH.match(scope["path"]):
            wait = await self.rates.retry_after("auth_fail", client)
            if wait is not None:
                return wait
        if kind is not None:
            return await self.rates.hit(kind, client)
        return None

    async def _failed_check(self, scope: Scope) -> None:
        if self.enabled and _ROOM_PATH.match(scope["path"]):
            await self.rates.hit("auth_fail", _client(scope))

    # --- HTTP ------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        wait = await self._blocked(scope, _rate_kind(scope["method"], scope["path"]))
        if wait is not None:
            await _send_error(send, RateLimited(_SLOW_DOWN), wait)
            return
        limit = self.max_body_bytes
        too_big = PayloadTooLarge(f"the request body exceeds {limit} bytes")
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await _send_error(send, too_big)
                    return
        try:
            async with asyncio.timeout(self.body_timeout or None):
                body = await _read_body(receive, limit)
        except TimeoutError:
            text = f"the request body did not arrive within {self.body_timeout:g} s"
            await _send_error(send, RequestTimeout(text))
            return
        if body is None:
            return  # the client went away before sending its body
        if len(body) > limit:
            await _send_error(send, too_big)
            return
        replayed = False

        async def replay_receive() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def watch_send(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in _AUTH_FAIL_STATUS:
                await self._failed_check(scope)
            await send(message)

        await self.app(scope, replay_receive, watch_send)

    # --- websocket -------------------------------------------------------------------

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        wait = await self._blocked(scope, None)
        if wait is not None:
            await _refuse(scope, receive, send, RateLimited("too many failed checks"), wait)
            return
        client = _client(scope)
        cap = self.ws_max_per_client
        if self.enabled and cap > 0 and self._sockets.get(client, 0) >= cap:
            text = f"more than {cap} open websockets from one address"
            await _refuse(scope, receive, send, RateLimited(text), None)
            return
        self._sockets[client] = self._sockets.get(client, 0) + 1
        sock = _Socket(send)
        try:
            await self._open_websocket(scope, receive, sock, client)
        finally:
            self._sockets[client] -= 1
            if not self._sockets[client]:
                del self._sockets[client]
            self._unwatch(sock)

    # --- idle sockets: one sweeper instead of a timeout per frame --------------------

    def _watch(self, sock: _Socket) -> None:
        self._watched.add(sock)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(
                self._sweep(), name="rummy-ws-idle-sweeper"
            )

    def _unwatch(self, sock: _Socket) -> None:
        self._watched.discard(sock)
        if not self._watched:
            # Nothing left to watch: no task may outlive the sockets (a server stopping,
            # or tests starting and stopping many servers in one process).
            self._stop_sweeper()

    def _stop_sweeper(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        period = _sweep_period(self.ws_idle)
        while self._watched:
            await asyncio.sleep(period)
            deadline = loop.time() - self.ws_idle
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
        task = asyncio.get_running_loop().create_task(_close_quietly(sock.send, message))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    # --- websocket frames ------------------------------------------------------------

    async def _open_websocket(
        self, scope: Scope, receive: Receive, sock: _Socket, client: str
    ) -> None:
        send = sock.send
        watch = self.ws_idle > 0
        now = asyncio.get_running_loop().time

        async def guarded_send(message: Message) -> None:
            kind = message["type"]
            if sock.closed:
                return  # we closed the socket under the app; drop what it still sends
            if kind == "websocket.accept":
                sock.accepted = True
                if watch:
                    self._watch(sock)
            elif kind == "websocket.close":
                sock.closed = True
                if not sock.accepted or message.get("code") in _AUTH_FAIL_CLOSE:
                    if message.get("code", 1000) != 1000:
                        await self._failed_check(scope)
            elif kind == "websocket.http.response.start":
                if message.get("status") in _AUTH_FAIL_STATUS:
                    await self._failed_check(scope)
            await send(message)

        async def close(code: int, reason: str) -> Message:
            if not sock.closed:
                sock.closed = True
                await send({"type": "websocket.close", "code": code, "reason": reason})
            return _disconnect(code, reason)

        async def refuse_frame(message: str) -> None:
            frame = {"type": "error", **error_payload(RateLimited(message))[1]}
            await guarded_send({"type": "websocket.send", "text": json.dumps(frame)})

        async def guarded_receive() -> Message:
            while True:
                if sock.closed:
                    return {"type": "websocket.disconnect", "code": 1000}
                if watch and sock.accepted:
                    sock.waiting_since = now()
                    try:
                        message = await receive()
                    finally:
                        sock.waiting_since = math.inf
                    if sock.idle_closed:
                        # Whatever woke the receive (the server's disconnect for our close,
                        # or a frame that came too late), the socket is closed for idleness.
                        return _disconnect(WS_CLOSE_IDLE, _IDLE_REASON)
                else:
                    message = await receive()
                if message["type"] != "websocket.receive" or not self.enabled:
                    return message
                # Every frame counts, whatever it holds: junk costs the server an answer too.
                if await self.rates.hit("frame", client) is not None:
                    await refuse_frame("too many frames: this socket is closed")
                    return await close(WS_CLOSE_RATE_LIMITED, "rate_limited")
                if _is_action(message.get("text")):
                    if await self.rates.hit("move", client) is not None:
                        await refuse_frame("too many moves: slow down and retry later")
                        continue
                return message

        await self.app(scope, guarded_receive, guarded_send)


def _disconnect(code: int, reason: str) -> Message:
    """What the app's receive gets for a socket the guard closed under it."""
    return {"type": "websocket.disconnect", "code": code, "reason": reason}


async def _close_quietly(send: Send, message: Message) -> None:
    """Send the sweeper's close; a client already gone has its disconnect queued by the
    server anyway, so a failed send has no one to tell."""
    with contextlib.suppress(Exception):  # the server's ClientDisconnected, an OSError
        await send(message)


async def _refuse(
    scope: Scope, receive: Receive, send: Send, exc: AppError, wait: float | None
) -> None:
    """Refuse a websocket before it opens: a 429 where the server can answer HTTP there."""
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await _send_error(_denial(send), exc, wait)
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": exc.code})


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or as much as passes `limit` by one chunk; `None` when the
    client disconnected first."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > limit or not message.get("more_body", False):
            return b"".join(chunks)


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


def install(app: Any, settings: Any) -> None:
    """Wrap a FastAPI app in `Guards`."""
    app.add_middleware(Guards, settings=settings)
