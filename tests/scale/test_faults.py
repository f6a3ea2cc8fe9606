"""Faults across processes: `kill -9` one server mid-hand; its clients move to the other."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.kit.players import WAIT, Bot, create_room, get_log, get_summary, log_entries, same_move

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def _version(url: str, room: str, token: str) -> int:
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.get(
            f"{url}/api/rooms/{room}/state", headers={"Authorization": f"Bearer {token}"}
        )
        assert r.status_code == 200, r.text
        version: int = r.json()["version"]
        return version


async def test_kill_9_one_process_mid_hand_loses_no_acknowledged_move(start_servers: Any) -> None:
    survivor, doomed = start_servers(2)
    # Seats alternate between the processes; the doomed one's seats fail over.
    room, tokens = await create_room(survivor.url, [doomed.url, survivor.url, doomed.url], seed=21)
    bots = [
        Bot([survivor.url] if seat % 2 == 0 else [doomed.url, survivor.url], room, seat, token)
        for seat, token in enumerate(tokens)
    ]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while await _version(survivor.url, room, tokens[0]) < 12:
            assert loop.time() < deadline, "play did not start"
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.02)
        doomed.kill()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
    finally:
        for task in tasks:
            task.cancel()
    assert all(bot.final is not None for bot in bots)
    assert all(bots[s].reconnects >= 1 for s in (1, 3)), "the doomed process's seats moved"
    entries = log_entries(await get_log(survivor.url, room, tokens[0]))
    versions = [v for v, _, _, _ in entries]
    assert versions == list(range(1, len(versions) + 1)), "the log has gaps or repeats"
    by_version = {v: (seat, payload) for v, seat, kind, payload in entries if kind == "move"}
    acked = [a for bot in bots for a in bot.acked]
    assert len(acked) > 12
    for a in acked:
        assert a.version in by_version, f"acknowledged move v{a.version} is not in the log"
        seat, logged = by_version[a.version]
        assert seat == a.seat and same_move(logged, a.move), (a, logged)
    # Every seat is back (on the survivor), and the survivor knows it.
    summary = await get_summary(survivor.url, room)
    assert summary["version"] >= versions[-1]
