"""A connect storm degrades gracefully (app/guards/handshake.py): sockets beyond the ones a
process may have opening at once are refused at once with 503 `unavailable` and a
Retry-After, and are served once the ones ahead of them have their first view."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hostilekit import full_room
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus


async def test_handshakes_over_the_opening_cap_are_refused_with_retry_after(
    make_server: Any,
) -> None:
    live = make_server(ws_max_opening=2)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, tokens = await full_room(http, "classic", 2, seed=5)
    url = f"{live.ws_url}/api/rooms/{room}/ws"
    # Two sockets opened without their auth frame yet: both are still opening.
    first = await connect(url)
    second = await connect(url)
    try:
        with pytest.raises(InvalidStatus) as refused:
            await connect(url)
        response = refused.value.response
        assert response.status_code == 503
        assert int(response.headers["Retry-After"]) >= 1
        assert json.loads(response.body)["error"]["code"] == "unavailable"
        # The first one authenticates and gets its view: a place frees up.
        await first.send(json.dumps({"type": "auth", "token": tokens[0]}))
        assert json.loads(await first.recv())["type"] in ("state", "presence")
        async with connect(f"{url}?token={tokens[1]}") as third:
            assert json.loads(await third.recv())["type"] in ("state", "presence")
    finally:
        await first.close()
        await second.close()
