"""Hostile-input limits: request body and websocket frame caps, per-client rate limits and
idle websocket timeouts, as one pure-ASGI middleware (no `BaseHTTPMiddleware`, so streaming
and websockets pass through untouched).

What it enforces, all configurable through `Settings` (env prefix `RUMMY_`):

- `max_body_bytes`: a request body above it gets 413 `payload_too_large` before the app
  sees a byte of it (the body is buffered up to the cap, then replayed to the app).
- `body_timeout_seconds`: a body that has not fully arrived by then gets 408
  `request_timeout` (a slowloris client cannot hold the server).
- `ws_max_frame_bytes`: a websocket message above it closes the socket with 1009
  ("message too big"). `rummy serve` also passes it to uvicorn as `ws_max_size`.
- `ws_idle_seconds`: a websocket whose client sent nothing for that long is closed with
  4408 ("idle timeout"). Clients keep a socket open by sending `{"type": "ping"}`.
- `rate_create`, `rate_join`, `rate_move`, `rate_auth_fail`: token buckets per client IP,
  written `"<count>/<period>"` (period `second`, `minute`, `hour` or `<n>s`; `"off"` turns
  one off). Room creation, joins and moves/votes (REST and websocket) each spend one token.
  A failed credential check (401, 403 or 404 on a room's URL: a wrong token, another
  room's token, a guessed room id) spends an `auth_fail` token; once those run out, every
  request to a room's URL from that client gets 429 `rate_limited` until the bucket refills.
  An exhausted bucket answers 429 with a `Retry-After` header; on a websocket, a move
  over the limit is answered with an error frame `rate_limited` and not applied.
- `ws_max_per_client`: open websockets per client address; one more is refused with
  HTTP 429 before it opens.
- `rate_limit_enabled`: the master switch of the rates and the websocket count
  (benchmarks that hammer one server from one address turn it off).

The limiter is in memory and per process, like the hub: behind several workers each one
counts on its own. Clients are keyed by `scope["client"]`, which uvicorn takes from
`X-Forwarded-For` when the connection comes from a trusted proxy (127.0.0.1 by default,
`FORWARDED_ALLOW_IPS` for others).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

WS_CLOSE_TOO_BIG = 1009
WS_CLOSE_IDLE = 4408

_PERIODS = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0}
_PERIODS |= {"h": 3600.0, "hour": 3600.0}

_ROOM_PATH = re.compile(r"^/api/rooms/[^/]+(?:/.*)?$")
_JOIN_PATH = re.compile(r"^/api/rooms/[^/]+/join/?$")
_MOVE_PATH = re.compile(r"^/api/rooms/[^/]+/(?:moves|votes)/?$")
_CREATE_PATHS = frozenset({"/api/rooms", "/api/rooms/"})
# Responses that mean "your credential or room id was wrong".
_AUTH_FAIL_STATUS = frozenset({401, 403, 404})
# Close codes our websocket endpoint uses for the same failures (policy violation and the
# 44xx mirrors of the HTTP statuses).
_AUTH_FAIL_CLOSE = frozenset({1008, 4401, 4403, 4404})


@dataclass(frozen=True)
class Rate:
    """A token bucket's shape: `capacity` tokens, refilled at `per_second`."""

    capacity: float
    per_second: float

    @classmethod
    def parse(cls, spec: str) -> Rate | None:
        """Read `"<count>/<period>"`; `None` for `"off"`, `"0"` or an empty string.

        Raises:
            ValueError: not a rate.

        >>> Rate.parse("120/minute")
        Rate(capacity=120.0, per_second=2.0)
        >>> Rate.parse("5/10s")
        Rate(capacity=5.0, per_second=0.5)
        >>> Rate.parse("off") is None
        True
        """
        text = spec.strip().lower()
        if text in ("", "0", "off", "none", "unlimited"):
            return None
        count_text, sep, period_text = text.partition("/")
        count = float(count_text)
        if not sep or count <= 0 or not math.isfinite(count):
            raise ValueError(f"not a rate: {spec!r} (write e.g. '60/minute')")
        if period_text in _PERIODS:
            seconds = _PERIODS[period_text]
        elif period_text.endswith("s") and period_text[:-1].replace(".", "", 1).isdigit():
            seconds = float(period_text[:-1])
        else:
            raise ValueError(f"not a rate period: {period_text!r} in {spec!r}")
        if seconds <= 0:
            raise ValueError(f"not a rate period: {period_text!r} in {spec!r}")
        return cls(capacity=count, per_second=count / seconds)


class RateLimiter:
    """Token buckets keyed by (kind, client); forgets the least recently used client once
    it tracks `max_keys`, so a flood of addresses cannot grow memory without bound."""

    def __init__(
        self,
        rates: dict[str, Rate | None],
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 65536,
    ) -> None:
        self.rates = rates
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: OrderedDict[tuple[str, str], list[float]] = OrderedDict()

    def _bucket(self, kind: str, client: str, rate: Rate) -> list[float]:
        key = (kind, client)
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = [rate.capacity, now]
            self._buckets[key] = bucket
            if len(self._buckets) > self._max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket[0] = min(rate.capacity, bucket[0] + (now - bucket[1]) * rate.per_second)
            bucket[1] = now
        return bucket

    def retry_after(self, kind: str, client: str) -> float | None:
        """Seconds until `client` may act as `kind` again; `None` when it may now."""
        rate = self.rates.get(kind)
        if rate is None:
            return None
        tokens = self._bucket(kind, client, rate)[0]
        if tokens >= 1.0:
            return None
        return (1.0 - tokens) / rate.per_second

    def hit(self, kind: str, client: str) -> float | None:
        """Spend one token. Returns `None` when allowed, else the seconds to wait."""
        rate = self.rates.get(kind)
        if rate is None:
            return None
        bucket = self._bucket(kind, client, rate)
        if bucket[0] >= 1.0:
            bucket[0] -= 1.0
            return None
        return (1.0 - bucket[0]) / rate.per_second

    def charge(self, kind: str, client: str) -> None:
        """Spend one token even when none is left (a failure that already happened)."""
        rate = self.rates.get(kind)
        if rate is not None:
            bucket = self._bucket(kind, client, rate)
            bucket[0] = max(bucket[0] - 1.0, -rate.capacity)


@dataclass(frozen=True)
class Limits:
    """Every knob of `LimitsMiddleware`; built from `Settings` by `from_settings`."""

    max_body_bytes: int = 64 * 1024
    ws_max_frame_bytes: int = 64 * 1024
    ws_idle_seconds: float = 600.0
    body_timeout_seconds: float = 30.0
    ws_max_per_client: int = 256
    rate_limit_enabled: bool = True
    rates: dict[str, Rate | None] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Any) -> Limits:
        """Read the limit fields of `app.config.Settings` (defaults for any it lacks)."""
        base = cls()

        def get(name: str, default: Any) -> Any:
            return getattr(settings, name, default)

        rates = {
            kind: Rate.parse(str(get(f"rate_{kind}", spec))) for kind, spec in DEFAULT_RATES.items()
        }
        return cls(
            max_body_bytes=int(get("max_body_bytes", base.max_body_bytes)),
            ws_max_frame_bytes=int(get("ws_max_frame_bytes", base.ws_max_frame_bytes)),
            ws_idle_seconds=float(get("ws_idle_seconds", base.ws_idle_seconds)),
            body_timeout_seconds=float(get("body_timeout_seconds", base.body_timeout_seconds)),
            ws_max_per_client=int(get("ws_max_per_client", base.ws_max_per_client)),
            rate_limit_enabled=bool(get("rate_limit_enabled", base.rate_limit_enabled)),
            rates=rates,
        )


# Generous enough for a room of friends behind one NAT and for the test suite, which drives
# the server from 127.0.0.1; tight enough that one address cannot flood rooms or guess
# credentials at speed (a 128-bit token or a 64-bit room id is out of reach either way).
DEFAULT_RATES: dict[str, str] = {
    "create": "600/minute",
    "join": "1200/minute",
    "move": "6000/minute",
    "auth_fail": "600/minute",
}


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


async def _send_error(
    send: Send, status: int, code: str, message: str, retry: float | None
) -> None:
    body = _error_body(code, message)
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


class _Closed(Exception):
    """The middleware closed the websocket; the app is told it disconnected."""


class LimitsMiddleware:
    """Pure ASGI middleware applying `Limits` to HTTP requests and websockets."""

    def __init__(self, app: ASGIApp, limits: Limits, limiter: RateLimiter | None = None):
        self.app = app
        self.limits = limits
        self.limiter = limiter or RateLimiter(limits.rates)
        self._sockets: dict[str, int] = {}  # open websockets by client address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # --- rate-limit decisions shared by both protocols -------------------------------

    def _rate_kind(self, method: str, path: str) -> str | None:
        if method != "POST":
            return None
        if path in _CREATE_PATHS:
            return "create"
        if _JOIN_PATH.match(path):
            return "join"
        if _MOVE_PATH.match(path):
            return "move"
        return None

    def _blocked(self, scope: Scope, kind: str | None) -> float | None:
        """Seconds to wait when this request must be refused, else `None` (spends a token)."""
        if not self.limits.rate_limit_enabled:
            return None
        client = _client(scope)
        if _ROOM_PATH.match(scope["path"]):
            wait = self.limiter.retry_after("auth_fail", client)
            if wait is not None:
                return wait
        if kind is not None:
            return self.limiter.hit(kind, client)
        return None

    def _failed_check(self, scope: Scope) -> None:
        if self.limits.rate_limit_enabled and _ROOM_PATH.match(scope["path"]):
            self.limiter.charge("auth_fail", _client(scope))

    # --- HTTP ------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        wait = self._blocked(scope, self._rate_kind(scope["method"], scope["path"]))
        if wait is not None:
            await _send_error(
                send, 429, "rate_limited", "too many requests: slow down and retry later", wait
            )
            return
        limit = self.limits.max_body_bytes
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await _send_error(send, 413, "payload_too_large", _too_big_text(limit), None)
                    return
        try:
            async with asyncio.timeout(self.limits.body_timeout_seconds or None):
                body = await _read_body(receive, limit)
        except TimeoutError:
            # A body trickling in byte by byte would hold a worker forever (slowloris).
            text = f"the request body did not arrive within {self.limits.body_timeout_seconds:g} s"
            await _send_error(send, 408, "request_timeout", text, None)
            return
        if body is None:
            return  # the client went away before sending its body
        if len(body) > limit:
            await _send_error(send, 413, "payload_too_large", _too_big_text(limit), None)
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
                self._failed_check(scope)
            await send(message)

        await self.app(scope, replay_receive, watch_send)

    # --- websocket -------------------------------------------------------------------

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        wait = self._blocked(scope, None)
        if wait is not None:
            await receive()  # websocket.connect
            if "websocket.http.response" in scope.get("extensions", {}):
                await _send_error(
                    _denial(send), 429, "rate_limited", "too many failed checks", wait
                )
            else:
                await send({"type": "websocket.close", "code": 1008, "reason": "rate_limited"})
            return
        client = _client(scope)
        cap = self.limits.ws_max_per_client
        if self.limits.rate_limit_enabled and cap > 0 and self._sockets.get(client, 0) >= cap:
            await receive()  # websocket.connect
            text = f"more than {cap} open websockets from one address"
            if "websocket.http.response" in scope.get("extensions", {}):
                await _send_error(_denial(send), 429, "rate_limited", text, None)
            else:
                await send({"type": "websocket.close", "code": 1008, "reason": "rate_limited"})
            return
        self._sockets[client] = self._sockets.get(client, 0) + 1
        try:
            await self._open_websocket(scope, receive, send, client)
        finally:
            self._sockets[client] -= 1
            if not self._sockets[client]:
                del self._sockets[client]

    async def _open_websocket(
        self, scope: Scope, receive: Receive, send: Send, client: str
    ) -> None:
        state = {"accepted": False, "closed": False}
        limits = self.limits

        async def guarded_send(message: Message) -> None:
            kind = message["type"]
            if state["closed"]:
                return  # we closed the socket under the app; drop what it still sends
            if kind == "websocket.accept":
                state["accepted"] = True
            elif kind == "websocket.close":
                state["closed"] = True
                if not state["accepted"] or message.get("code") in _AUTH_FAIL_CLOSE:
                    if message.get("code", 1000) != 1000:
                        self._failed_check(scope)
            elif kind == "websocket.http.response.start":
                if message.get("status") in _AUTH_FAIL_STATUS:
                    self._failed_check(scope)
            await send(message)

        async def close(code: int, reason: str) -> Message:
            if not state["closed"]:
                state["closed"] = True
                await send({"type": "websocket.close", "code": code, "reason": reason})
            return {"type": "websocket.disconnect", "code": code, "reason": reason}

        async def guarded_receive() -> Message:
            while True:
                if state["closed"]:
                    return {"type": "websocket.disconnect", "code": 1000}
                if state["accepted"] and limits.ws_idle_seconds > 0:
                    try:
                        message = await asyncio.wait_for(receive(), limits.ws_idle_seconds)
                    except TimeoutError:
                        return await close(WS_CLOSE_IDLE, "idle timeout")
                else:
                    message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                data = message.get("text")
                if data is not None:
                    size = len(data.encode("utf-8", "surrogatepass"))
                else:
                    size = len(message.get("bytes") or b"")
                if size > limits.ws_max_frame_bytes:
                    return await close(WS_CLOSE_TOO_BIG, "message too big")
                if data is not None and limits.rate_limit_enabled and _is_action(data):
                    wait = self.limiter.hit("move", client)
                    if wait is not None:
                        frame = {
                            "type": "error",
                            "error": {
                                "code": "rate_limited",
                                "message": "too many moves: slow down and retry later",
                            },
                        }
                        await guarded_send({"type": "websocket.send", "text": json.dumps(frame)})
                        continue
                return message

        await self.app(scope, guarded_receive, guarded_send)


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


def _too_big_text(limit: int) -> str:
    return f"the request body exceeds {limit} bytes"


def _denial(send: Send) -> Send:
    """Adapt an HTTP response to the websocket denial-response messages."""

    async def denial_send(message: Message) -> None:
        await send({**message, "type": message["type"].replace("http.", "websocket.http.", 1)})

    return denial_send


def _is_action(text: str) -> bool:
    """Whether a websocket message is a move or a vote (what the `move` bucket counts)."""
    if '"type"' not in text:
        return False
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # the app answers it with invalid_request
        return False
    return isinstance(data, dict) and data.get("type") in ("move", "vote")


def _error_schema_ref(schema: dict[str, Any]) -> dict[str, Any]:
    """The app's error-body component if it has one, else an inline equivalent."""
    for name, component in schema.get("components", {}).get("schemas", {}).items():
        if "error" in component.get("properties", {}) and "error" in component.get("required", ()):
            return {"$ref": f"#/components/schemas/{name}"}
    detail = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }
    return {"type": "object", "properties": {"error": detail}, "required": ["error"]}


# The errors API.md lists, by the kind of operation that can answer them.
_ROOM_ERRORS = {
    "404": "No such room (`room_not_found`)",
    "410": "The room expired (`room_expired`)",
}
_SEAT_ERRORS = {
    "401": "Missing or unknown seat token (`unauthorized`)",
    "403": "A token of another room (`forbidden`)",
}
_CONFLICT = {"409": "Stale `version`, not your turn or room full (`stale_version`, ...)"}
_CREATE_ERRORS = {"403": "A fixed seed or deal without RUMMY_ALLOW_FIXED_DEALS (`forbidden`)"}


def _require_discriminators(openapi: dict[str, Any]) -> None:
    """A discriminated union's tag is required on the wire even when the model gives it a
    default (`Draw.type = "draw"`): say so, or clients build moves the server refuses."""
    components = openapi.get("components", {}).get("schemas", {})

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            tag = node.get("discriminator", {}).get("propertyName")
            for ref in node.get("discriminator", {}).get("mapping", {}).values():
                target = components.get(ref.rsplit("/", 1)[-1])
                if target is not None and tag in target.get("properties", {}):
                    required = target.setdefault("required", [])
                    if tag not in required:
                        required.insert(0, tag)
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(openapi)


def document_limits(openapi: dict[str, Any]) -> dict[str, Any]:
    """Add every error answer an operation can give to its OpenAPI responses: the 413 and
    429 of this middleware, and the 401/403/404/409/410 of API.md's error table (kept when
    a route documents them itself). Also marks discriminator tags required."""
    _require_discriminators(openapi)
    ref = _error_schema_ref(openapi)
    for path, item in openapi.get("paths", {}).items():
        concrete = path.replace("{", "x").replace("}", "x")
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            errors: dict[str, str] = {}
            if method in ("post", "put", "patch"):
                errors["408"] = "The body did not arrive in time (`request_timeout`)"
                errors["413"] = "Request body too large (`payload_too_large`)"
            if _ROOM_PATH.match(concrete):
                errors |= _ROOM_ERRORS
                if operation.get("security"):
                    errors |= _SEAT_ERRORS
                if method == "post":
                    errors |= _CONFLICT
            if path in _CREATE_PATHS and method == "post":
                errors |= _CREATE_ERRORS
            if _ROOM_PATH.match(concrete) or path in _CREATE_PATHS:
                errors["429"] = "Too many requests from this client (`rate_limited`)"
            for status, text in errors.items():
                answer: dict[str, Any] = {
                    "description": text,
                    "content": {"application/json": {"schema": ref}},
                }
                if status == "429":
                    answer["headers"] = {"Retry-After": {"schema": {"type": "integer"}}}
                responses.setdefault(status, answer)
    return openapi


def install(app: Any, settings: Any) -> None:
    """Wrap a FastAPI app in `LimitsMiddleware` and document its answers in the OpenAPI."""
    limits = Limits.from_settings(settings)
    app.add_middleware(LimitsMiddleware, limits=limits)
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_limits(generate())
        schema: dict[str, Any] = app.openapi_schema
        return schema

    app.openapi = openapi
