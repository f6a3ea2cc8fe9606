"""Rooms heal when an event between processes is lost.

A move committed with no publish is what a process leaves behind when it dies between its
commit and its publish (or when its Redis publish fails): the test writes it through the
app's own store, as that process would have, and publishes nothing. The other processes
must still show it: on their sockets, on `GET /state`, on the summary.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import asyncpg
import pytest
from scale_players import WAIT, SeatSocket, create_room, get_state, get_summary, ws_url
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import rules
from app.db import create_engine, create_sessionmaker
from app.store import Commit, Store

if TYPE_CHECKING:  # an import at run time would find another directory's conftest
    from conftest import Services

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# Servers that never heal on a timer: what heals them there is the path under test.
NO_TIMER = {"RUMMY_HEAL_INTERVAL_SECONDS": "3600"}


async def commit_unpublished(services: Services, room: str) -> int:
    """The first legal move of the seat to move, committed as a dying process would: in the
    database, announced to nobody. Returns the new version."""
    engine = create_engine(services.database_url)
    try:
        store = Store(create_sessionmaker(engine))
        snap = await store.load(room)
        turn = snap.state.turn
        move = next(iter(rules.legal_moves(rules.seat_view(snap.state, turn))))
        state = rules.apply(snap.state, turn, move)
        entry = Commit(seat=turn, kind="move", payload=rules.move_to_json(move), state=state)
        return await store.commit(snap, entry, datetime.now(UTC))
    finally:
        await engine.dispose()


async def room_on_two(
    start_servers: Any, seed: int, env: dict[str, str] | None = None
) -> tuple[str, str, str, list[str]]:
    """Two servers a and b, and a 2-seat room made on a whose seat 1 joined through b:
    (a's URL, b's URL, room, tokens)."""
    a, b = start_servers(2, env=env)
    room, tokens = await create_room(a.url, [b.url], seed=seed)
    return a.url, b.url, room, tokens


async def opened(url: str, room: str, seat: int, token: str) -> SeatSocket:
    sock = await SeatSocket.open(url, room, seat, token)
    assert (await sock.latest())["version"] == 0
    return sock


async def test_a_move_whose_event_was_lost_reaches_the_other_processes_on_its_own(
    start_servers: Any, services: Services
) -> None:
    a, b, room, tokens = await room_on_two(start_servers, 31)
    socks = [await opened(a, room, 0, tokens[0]), await opened(b, room, 1, tokens[1])]
    try:
        assert (await get_summary(b, room))["version"] == 0  # both processes cached it
        version = await commit_unpublished(services, room)
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
    start_servers: Any, services: Services
) -> None:
    _, b, room, tokens = await room_on_two(start_servers, 32, NO_TIMER)
    watcher = await opened(b, room, 0, tokens[0])
    late = None
    try:
        version = await commit_unpublished(services, room)
        # A client resyncing over REST gets the database's room, not b's cached one...
        assert (await get_state(b, room, tokens[1]))["version"] == version
        # ...and that read tells b's other sockets of the room.
        assert (await watcher.state_at(version))["last_move"]["seat"] == 0
        version = await commit_unpublished(services, room)
        # A reconnect reads the database's room too, and tells the room as well.
        late = await SeatSocket.open(b, room, 1, tokens[1])
        assert (await late.state_at(version))["version"] == version
        assert (await watcher.state_at(version))["version"] == version
    finally:
        await watcher.close()
        if late is not None:
            await late.close()


async def test_a_move_refused_as_stale_refreshes_every_socket_of_the_room(
    start_servers: Any, services: Services
) -> None:
    _, b, room, tokens = await room_on_two(start_servers, 33, NO_TIMER)
    socks = [await opened(b, room, 0, tokens[0]), await opened(b, room, 1, tokens[1])]
    try:
        version = await commit_unpublished(services, room)  # seat 0's draw, unknown to b
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
