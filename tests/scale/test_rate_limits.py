"""The rate limits hold across processes: two `rummy serve` on one PostgreSQL and one Redis
count one client address together, so a client cannot get N times the rate by spreading its
requests over N processes behind a balancer.

Each test acts from an address of its own in 127.0.0.0/8 (all loopback), so its counts in
the shared Redis are its own, whatever ran before."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

LIMITED = {
    "RUMMY_RATE_LIMIT_ENABLED": "true",
    "RUMMY_RATE_CREATE": "4/hour",
    "RUMMY_RATE_FRAME": "6/hour",
}


@pytest.fixture
def limited_pair(start_servers: Any) -> Any:
    """Two server processes on the same database and Redis, with the limits on."""
    return start_servers(2, env=LIMITED)


@pytest.fixture
def address() -> str:
    """A loopback address no other test (nor an earlier run) acted from."""
    rng = random.SystemRandom()
    return f"127.{rng.randrange(1, 255)}.{rng.randrange(1, 255)}.{rng.randrange(2, 255)}"


@pytest.fixture
async def clients(limited_pair: Any, address: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    made = [
        httpx.AsyncClient(
            base_url=server.url,
            timeout=60,
            transport=httpx.AsyncHTTPTransport(local_address=address),
        )
        for server in limited_pair
    ]
    yield made
    for client in made:
        await client.aclose()


async def test_a_create_rate_holds_across_two_processes(clients: list[httpx.AsyncClient]) -> None:
    a, b = clients
    for http in (a, b, a, b):  # 4/hour, spread over both processes
        assert (await http.post("/api/rooms", json={})).status_code == 201
    for http in (a, b):  # each process saw only two: per-process counting would allow these
        refused = await http.post("/api/rooms", json={})
        assert refused.status_code == 429  # (its text would show a seat token)
        assert refused.json()["error"]["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1


async def test_a_frame_rate_holds_across_two_processes(
    limited_pair: Any, clients: list[httpx.AsyncClient], address: str
) -> None:
    created = (await clients[0].post("/api/rooms", json={"variant": "classic"})).json()
    sockets = [
        await connect(
            f"{server.ws_url}/api/rooms/{created['room']}/ws?token={created['token']}",
            local_addr=(address, 0),
        )
        for server in limited_pair
    ]
    try:
        for ws in sockets * 3:  # six pings, three to each process: the whole 6/hour
            await ws.send('{"type": "ping"}')
            async with asyncio.timeout(30):
                while '"pong"' not in await ws.recv():
                    pass
        await sockets[0].send('{"type": "ping"}')
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(30):
                while True:
                    await sockets[0].recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    finally:
        for ws in sockets:
            await ws.close()
