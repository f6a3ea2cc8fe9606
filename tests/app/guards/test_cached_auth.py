"""Seats are authorized from the cached room, and a full connection pool answers 503 fast:
a connect storm neither reads the database once per socket nor leaves sockets waiting
30 s for a connection."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.rooms.tokens import hash_token
from tests.kit.clients import Api, Socket
from tests.kit.responses import error_code, ok
from tests.kit.servers import LiveServer


def ws_url(server: LiveServer, room: str, token: str) -> str:
    return f"{server.ws_url}/api/rooms/{room}/ws?token={token}"


class SeatReads:
    """Stands in for the store's token lookup: counts the calls, and fails them while
    `reachable` is off, as a database gone for reads would."""

    def __init__(self, server: LiveServer) -> None:
        self.store = server.app.state.service.store
        self.real = self.store.seat_of
        self.calls = 0
        self.reachable = False
        self.store.seat_of = self

    async def __call__(self, token_hash: str) -> Any:
        self.calls += 1
        if not self.reachable:
            raise RuntimeError("the database is unreachable for reads")
        return await self.real(token_hash)


async def test_seats_are_authorized_without_a_read_once_the_room_is_cached(
    make_server: Any,
) -> None:
    server = make_server()
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        api = Api(http)
        created = ok(await api.create(players=2, mode="online", name="Ann"), 201)
        room, host = created["room"], created["token"]
        ok(await api.state(room, host))  # the room is cached now
        reads = SeatReads(server)
        # A freshly taken seat is in the cached room: its token needs no read either.
        guest = ok(await api.join(room, "Bob"), 201)["token"]
        hashes = [hash_token(host), hash_token(guest)]
        for token, seat in ((host, 0), (guest, 1)):
            answer = await api.state(room, token)
            assert ok(answer)["seat"] == seat
            async with connect(ws_url(server, room, token)) as ws:
                frame = await Socket(ws).state()
                assert frame["seat"] == seat
            # The hashes live with the cached room, never in what a seat is shown.
            assert not any(h in answer.text or h in str(frame) for h in hashes)
        assert reads.calls == 0

        # A token the cached room does not know is looked up, and keeps its codes.
        reads.reachable = True
        other = ok(await api.create(players=2, mode="online"), 201)["token"]
        assert error_code(await api.state(room, other), 403) == "forbidden"
        assert error_code(await api.state(room, "not-a-token"), 401) == "unauthorized"
        assert reads.calls == 2


async def _hold_every_connection(server: LiveServer) -> list[Any]:
    engine = server.app.state.engine
    held = []
    for _ in range(engine.pool.size() + engine.pool._max_overflow):
        held.append(await engine.connect())
    return held


async def _forget(server: LiveServer, room: str) -> None:
    server.app.state.service.snapshots.forget(room)


async def _release(held: list[Any]) -> None:
    for conn in held:
        await conn.close()


async def test_a_full_pool_answers_503_within_its_timeout(make_server: Any) -> None:
    server = make_server(db_pool_timeout_seconds=1)
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        api = Api(http)
        created = ok(await api.create(players=2, mode="online"), 201)
        room, token = created["room"], created["token"]
        fresh = ok(await api.create(players=2, mode="online"), 201)
        await server.call(lambda: _forget(server, room))
        held = await server.call(lambda: _hold_every_connection(server))
        try:
            # A room is cached as it is made: its first socket (one of a storm's thousands)
            # gets its state with no connection free.
            async with connect(ws_url(server, fresh["room"], fresh["token"])) as ws:
                assert (await Socket(ws).state())["seat"] == 0
            # Not cached: reading it needs a connection, and none comes. The client's
            # own bound (10 s) is far below SQLAlchemy's default 30 s wait.
            busy = await http.get(f"/api/rooms/{room}/state", headers=api.auth(token), timeout=10)
            assert error_code(busy, 503) == "unavailable"
            async with connect(ws_url(server, room, token)) as ws:
                frame = await asyncio.wait_for(ws.recv(), 10)
                assert '"unavailable"' in frame and token not in frame
                try:
                    await asyncio.wait_for(ws.recv(), 10)
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code == 4503
                else:
                    raise AssertionError("the socket stayed open")
        finally:
            await server.call(lambda: _release(held))
        # Nothing was changed: once connections are free the room answers.
        assert ok(await api.state(room, token))["seat"] == 0
