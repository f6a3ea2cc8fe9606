"""app.hub.redis.RedisHub against the real Redis: two hubs stand for two processes."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from app.hub import redis as redis_hub
from app.hub.redis import RedisHub

pytestmark = [pytest.mark.redis]


async def _until(check: Any, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "condition never held"
        await asyncio.sleep(0.05)


async def test_events_and_presence_cross_hubs(services: Any) -> None:
    one, two = RedisHub(services.redis_url), RedisHub(services.redis_url)
    await one.start()
    await two.start()
    room = "hubtest-" + secrets.token_hex(6)
    got_one: list[dict[str, Any]] = []
    got_two: list[dict[str, Any]] = []
    one.subscribe(room, got_one.append)
    two.subscribe(room, got_two.append)
    try:
        await one.publish(room, {"kind": "state", "version": 1})

        async def both_have_it() -> bool:
            return {"kind": "state", "version": 1} in got_one and {
                "kind": "state",
                "version": 1,
            } in got_two

        await _until(both_have_it)
        # Delivered once to each: locally by the publisher, through Redis to the other.
        assert got_one.count({"kind": "state", "version": 1}) == 1
        assert got_two.count({"kind": "state", "version": 1}) == 1

        await one.connect(room, 0)
        await two.connect(room, 1)
        for hub in (one, two):

            async def both_seats(hub: RedisHub = hub) -> bool:
                return await hub.presence(room) == {0, 1}

            await _until(both_seats)
        await two.disconnect(room, 1)

        async def only_seat_zero() -> bool:
            return await one.presence(room) == {0}

        await _until(only_seat_zero)
    finally:
        await one.stop()
        await two.stop()


async def test_a_dead_process_loses_its_seats(services: Any, monkeypatch: Any) -> None:
    survivor, doomed = RedisHub(services.redis_url), RedisHub(services.redis_url)
    await survivor.start()
    await doomed.start()
    room = "hubtest-" + secrets.token_hex(6)
    frames: list[dict[str, Any]] = []
    survivor.subscribe(room, frames.append)
    try:
        await survivor.connect(room, 0)
        await doomed.connect(room, 1)

        async def both() -> bool:
            return await survivor.presence(room) == {0, 1}

        await _until(both)
        # "kill -9": the doomed process stops heartbeating without cleaning anything up.
        for task in doomed._tasks:
            task.cancel()
        await doomed._redis.delete(redis_hub.PROCESS + doomed.process)
        frames.clear()

        async def seat_one_gone() -> bool:
            return await survivor.presence(room) == {0}

        await _until(seat_one_gone)
        # The sweep told the room, so its sockets get a presence frame.
        await _until(lambda: _true(any(f["kind"] == "presence" for f in frames)))
    finally:
        await survivor.stop()
        await doomed._redis.aclose()


async def _true(value: bool) -> bool:
    return value
