"""Per-room events (app/hub/channels.py): a process subscribes to the rooms it has sockets
in, so two processes whose rooms' sockets all sit on one hear nothing of each other's rooms,
and a room that spans both still gets every version to every socket."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.hub.redis import CHANNEL
from tests.kit.players import PLAYING, Chooser, SeatSocket, create_room

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ROOMS = 8
MOVES = 6


async def _lockstep(seats: list[SeatSocket], version: int, moves: int, chooser: Chooser) -> int:
    """Play `moves` moves, each sent once every socket holds the current version (so each
    must receive every version); returns the version reached."""
    for _ in range(moves):
        views = [await s.state_at(version) for s in seats]
        view = next(v for v in views if v["seat"] == views[0]["turn"]) if views else None
        assert view is not None and view["phase"] in PLAYING
        mover = next(s for s in seats if s.seat == view["turn"])
        await mover.send_move(chooser.choose(view), version)
        version += 1
    for s in seats:
        await s.state_at(version)
    return version


async def _subscribers(redis: Any, rooms: list[str]) -> list[int]:
    counts = await redis.pubsub_numsub(*(CHANNEL + room for room in rooms))
    return [int(n) for _, n in counts]


async def test_a_process_hears_only_the_rooms_whose_sockets_it_has(
    start_servers: Any, services: Any
) -> None:
    a, b = start_servers(2)
    redis = aioredis.from_url(services.redis_url)
    made = [await create_room(a.url, [a.url], seed=i) for i in range(ROOMS)]
    sockets = [
        [await SeatSocket.open(a.url, room, seat, tokens[seat]) for seat in (0, 1)]
        for room, tokens in made
    ]
    rooms = [room for room, _ in made]
    chooser = Chooser()
    try:
        versions = [(await s[0].latest())["version"] for s in sockets]
        versions = list(
            await asyncio.gather(
                *(_lockstep(s, v, MOVES, chooser) for s, v in zip(sockets, versions, strict=True))
            )
        )
        # Only process A listens to its rooms' channels: B receives none of their events.
        assert await _subscribers(redis, rooms) == [1] * ROOMS

        # One room now spans both processes: B subscribes, and every version reaches both.
        room, tokens = made[0]
        guest = await SeatSocket.open(b.url, room, 1, tokens[1])
        spanning = [sockets[0][0], guest]
        await guest.state_at(versions[0])
        assert await _subscribers(redis, rooms[:2]) == [2, 1]
        versions[0] = await _lockstep(spanning, versions[0], MOVES, chooser)
        assert await sockets[0][1].state_at(versions[0])  # A's socket of that seat too

        # B's last socket of the room closes: B stops listening (on its next heartbeat).
        await guest.close()
        for _ in range(200):
            if await _subscribers(redis, rooms[:1]) == [1]:
                break
            await asyncio.sleep(0.1)
        assert await _subscribers(redis, rooms) == [1] * ROOMS
    finally:
        for pair in sockets:
            for s in pair:
                await s.close()
        await redis.aclose()
