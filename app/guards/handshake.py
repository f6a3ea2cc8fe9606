"""Connect storms that degrade gracefully: websocket handshakes beyond what this process
can serve now are refused at once, 503 `unavailable` with `Retry-After`, instead of queueing.

Queued, handshakes wait behind each other on a slow event loop, time out on the client
side after the server has done their work, and are retried, so a storm feeds on itself (at
load 17, 6,000 sockets took 396 s instead of 15; set-up CPU per room 7.9 -> 39.5 ms). So
at most `ws_max_opening` sockets per process may be opening at once: from the
handshake's arrival to the socket's first frame out (its first view, or its refusal). One
more is refused before the app sees it, which costs the process almost nothing, and its
client waits `Retry-After` (1 s, more the longer the queue) with jitter and tries again
(web/js/api.js, bots/client.py through websockets' own backoff, bench/load.py).

Silence holds no place (docs/api.md v1.3 "Websocket openings"). A socket that waits for its auth
frame costs nothing while it waits; counted as opening until its first frame out, eight
silent sockets would shut the door on every seat for the 10 s of the auth deadline
(`RUMMY_WS_MAX_OPENING=8`). So the app `park`s a socket before it waits for its auth frame:
it gives its place back, counts among its address's waiting sockets (at most
`ws_max_waiting_per_client`; one more from that address is refused 429 with
`Retry-After`), and counts as opening again only once its frame arrives, until it is
served. A silent one is closed 4401 after `ws_auth_seconds` (app/api/ws.py).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import AppError, RateLimited, Unavailable, error_json
from app.guards.http import client_of
from app.metrics import M

# The scope key under which a socket's `_Place` reaches the app (`park`).
PLACE = "rummy.opening"


class _Place:
    """One socket's standing at the gate: opening (it holds a place), parked (waiting for
    its client's first frame, no place held) or served (nothing held any more)."""

    __slots__ = ("gate", "client", "state")

    def __init__(self, gate: HandshakeGate, client: str) -> None:
        self.gate, self.client, self.state = gate, client, "opening"
        gate.opening += 1

    def park(self) -> None:
        if self.state == "opening":
            self.gate.opening -= 1
            self.gate.waiting[self.client] = self.gate.waiting.get(self.client, 0) + 1
            self.state = "parked"

    def heard(self) -> None:
        """The client's first frame came: opening again until it is served."""
        if self.state == "parked":
            self._unpark()
            self.gate.opening += 1
            self.state = "opening"

    def served(self) -> None:
        if self.state == "opening":
            self.gate.opening -= 1
        elif self.state == "parked":
            self._unpark()
        self.state = "served"

    def _unpark(self) -> None:
        left = self.gate.waiting[self.client] - 1
        if left:
            self.gate.waiting[self.client] = left
        else:
            del self.gate.waiting[self.client]


def park(scope: Scope) -> None:
    """The app is about to wait for this socket's first frame: it holds no place meanwhile."""
    place = scope.get(PLACE)
    if isinstance(place, _Place):
        place.park()


class HandshakeGate:
    """Pure-ASGI middleware counting the websockets that are opening."""

    def __init__(self, app: ASGIApp, settings: Any) -> None:
        self.app = app
        self.limit: int = settings.ws_max_opening
        self.waiting_cap: int = settings.ws_max_waiting_per_client
        self.auth_seconds: float = settings.ws_auth_seconds
        self.opening = 0
        self.waiting: dict[str, int] = {}  # parked sockets by client address
        self.refused = 0  # since start (a figure for benches and logs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or self.limit <= 0:
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        if self.waiting_cap > 0 and self.waiting.get(client, 0) >= self.waiting_cap:
            self.refused += 1
            text = f"more than {self.waiting_cap} sockets of this address wait for their auth frame"
            await _refuse(scope, receive, send, RateLimited(text), self.auth_seconds)
            return
        if self.opening >= self.limit:
            self.refused += 1
            M.handshakes_refused.inc()
            busy = Unavailable("too many sockets opening at once: try again soon")
            await _refuse(scope, receive, send, busy, 1 + self.opening / self.limit)
            return
        place = _Place(self, client)

        async def counting_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                place.heard()
            return message

        async def counting_send(message: Message) -> None:
            # The first frame out (a view, an error) or a close: this socket is served.
            if message["type"] in ("websocket.send", "websocket.close"):
                place.served()
            await send(message)

        try:
            await self.app({**scope, PLACE: place}, counting_receive, counting_send)
        finally:
            place.served()


class _DenialNoise(logging.Filter):
    """uvicorn's sans-I/O websocket server sends a denial response correctly but then logs
    "ASGI callable returned without completing handshake." for it (it marks only accepted or
    closed handshakes complete): one such line is dropped per refusal sent here, so a storm
    does not fill the log with errors that are not (and a real one still shows)."""

    def __init__(self) -> None:
        super().__init__()
        self.pending = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if self.pending and record.getMessage().startswith("ASGI callable returned without"):
            self.pending -= 1
            return False
        return True


_noise = _DenialNoise()


async def _refuse(scope: Scope, receive: Receive, send: Send, exc: AppError, retry: float) -> None:
    await receive()  # websocket.connect
    status, body = error_json(exc)
    if "websocket.http.response" not in scope.get("extensions", {}):
        # 1013, "try again later": for servers without denial responses.
        await send({"type": "websocket.close", "code": 1013, "reason": "try again later"})
        return
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(math.ceil(retry)).encode()),
    ]
    await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
    _noise.pending += 1
    await send({"type": "websocket.http.response.body", "body": body})


def install(app: Any, settings: Any) -> None:
    """Wrap a FastAPI app (outermost: a refusal costs nothing else)."""
    app.add_middleware(HandshakeGate, settings=settings)
    uvicorn_errors = logging.getLogger("uvicorn.error")
    if _noise not in uvicorn_errors.filters:
        uvicorn_errors.addFilter(_noise)
