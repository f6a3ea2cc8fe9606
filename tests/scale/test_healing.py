"""Rooms heal when an event between processes is lost.

A move committed with no publish is what a process leaves behind when it dies between its
commit and its publish (or when its Redis publish fails): the test makes such moves through
a third server on the same database that has no Redis, so no other process hears of them.
The other processes must still show them: on their sockets, on `GET /state`, on the
summary.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.kit.players import WAIT, Chooser, SeatSocket, create_room, get_state, get_summary, ws_url

if TYPE_CHECKING:  # an import at run time would find another directory's conftest
    from tests.kit.cluster import Services

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# Servers that never heal on a timer: what heals them there is the path under test.
NO_TIMER = {"RUMMY_HEAL_INTERVAL_SECONDS": "3600"}


async def move_unannounced(silent: str, room: str, tokens: list[str]) -> int:
    """The seat to move plays one move through `silent`, a server on the same database
    with no Redis: committed, and announced to no other process, as a process killed
    between its commit and its publish leaves it. Returns the version it made."""
    turn = (await get_state(silent, room, tokens[0]))["turn"]
    state = await get_state(silent, room, tokens[turn])
    body = {"move": Chooser().choose(state), "version": state["version"]}
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.post(
            f"{silent}/api/rooms/{room}/moves",
            json=body,
            headers={"Authorization": f"Bearer {tokens[turn]}"},
        )
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


async def room_on_two(
    start_servers: Any, seed: int, env: dict[str, str] | None = None
) -> tuple[str, str, str, str, list[str]]:
    """Servers a and b, a silent one on their database without Redis, and a 2-seat room
    made on a whose seat 1 joined through b: (a, b, silent, room, tokens)."""
    a, b = start_servers(2, env=env)
    (silent,) = start_servers(1, env={**(env or {}), "RUMMY_REDIS_URL": ""})
    room, tokens = await create_room(a.url, [b.url], seed=seed)
    return a.url, b.url, silent.url, room, tokens


async def opened(url: str, room: str, seat: int, token: str) -> SeatSocket:
    sock = await SeatSocket.open(url, room, seat, token)
    assert (await sock.latest())["version"] == 0
    return sock


async def test_a_move_whose_event_was_lost_reaches_the_other_processes_on_its_own(
    start_servers: Any,
) -> None:
    a, b, silent, room, tokens = await room_on_two(start_servers, 31)
    socks = [await opened(a, room, 0, tokens[0]), await opened(b, room, 1, tokens[1])]
    try:
        assert (await get_summary(b, room))["version"] == 0  # both processes cached it
        version = await move_unannounced(silent, room, tokens)
        # Nobody acts: each process's heal task finds the room behind within seconds.
        for sock in socks:
            state = await sock.state_at(version)
            assert state["last_move"]["seat"] == 0
            assert state["last_move"]["move"]["type"] == "draw"
        for url in (a, b):
            assert (await get_summary(url, room))["version"] == version
            assert (await get_state(url, room, tokens[1]))["version"] == version
    finally:
        for sock in socks:
            await sock.close()


async def test_get_state_and_a_new_socket_read_news_the_cache_lacks_and_tell_the_room(
    start_servers: Any,
) -> None:
    _, b, silent, room, tokens = await room_on_two(start_servers, 32, NO_TIMER)
    watcher = await opened(b, room, 0, tokens[0])
    late = None
    try:
        version = await move_unannounced(silent, room, tokens)
        # A client resyncing over REST gets the database's room, not b's cached one...
        assert (await get_state(b, room, tokens[1]))["version"] == version
        # ...and that read tells b's other sockets of the room.
        assert (await watcher.state_at(version))["last_move"]["seat"] == 0
        version = await move_unannounced(silent, room, tokens)
        # A reconnect reads the database's room too, from its very first view (a stale one
        # would let a client decide twice on one version), and tells the room as well.
        late = await SeatSocket.open(b, room, 1, tokens[1])
        assert (await late.latest())["version"] == version
        assert (await watcher.state_at(version))["version"] == version
    finally:
        await watcher.close()
        if late is not None:
            await late.close()


async def test_a_move_refused_as_stale_refreshes_every_socket_of_the_room(
    start_servers: Any,
) -> None:
    _, b, silent, room, tokens = await room_on_two(start_servers, 33, NO_TIMER)
    socks = [await opened(b, room, 0, tokens[0]), await opened(b, room, 1, tokens[1])]
    try:
        version = await move_unannounced(silent, room, tokens)  # seat 0's draw, unknown to b
        # Seat 0 plays on the view it has: b's cache agrees with it, the database does not.
        await socks[0].send_move({"type": "draw", "source": "stock"}, 0)
        for sock in socks:
            assert (await sock.state_at(version))["last_move"]["seat"] == 0
        while not socks[0].errors:  # the refusal may come just after the fresh view
            await socks[0]._frame()
        assert [e["code"] for e in socks[0].errors] == ["stale_version"]
        assert not socks[1].errors
    finally:
        for sock in socks:
            await sock.close()


async def age(services: Services, room: str) -> None:
    """Make the room idle for longer than any TTL, as if nobody had played it for a month."""
    url = make_url(services.database_url).set(drivername="postgresql")
    conn = await asyncpg.connect(url.render_as_string(hide_password=False))
    try:
        await conn.execute(
            "UPDATE rooms SET active_at = now() - interval '400 days' WHERE id = $1", room
        )
    finally:
        await conn.close()


async def close_code(sock: SeatSocket) -> int | None:
    """Read frames until the server closes the socket; its close code."""
    try:
        while True:
            await sock._frame()
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None


async def test_sockets_on_a_purged_room_close_with_4410_in_every_process(
    start_servers: Any, services: Services
) -> None:
    (purger,) = start_servers(1, env={"RUMMY_PURGE_INTERVAL_SECONDS": "0.5"})
    (keeper,) = start_servers(1)  # purges once at start, then hourly: never this room
    room, tokens = await create_room(keeper.url, [keeper.url], seed=34)
    socks = [
        await opened(keeper.url, room, 0, tokens[0]),
        await opened(purger.url, room, 1, tokens[1]),
    ]
    await age(services, room)
    for sock in socks:
        assert await close_code(sock) == 4410
        assert [e["code"] for e in sock.errors] == ["room_expired"]
    # The room is gone for good: a new socket is refused the way a deleted room is.
    async with connect(ws_url(keeper.url, room, tokens[0]), open_timeout=WAIT) as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert frame["error"]["code"] == "room_not_found"
