"""A burst of websockets from one address meets the documented socket cap (256), not the HTTP
connection cap (64): connections whose upgrade requests have not arrived yet are not refused
as if they were plain requests (app/guards/connections.py). Plain requests over the HTTP cap are
still refused."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.config import Settings
from tests.kit.rooms import online_room

SOCKETS = Settings().ws_max_per_client  # the documented 256
HTTP_CAP = Settings().max_connections_per_client  # 64


def _upgrade(room: str, token: str) -> bytes:
    return (
        f"GET /api/rooms/{room}/ws?token={token} HTTP/1.1\r\nHost: rummy\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def _status(reader: asyncio.StreamReader) -> int:
    try:
        async with asyncio.timeout(60):
            head = await reader.readuntil(b"\r\n\r\n")
    except (ConnectionResetError, asyncio.IncompleteReadError):
        return 429  # refused and reset before the answer was read
    return int(head.split(b" ")[1])


async def test_a_burst_of_sockets_from_one_address_gets_the_socket_cap(make_server: Any) -> None:
    assert SOCKETS > HTTP_CAP
    # Every handshake of the burst opening at once: past the storm gate's 128, which has a
    # test of its own (test_storm.py).
    live = make_server(rate_limit_enabled=True, ws_max_opening=2 * SOCKETS)
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=3)
    host, port = live.removeprefix("http://").split(":")
    # Every connection is open before any upgrade request is sent: the burst as the server
    # sees it when handshakes queue behind a busy event loop.
    conns = [await asyncio.open_connection(host, int(port)) for _ in range(SOCKETS + 1)]
    try:
        await asyncio.sleep(0.5)  # let the server accept them all
        for i, (_, writer) in enumerate(conns[:SOCKETS]):
            writer.write(_upgrade(room, tokens[i % 2]))
        answers = await asyncio.gather(*(_status(r) for r, _ in conns[:SOCKETS]))
        assert answers.count(101) == SOCKETS, sorted(set(answers))
        # One more socket is over the socket cap: refused, with 429.
        conns[SOCKETS][1].write(_upgrade(room, tokens[0]))
        assert await _status(conns[SOCKETS][0]) == 429
        # The HTTP cap still holds for plain requests, sockets or not.
        plain = [await asyncio.open_connection(host, int(port)) for _ in range(HTTP_CAP + 1)]
        try:
            await asyncio.sleep(0.5)
            plain[-1][1].write(b"GET /api/variants HTTP/1.1\r\nHost: rummy\r\n\r\n")
            assert await _status(plain[-1][0]) == 429
        finally:
            for _, writer in plain:
                writer.close()
    finally:
        for _, writer in conns:
            writer.close()
