"""Hostile-input guards that no library gives us, as one pure-ASGI middleware (no
`BaseHTTPMiddleware`, so streaming and websockets pass through untouched). Every knob is a
`Settings` field (env prefix `RUMMY_`); docs/operations.md "Limits" says what a client sees.

- A request body over `max_body_bytes` gets 413 before the app sees a byte of it; one that
  has not fully arrived after `body_timeout_seconds` gets 408 (a slowloris client cannot
  hold the server).
- A websocket whose client sent nothing for `ws_idle_seconds` is closed with 4408. One
  sweeper task per middleware finds such sockets, waking every quarter of `ws_idle_seconds`
  (0.1 s to 15 s), so a socket is closed up to that much later than the limit: an
  `asyncio.timeout` around every frame's receive (a timer handle made and cancelled per
  frame) would cost about 3% of the event loop's CPU under load; with the sweeper a frame
  costs its socket a clock read and two stores. The sweeper runs only while accepted
  sockets are open.
- The rates of app/guards/ratelimit.py, by route: room creation, joins, moves and votes (REST and
  websocket) each spend one action of their kind. A failed credential check (401, 403 or
  404 on a room's URL, or the websocket's 44xx close) spends an `auth_fail` action; once
  those run out, every room URL answers that client 429 until the window slides on.
- Every websocket frame, whatever it holds (junk, ping, a refused move), spends a `frame`
  action; over that rate the socket gets an error frame `rate_limited` and is closed with
  4429. Moves and votes are told apart on the parsed frame, never on its text, so an
  escaped key (`{"\\u0074ype": "move"}`) is counted like any other move.
- `ws_max_per_client` open websockets per address (per process); one more gets 429.
- A JSON body that holds a lone surrogate (`"\\ud800"`) gets 422 `invalid_text` before the
  app sees it (docs/api.md v1.3): no route could put it in a database, a seal or an answer.
- A `HEAD` is served as its `GET` without the body (app/guards/head.py), turned into one
  before any guard looks at it: the app has this one middleware, not a second layer for it.

The frame-size cap is uvicorn's `ws_max_size` (1009 "message too big"), set where the
server is configured. `rate_limit_enabled=false` turns off the rates and the socket count.
Clients are keyed by `scope["client"]`, which uvicorn takes from `X-Forwarded-For` when the
connection comes from a trusted proxy (127.0.0.1 by default, `FORWARDED_ALLOW_IPS`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import InvalidText, PayloadTooLarge, RateLimited, RequestTimeout
from app.guards import head
from app.guards.http import (
    AUTH_FAIL_STATUS,
    ROOM_PATH,
    client_of,
    rate_kind,
    read_body,
    send_error,
    with_headers,
)
from app.guards.ratelimit import RateLimits
from app.guards.sockets import IdleSweeper, refuse_socket, serve_socket, socket_state
from rummy_wire.textpolicy import SURROGATE_REFUSAL, json_has_lone_surrogate

_SLOW_DOWN = "too many requests: slow down and retry later"
# When a client at its open-socket cap may try again: one of its sockets must close first,
# which no clock tells; a few seconds keeps a reconnect loop from spinning.
_SOCKETS_RETRY = 5.0


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
        self._sweeper = IdleSweeper(self.ws_idle)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if scope["method"] == "HEAD":
                scope, send = head.as_get(scope, send)  # before any guard: a GET for them
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
                self._sweeper.stop()
            return message

        return lifespan_receive

    # --- rate-limit decisions shared by both protocols -------------------------------

    async def _blocked(self, scope: Scope, kind: str | None) -> tuple[float, str] | None:
        """Seconds to wait and the rate that ran out when this request must be refused,
        else `None` (spends one)."""
        if not self.enabled:
            return None
        client = client_of(scope)
        if ROOM_PATH.match(scope["path"]):
            wait = await self.rates.ask("auth_fail", client, spend=False)
            if wait is not None:
                return wait, "auth_fail"
        if kind is not None:
            wait = await self.rates.ask(kind, client, spend=True)
            if wait is not None:
                return wait, kind
        return None

    async def _failed_check(self, scope: Scope) -> None:
        if self.enabled and ROOM_PATH.match(scope["path"]):
            await self.rates.hit("auth_fail", client_of(scope))

    # --- HTTP ------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = rate_kind(scope["method"], scope["path"])
        blocked = await self._blocked(scope, kind)
        if blocked is not None:
            wait, spent = blocked
            rated = await self.rates.headers(spent, client_of(scope))
            await send_error(send, RateLimited(_SLOW_DOWN), wait, rated)
            return
        if kind is not None and self.enabled:
            # A route with a rate says what is left of it (docs/api.md, "Rate limits").
            send = with_headers(send, await self.rates.headers(kind, client_of(scope)))
        limit = self.max_body_bytes
        too_big = f"the request body exceeds {limit} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await send_error(send, PayloadTooLarge(too_big))
                    return
        try:
            async with asyncio.timeout(self.body_timeout or None):
                body = await read_body(receive, limit)
        except TimeoutError:
            text = f"the request body did not arrive within {self.body_timeout:g} s"
            await send_error(send, RequestTimeout(text))
            return
        if body is None:
            return  # the client went away before sending its body
        if len(body) > limit:
            await send_error(send, PayloadTooLarge(too_big))
            return
        if json_has_lone_surrogate(body):  # no route could answer it but with a 500
            await send_error(send, InvalidText(SURROGATE_REFUSAL))
            return
        replayed = False

        async def replay_receive() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def watch_send(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in AUTH_FAIL_STATUS:
                await self._failed_check(scope)
            await send(message)

        await self.app(scope, replay_receive, watch_send)

    # --- websocket -------------------------------------------------------------------

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        blocked = await self._blocked(scope, None)
        if blocked is not None:
            refusal = RateLimited("too many failed checks")
            await refuse_socket(scope, receive, send, refusal, blocked[0])
            return
        client = client_of(scope)
        cap = self.ws_max_per_client
        if self.enabled and cap > 0 and self._sockets.get(client, 0) >= cap:
            text = f"more than {cap} open websockets from one address"
            await refuse_socket(scope, receive, send, RateLimited(text), _SOCKETS_RETRY)
            return
        self._sockets[client] = self._sockets.get(client, 0) + 1
        sock = socket_state(send)

        async def failed_check() -> None:
            await self._failed_check(scope)

        try:
            await serve_socket(
                self.app,
                scope,
                receive,
                sock,
                client=client,
                rates=self.rates if self.enabled else None,
                sweeper=self._sweeper if self.ws_idle > 0 else None,
                failed_check=failed_check,
            )
        finally:
            self._sockets[client] -= 1
            if not self._sockets[client]:
                del self._sockets[client]
            self._sweeper.unwatch(sock)

    # --- idle sockets: one sweeper instead of a timeout per frame --------------------


def install(app: Any, settings: Any) -> None:
    """Wrap a FastAPI app in `Guards`."""
    app.add_middleware(Guards, settings=settings)
