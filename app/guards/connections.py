"""The uvicorn server every entry point runs (`rummy serve`, the tests' in-thread server),
with two guards uvicorn lacks at the connection level:

- a header timeout: a request head (request line and headers) not complete within
  `header_timeout_seconds` of the connection opening, or of the first byte of the next
  request on a kept-alive connection, gets 408 and the connection is closed. uvicorn only
  times out connections idle *between* requests (`timeout_keep_alive`), so a client that
  sends half a head and then trickles or stops would hold its connection forever.
- a cap on open HTTP connections per client address (`max_connections_per_client`, 0 for
  none, off with `rate_limit_enabled`): one over it gets 429 and is closed as soon as its
  first bytes show a plain request. A connection upgraded to a websocket leaves this count
  (uvicorn's own connection set does the same); open sockets per address have their own
  cap, `ws_max_per_client`. So that cap, not this one, bounds a burst of websocket
  handshakes (2,000 sockets opened at once from one address would be refused at 64 while
  their upgrade requests are still on the way), a connection over the HTTP cap may still send
  an upgrade, up to `ws_max_per_client` more connections than the HTTP cap; past that it
  is refused on arrival.

The address is the TCP peer's: behind a reverse proxy on the same host every client
shares the proxy's address, so raise the cap (or set 0) and let the proxy cap connections.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import Counter
from typing import Any

import uvicorn
from uvicorn.server import ServerState

from app.config import Settings
from app.errors import AppError, RateLimited, RequestTimeout, error_json

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _BaseProtocol
except ImportError:  # pragma: no cover - uvicorn without httptools
    from uvicorn.protocols.http.h11_impl import H11Protocol as _BaseProtocol  # type: ignore[assignment]

# The head of a request, as uvicorn's h11 protocol already bounds it by default; explicit
# here so both protocols are documented in one place (httptools bounds it in llhttp).
MAX_HEAD_BYTES = 16 * 1024
# Idle time allowed between two requests on one connection (uvicorn's default).
KEEP_ALIVE_SECONDS = 5

# Open connections per client address, one counter per running server.
_open: weakref.WeakKeyDictionary[ServerState, Counter[str]] = weakref.WeakKeyDictionary()


class GuardedConfig(uvicorn.Config):
    """uvicorn's Config plus the two guards' limits (picklable, for `--workers`)."""

    def __init__(
        self,
        app: Any,
        *,
        header_timeout: float,
        max_per_client: int,
        handshakes_per_client: int = 0,
        **options: Any,
    ) -> None:
        super().__init__(app, http=GuardedHttpProtocol, **options)
        self.header_timeout = header_timeout
        self.max_per_client = max_per_client
        self.handshakes_per_client = handshakes_per_client


def server_config(app: Any, settings: Settings, **options: Any) -> GuardedConfig:
    """The one place a uvicorn Config is built: `app` (an app or an import string) with
    the guards from `settings` and the caller's `options` (host, port, log level...)."""
    defaults: dict[str, Any] = {
        # The access log would print websocket URLs, and they carry seat tokens.
        "access_log": False,
        "ws_max_size": settings.ws_max_frame_bytes,
        # A view is under 1 KB of JSON: compressing every frame cost more CPU (on the
        # server and on every client) than the bytes it saved.
        "ws_per_message_deflate": False,
        "lifespan": "on",
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
    }
    return GuardedConfig(
        app,
        header_timeout=settings.header_timeout_seconds,
        # A per-address limit like the rates: off with them (bench/load.py runs every
        # client from one address).
        max_per_client=settings.max_connections_per_client if settings.rate_limit_enabled else 0,
        handshakes_per_client=settings.ws_max_per_client,
        **{**defaults, **options},
    )


def _refusal(reason: str, exc: AppError) -> bytes:
    status, body = error_json(exc)
    # Every 429 says when to try again (docs/api.md v1.3): once one of its connections closed.
    retry = "retry-after: 1\r\n" if status == 429 else ""
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n{retry}"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class GuardedHttpProtocol(_BaseProtocol):
    """uvicorn's HTTP/1.1 protocol with the header timeout and the per-address cap."""

    config: GuardedConfig
    _head_timer: asyncio.TimerHandle | None = None
    _cycle_at_arm: Any = None
    _counted: str | None = None  # the address this connection is counted under
    _over_cap = False  # over the HTTP cap: served only if it turns out a websocket upgrade

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        cap = self.config.max_per_client
        if address is not None and cap > 0:
            counts = _open.setdefault(self.server_state, Counter())
            if counts[address] >= cap:
                if counts[address] >= cap + self.config.handshakes_per_client:
                    self._refuse_over_cap(transport, cap)
                    return
                self._over_cap = True
            counts[address] += 1
            self._counted = address
        self._arm_head_timer()

    def _refuse_over_cap(self, transport: asyncio.Transport, cap: int) -> None:
        message = f"more than {cap} open connections from one address"
        transport.write(_refusal("Too Many Requests", RateLimited(message)))
        transport.close()

    def data_received(self, data: bytes) -> None:
        if self._over_cap:
            self._over_cap = False
            if b"websocket" not in data.lower():  # a plain request: the HTTP cap holds
                self._cancel_head_timer()
                self._refuse_over_cap(self.transport, self.config.max_per_client)
                return
        if self._head_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._arm_head_timer()  # the first byte of the next request on this connection
        super().data_received(data)
        if self.transport.get_protocol() is not self:
            # Upgraded to a websocket: no longer an HTTP connection of this address.
            self._cancel_head_timer()
            self._release()
        elif self._head_timer is not None and self.cycle is not self._cycle_at_arm:
            self._cancel_head_timer()  # the head is complete: a new request cycle began

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._release()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        timeout = self.config.header_timeout
        if timeout > 0:
            self._cycle_at_arm = self.cycle
            self._head_timer = self.loop.call_later(timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            message = f"the request head did not arrive within {self.config.header_timeout:g} s"
            self.transport.write(_refusal("Request Timeout", RequestTimeout(message)))
            self.transport.close()

    def _release(self) -> None:
        if self._counted is not None:
            counts = _open.get(self.server_state)
            if counts is not None:
                counts[self._counted] -= 1
                if counts[self._counted] <= 0:
                    del counts[self._counted]
            self._counted = None
