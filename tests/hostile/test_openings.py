"""Silence cannot fill the door (docs/api.md v1.3 "Websocket openings"). On a869841 a socket that
sent no auth frame counted as opening for the 10 s of the auth deadline: with
`RUMMY_WS_MAX_OPENING=8` eight silent sockets made every seat's socket get 503 until they
were closed. Now a socket waiting for its auth frame holds no opening place (at most
`ws_max_waiting_per_client` wait per address, one more is 429), a seat's socket is served at
once, and every 429 and 503 the server sends, REST or socket opening, carries Retry-After."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from tests.kit.clients import bearer
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room

SCOUT = "127.0.0.2"  # the silent address; the seats connect from 127.0.0.1


@contextlib.asynccontextmanager
async def _silent(url: str, n: int, address: str = SCOUT) -> AsyncIterator[list[ClientConnection]]:
    """`n` sockets opened from `address` that send nothing."""
    sockets = [await connect(url, local_addr=(address, 0)) for _ in range(n)]
    try:
        yield sockets
    finally:
        for ws in sockets:
            await ws.close()


async def _first_view(ws: ClientConnection) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "state":
                return dict(frame["state"])


async def test_silent_sockets_delay_no_other_address(make_server: Any) -> None:
    live = make_server(ws_max_opening=8)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=5)
    url = f"{live.ws_url}/api/rooms/{room}/ws"
    async with _silent(url, 8):
        # By ?token=, and by the auth frame: each is served at once, no 503.
        async with connect(f"{url}?token={tokens[0]}") as seat:
            assert (await _first_view(seat))["seat"] == 0
        async with connect(url) as seat:
            await seat.send(json.dumps({"type": "auth", "token": tokens[1]}))
            assert (await _first_view(seat))["seat"] == 1
        # The silent ones are still open, and would still be served if they spoke.
        async with _silent(url, 8):
            async with connect(f"{url}?watch=1") as watcher:
                assert (await _first_view(watcher))["seat"] is None


async def test_one_address_may_keep_only_a_few_sockets_waiting(make_server: Any) -> None:
    live = make_server(ws_max_waiting_per_client=3, ws_auth_seconds=30)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=5)
    url = f"{live.ws_url}/api/rooms/{room}/ws"
    async with _silent(url, 3) as waiting:
        with pytest.raises(InvalidStatus) as refused:
            await connect(url, local_addr=(SCOUT, 0))
        response = refused.value.response
        assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1
        assert json.loads(response.body)["error"]["code"] == "rate_limited"
        async with connect(f"{url}?token={tokens[0]}") as seat:  # another address
            assert (await _first_view(seat))["seat"] == 0
        # One of the waiting ones speaks: its place among the waiting is free again.
        await waiting[0].send(json.dumps({"type": "auth", "token": tokens[1]}))
        assert (await _first_view(waiting[0]))["seat"] == 1
        async with _silent(url, 1):
            pass


async def test_a_silent_socket_is_closed_4401_soon(make_server: Any) -> None:
    live = make_server(ws_auth_seconds=0.5)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, _ = await online_room(http, "classic", 2, seed=5)
    async with connect(f"{live.ws_url}/api/rooms/{room}/ws") as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert frame["error"]["code"] == "unauthorized"
        await asyncio.wait_for(ws.wait_closed(), 30)
        assert ws.close_code == 4401


async def test_every_429_and_503_says_when_to_retry(make_server: Any) -> None:
    live = make_server(rate_limit_enabled=True, ws_max_per_client=2)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=5)
        # Chat's own limit: 10 messages per seat in 10 s.
        chat = f"/api/rooms/{room}/chat"
        for i in range(10):
            ok(await http.post(chat, json={"text": f"m{i}"}, headers=bearer(tokens[0])), 201)
        limited = await http.post(chat, json={"text": "one more"}, headers=bearer(tokens[0]))
        assert limited.status_code == 429 and error_code(limited) == "rate_limited"
        assert 1 <= int(limited.headers["Retry-After"]) <= 10
        # A database that does not answer: 503 on /healthz.
        store = live.app.state.service.store

        async def down() -> None:
            raise OSError("the database is away")

        healthy = store.ping
        store.ping = down
        try:
            health = await http.get("/healthz")
        finally:
            store.ping = healthy
        assert health.status_code == 503 and int(health.headers["Retry-After"]) >= 1
    # The third socket of one address (the per-address cap): 429 at the opening.
    url = f"{live.ws_url}/api/rooms/{room}/ws?token={tokens[0]}"
    async with connect(url), connect(url):
        with pytest.raises(InvalidStatus) as refused:
            await connect(url)
    assert refused.value.response.status_code == 429
    assert int(refused.value.response.headers["Retry-After"]) >= 1
