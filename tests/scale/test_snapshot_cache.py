"""app.rooms.snapshots.SnapshotCache: what keeps a process's cached rooms right when several
processes write them (no services needed)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

import rules
from app.persist.rows import SeatRow, Snapshot
from app.rooms.snapshots import SnapshotCache

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def snapshot(room: str, version: int) -> Snapshot:
    state = rules.new_game("classic", 2, seed=bytes(32))
    seats = tuple(SeatRow(seat=i, name=f"p{i}", taken=True, bot=None) for i in range(2))
    return Snapshot(room, "classic", 2, "online", version, 0, NOW, state, seats)


class Database:
    """A loader whose answer the test sets, and which can be held mid-read."""

    def __init__(self) -> None:
        self.rows = {"r": snapshot("r", 0)}
        self.reads = 0
        self.gate: asyncio.Event | None = None

    async def load(self, room: str) -> Snapshot:
        self.reads += 1
        row = self.rows[room]  # read at the start, as a query would
        if self.gate is not None:
            await self.gate.wait()
        return row


async def test_concurrent_readers_share_one_read_and_then_read_nothing() -> None:
    db = Database()
    cache = SnapshotCache(db.load)
    got = await asyncio.gather(*(cache.get("r") for _ in range(5)))
    assert {s.version for s in got} == {0} and db.reads == 1
    await cache.get("r")
    assert db.reads == 1


async def test_a_read_that_started_before_news_is_not_kept() -> None:
    db = Database()
    cache = SnapshotCache(db.load)
    db.gate = asyncio.Event()
    slow = asyncio.create_task(cache.get("r"))  # reads version 0, then waits
    await asyncio.sleep(0)
    db.rows["r"] = snapshot("r", 1)
    cache.on_event("r", {"kind": "state", "version": 1})  # another process moved
    late = asyncio.create_task(cache.get("r"))  # joins the read already in flight
    await asyncio.sleep(0)
    db.gate.set()
    db.gate = None
    # The news overtook that read: neither caller gets version 0, and the cache keeps 1.
    assert (await slow).version == 1 and (await late).version == 1
    assert (await cache.get("r")).version == 1 and db.reads == 2


async def test_a_reload_does_not_join_an_older_read() -> None:
    db = Database()
    cache = SnapshotCache(db.load)
    db.gate = asyncio.Event()
    slow = asyncio.create_task(cache.get("r"))
    await asyncio.sleep(0)
    db.rows["r"] = snapshot("r", 1)
    db.gate.set()
    assert (await cache.reload("r")).version == 1
    await slow


async def test_events_advance_keep_or_drop_the_entry() -> None:
    db = Database()
    cache = SnapshotCache(db.load)
    base = await cache.get("r")
    later = rules.apply(base.state, 0, rules.Draw(source="stock"))
    event = {
        "kind": "state",
        "version": 1,
        "state": later.model_dump_json(),
        "hand_seq": 0,
        "active_at": NOW.isoformat(),
    }
    cache.on_event("r", event)  # one version ahead, with the state: advance, no read
    advanced = await cache.get("r")
    assert advanced.version == 1 and advanced.state == later and db.reads == 1
    cache.on_event("r", {**event, "state": "not json"})  # an old or own event: kept
    assert (await cache.get("r")).version == 1 and db.reads == 1
    db.rows["r"] = replace(advanced, version=5)
    cache.on_event("r", {"kind": "state", "version": 5})  # a gap: drop, read again
    assert (await cache.get("r")).version == 5 and db.reads == 2
    cache.on_event("r", {"kind": "state"})  # a join: seats changed, read again
    await cache.get("r")
    assert db.reads == 3
    cache.on_event("r", {"kind": "presence"})  # presence never touches the room
    await cache.get("r")
    assert db.reads == 3


async def test_put_never_goes_back() -> None:
    db = Database()
    cache = SnapshotCache(db.load)
    cache.put(snapshot("r", 3))
    cache.put(snapshot("r", 2))
    assert (await cache.get("r")).version == 3 and db.reads == 0


async def test_a_read_that_finds_unannounced_news_tells_the_room_once() -> None:
    db = Database()
    heard: list[int] = []
    cache = SnapshotCache(db.load, on_newer=lambda snap: heard.append(snap.version))
    await cache.get("r")
    assert heard == []  # the first read is no news: nothing was known before it
    db.rows["r"] = snapshot("r", 1)  # committed by a process that died before publishing
    await cache.reload("r")
    assert heard == [1]
    await cache.reload("r")
    assert heard == [1]  # the same version again is no news
    db.rows["r"] = snapshot("r", 2)
    cache.on_event("r", {"kind": "state", "version": 2})  # announced: the event tells
    await cache.get("r")
    assert heard == [1]
    assert cache.marks() == {"r": (2, 2)}


async def test_a_read_that_finds_a_seat_taken_unannounced_tells_the_room() -> None:
    db = Database()
    full = snapshot("r", 0)
    db.rows["r"] = replace(full, seats=(full.seats[0], replace(full.seats[1], taken=False)))
    heard: list[int] = []
    cache = SnapshotCache(db.load, on_newer=lambda snap: heard.append(snap.version))
    await cache.get("r")
    db.rows["r"] = full  # a join on another process whose event was lost
    await cache.reload("r")
    assert heard == [0] and cache.marks() == {"r": (0, 2)}
