"""What the guards answer below FastAPI, and how they read a request: the error answer
(docs/api.md's error shape, `Retry-After` on 429), the body read under a size cap, the client's
address and which rate a request spends (app/guards/middleware.py)."""

from __future__ import annotations

import math
import re

from starlette.types import Message, Receive, Scope, Send

from app.errors import AppError, error_json

ROOM_PATH = re.compile(r"^/api/rooms/[^/]+(?:/.*)?$")
_JOIN_PATH = re.compile(r"^/api/rooms/[^/]+/join/?$")
_MOVE_PATH = re.compile(r"^/api/rooms/[^/]+/(?:moves|votes)/?$")
# Requests that make a room, or (POST /api/replays) replay a whole sent hand: the costly
# ones, counted together under the create rate.
_CREATE_PATHS = frozenset(
    {"/api/rooms", "/api/rooms/", "/api/challenges", "/api/challenges/", "/api/replays"}
)
# A challenge's entry makes a room too (app/social/challenges.py): counted as a create.
_CHALLENGE_PLAY_PATH = re.compile(r"^/api/challenges/[^/]+/play/?$")
# Answers that always carry Retry-After (docs/api.md v1.3).
RETRY_STATUS = frozenset({429, 503})
# Responses that mean "your credential or room id was wrong".
AUTH_FAIL_STATUS = frozenset({401, 403, 404})


async def send_error(
    send: Send,
    exc: AppError,
    retry: float | None = None,
    extra: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """Answer `exc` in docs/api.md's error shape, with `extra` headers; a 429 or 503 always says
    when to try again (`retry` seconds, else 1: docs/api.md v1.3)."""
    status, body = error_json(exc)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(extra or ()),
    ]
    if retry is None and status in RETRY_STATUS:
        retry = 1
    if retry is not None:
        headers.append((b"retry-after", str(max(1, math.ceil(retry))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def with_headers(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    """`send`, adding `headers` to the answer's start."""
    if not headers:
        return send

    async def send_with(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *headers]}
        await send(message)

    return send_with


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def rate_kind(method: str, path: str) -> str | None:
    if method != "POST":
        return None
    if path in _CREATE_PATHS or _CHALLENGE_PLAY_PATH.match(path):
        return "create"
    if _JOIN_PATH.match(path):
        return "join"
    if _MOVE_PATH.match(path):
        return "move"
    return None


async def read_body(receive: Receive, limit: int) -> bytes | None:
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
