"""Chat across two `rummy serve` processes on one PostgreSQL and one Redis: a message
posted on one process reaches the sockets on the other, in order, ids with no gap."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.kit.players import WAIT, SeatSocket, create_room

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def _chats(ws: Any, n: int) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    while len(got) < n:
        frame = json.loads(await ws.recv())
        if frame["type"] == "chat":
            got.append(frame["message"])
    return got


async def test_chat_reaches_sockets_on_the_other_process(pair: Any) -> None:
    a, b = pair
    room, tokens = await create_room(a.url, [b.url], seed=5)
    on_b = await SeatSocket.open(b.url, room, 1, tokens[1])
    watch_url = "ws" + b.url[len("http") :] + f"/api/rooms/{room}/ws?watch=1"
    try:
        async with connect(watch_url, open_timeout=WAIT) as watcher:
            await on_b.latest()
            async with httpx.AsyncClient(timeout=WAIT) as http:
                for i, (url, seat) in enumerate([(a.url, 0), (b.url, 1), (a.url, 0)]):
                    r = await http.post(
                        f"{url}/api/rooms/{room}/chat",
                        json={"text": f"message {i}"},
                        headers={"Authorization": f"Bearer {tokens[seat]}"},
                    )
                    assert r.status_code == 201, r.text
            for ws in (on_b.ws, watcher):
                got = await _chats(ws, 3)
                assert [m["text"] for m in got] == ["message 0", "message 1", "message 2"]
                assert [m["id"] for m in got] == [1, 2, 3]
                assert [m["seat"] for m in got] == [0, 1, 0]
    finally:
        await on_b.close()
