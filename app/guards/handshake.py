"""Connect storms that degrade gracefully: websocket handshakes beyond what this process
can serve now are refused at once, 503 `unavailable` with `Retry-After`, instead of queueing.

At load 17 a storm of 6,000 sockets took 396 s instead of 15: handshakes queued behind
each other on a slow event loop, timed out on the client side after the server had done
their work, and were retried, so the storm fed on itself (set-up CPU per room 7.9 -> 39.5
ms). Now at most `ws_max_opening` sockets per process may be opening at once: from the
handshake's arrival to the socket's first frame out (its first view, or its refusal). One
more is refused before the app sees it, which costs the process almost nothing, and its
client waits `Retry-After` (1 s, more the longer the queue) with jitter and tries again
(web/js/api.js, bots/client.py through websockets' own backoff, bench/load.py).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import Unavailable, error_json
from app.metrics import M


class HandshakeGate:
    """Pure-ASGI middleware counting the websockets that are opening."""

    def __init__(self, app: ASGIApp, settings: Any) -> None:
        self.app = app
        self.limit: int = settings.ws_max_opening
        self.opening = 0
        self.refused = 0  # since start (a figure for benches and logs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or self.limit <= 0:
            await self.app(scope, receive, send)
            return
        if self.opening >= self.limit:
            self.refused += 1
            M.handshakes_refused.inc()
            await _refuse(scope, receive, send, 1 + self.opening / self.limit)
            return
        self.opening += 1
        opened = [False]

        def done() -> None:
            if not opened[0]:
                opened[0] = True
                self.opening -= 1

        async def counting_send(message: Message) -> None:
            # The first frame out (a view, an error) or a close: this socket is served.
            if message["type"] in ("websocket.send", "websocket.close"):
                done()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            done()


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


async def _refuse(scope: Scope, receive: Receive, send: Send, retry: float) -> None:
    await receive()  # websocket.connect
    status, body = error_json(Unavailable("too many sockets opening at once: try again soon"))
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
