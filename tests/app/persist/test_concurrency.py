"""Many clients send the same move at once, to one server or to two servers on one
database: exactly one is applied, the rest get 409, and the log has no gap or duplicate."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import httpx

from tests.kit.clients import Api
from tests.kit.responses import error_code, ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

DRAW = {"type": "draw", "source": "stock"}


async def race(
    servers: Sequence[str], room: str, token: str, move: dict, version: int, n: int
) -> list[httpx.Response]:
    # One pooled client per server; concurrent requests each take their own connection.
    limits = httpx.Limits(max_connections=n)
    clients = [httpx.AsyncClient(base_url=s, timeout=60, limits=limits) for s in servers]
    try:
        start = asyncio.Event()

        async def send(http: httpx.AsyncClient) -> httpx.Response:
            await start.wait()
            return await Api(http).move(room, token, move, version)

        tasks = [asyncio.create_task(send(clients[i % len(clients)])) for i in range(n)]
        await asyncio.sleep(0)
        start.set()
        return list(await asyncio.gather(*tasks))
    finally:
        for c in clients:
            await c.aclose()


async def versions(server: LiveServer, room: str) -> list[int]:
    return list(await server.call(lambda: server.app.state.service.store.versions(room)))


async def check_race(servers: list[LiveServer], api: Api) -> None:
    room, tokens = await online_room(api, seed=99)
    responses = await race(servers, room, tokens[0], DRAW, 0, 24)
    applied = [r for r in responses if r.status_code == 200]
    assert len(applied) == 1
    assert all(error_code(r, 409) == "stale_version" for r in responses if r.status_code != 200)
    view = ok(await api.state(room, tokens[0]))
    assert view["version"] == 1 and len(view["hand"]) == 11
    # A second race: everyone discards the same card at version 1.
    card = view["hand"][0]
    responses = await race(servers, room, tokens[0], {"type": "discard", "card": card}, 1, 24)
    assert [r.status_code for r in responses].count(200) == 1
    assert await versions(servers[0], room) == [1, 2]


async def test_one_server_applies_one_of_many_same_moves(server: LiveServer, client: Api) -> None:
    await check_race([server], client)


async def test_two_servers_on_one_database_apply_one(
    database_url: str, make_server, tmp_path
) -> None:
    """Two server processes' worth of app (own engine, lock and cache each) on one database:
    only the compare-and-swap in the database can keep them from both applying."""
    if database_url.startswith("sqlite"):
        database_url = f"sqlite+aiosqlite:///{tmp_path}/shared.db"
    first = make_server(database_url=database_url)
    second = make_server(database_url=database_url)
    async with httpx.AsyncClient(base_url=first, timeout=60) as http:
        await check_race([first, second], Api(http))
