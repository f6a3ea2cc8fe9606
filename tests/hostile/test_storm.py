"""A connect storm degrades gracefully (app/guards/handshake.py): sockets beyond the ones a
process may have opening at once are refused at once with 503 `unavailable` and a
Retry-After, and are served once the ones ahead of them have their first view. A socket
that waits for its auth frame holds no place meanwhile (docs/api.md v1.3; the silent sockets of
a live server: tests/hostile/test_openings.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import Message


async def test_handshakes_over_the_opening_cap_are_refused_with_retry_after() -> None:
    """The opening gate itself (ASGI, no server): sockets still being served hold their
    places, one more is 503 with Retry-After; a parked one holds none."""
    from app.config import Settings
    from app.guards.handshake import HandshakeGate, park

    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["path"] == "/park":
            park(scope)
        await send({"type": "websocket.accept"})
        await release.wait()
        await send({"type": "websocket.send", "text": "{}"})

    gate = HandshakeGate(app, Settings(ws_max_opening=2))
    sent: list[list[Message]] = []

    async def socket(path: str) -> None:
        out: list[Message] = []
        sent.append(out)

        async def receive() -> Message:
            return {"type": "websocket.connect"}

        async def send(message: Message) -> None:
            out.append(message)

        scope = {"type": "websocket", "path": path, "client": ("127.0.0.9", 1), "headers": []}
        await gate({**scope, "extensions": {"websocket.http.response": {}}}, receive, send)

    parked = [asyncio.create_task(socket("/park")) for _ in range(5)]
    busy = [asyncio.create_task(socket("/work")) for _ in range(2)]
    await asyncio.sleep(0)  # every one of them reaches its accept
    await socket("/work")  # the third socket at work: refused at once
    refusal = sent[-1][0]
    assert refusal["type"] == "websocket.http.response.start" and refusal["status"] == 503
    assert int(dict(refusal["headers"])[b"retry-after"]) >= 1
    assert gate.opening == 2 and gate.waiting == {"127.0.0.9": 5}
    release.set()
    await asyncio.gather(*parked, *busy)
    assert gate.opening == 0 and gate.waiting == {}
