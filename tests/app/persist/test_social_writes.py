"""The friends' writes through the store (app/persist/social_writes.py, social_sql.py): each
conditional one leaves one winner, chat text is sealed at rest, a deleted room takes its
rows along; and SQLite's writer process writes the same rows as the engine."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import create_sessionmaker
from app.persist import NewSeat, SqlStore
from app.persist.rows import ChallengePlan
from app.persist.sealing import StateCipher, decode_key, new_key
from app.persist.sqlite_writer import WriterProcess, sqlite_file
from app.rooms.setup import planned_room

NOW = datetime(2026, 12, 7, 20, 0, 0, 250000, tzinfo=UTC)
CIPHER = StateCipher(decode_key(new_key()))


async def new_room(store: SqlStore) -> str:
    seats = [NewSeat("Ann", uuid.uuid4().hex, None), NewSeat("Beth", None, "easy")]
    room = planned_room(NOW, variant="classic", mode="computer", seats=seats, match_seed=bytes(32))
    await store.create(room)
    return room.id


async def play_the_friends(store: SqlStore) -> dict[str, Any]:
    """Every social write once or more; what the store then reads back."""
    room, rival, other = await new_room(store), await new_room(store), await new_room(store)
    await store.set_chat(room, False)
    first = await store.claim_rematch(room, rival)
    second = await store.claim_rematch(room, other)  # loses: one rematch per room
    ids = [await store.add_chat(rival, 0, "Ann", f"hello {i}", NOW) for i in range(3)]
    plan = ChallengePlan(
        challenge="c-" + room[:8], room=room, variant="classic", players=2,
        bots='{"1": "easy"}', now=NOW, name="Ann", invite_hash=room + "h0", invite_name="Bob",
    )  # fmt: skip
    await store.add_challenge(plan)
    more = [await store.add_invite(plan.challenge, f"{room}h{i}", "x", NOW, 3) for i in (1, 2, 3)]
    h1 = room + "h1"
    spent = [await store.spend_invite(plan.challenge, h1, NOW) for _ in range(2)]
    await store.unspend_invite(h1)
    again = await store.spend_invite(plan.challenge, h1, NOW)
    await store.add_entry(plan.challenge, rival, "Bob", "Bob")
    await store.delete_room(other)
    return {
        "rematch": (first == rival, second == rival),
        "row": await store.social_row(room) == (False, rival),
        "chat ids": ids,
        "chat": [(m.id, m.text) for m in await store.chat_messages(rival, 1, 10)],
        "rate": await store.chat_since(rival, 0, NOW - timedelta(seconds=1)),
        "invites added": more,
        "spent": (spent, again),
        "entries": [
            (e.room == room, e.name, e.invite_name) for e in await store.entries(plan.challenge)
        ],
        "other gone": await store.social_row(other) is None,
        "sealed": await stored_chat(store, rival),
    }


async def stored_chat(store: SqlStore, room: str) -> list[str]:
    async with store._sessions() as session:  # the rows as a database dump shows them
        rows = await session.execute(
            text("SELECT text FROM chat_messages WHERE room_id = :room"), {"room": room}
        )
        return [row[0] for row in rows]


async def test_the_friends_writes_leave_one_winner_and_seal_the_chat(engine: AsyncEngine) -> None:
    got = await play_the_friends(SqlStore(create_sessionmaker(engine), CIPHER))
    assert got["rematch"] == (True, True) and got["row"]
    assert got["chat ids"] == [1, 2, 3]
    assert got["chat"] == [(2, "hello 1"), (3, "hello 2")]
    assert got["rate"] == (3, NOW)
    assert got["invites added"] == [True, True, False]  # h0 is the first of 3
    assert got["spent"] == ([True, False], True)
    assert got["entries"] == [(True, "Ann", None), (False, "Bob", "Bob")]
    assert got["other gone"]
    assert len(got["sealed"]) == 3 and not any("hello" in t for t in got["sealed"])


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlites_writer_process_writes_them_as_the_engine_does(engine: AsyncEngine) -> None:
    path = sqlite_file(engine.url)
    assert path is not None
    process = WriterProcess(path)
    try:
        through_process = await play_the_friends(
            SqlStore(create_sessionmaker(engine), CIPHER, setup=process.setup)
        )
    finally:
        await process.close()
    through_engine = await play_the_friends(SqlStore(create_sessionmaker(engine), CIPHER))
    del through_process["sealed"], through_engine["sealed"]  # each seal is its own
    assert through_process == through_engine
