"""Every way a batch reaches the database writes the same rows (app/persist/writes.py):
on SQLite the writer process and the engine, on PostgreSQL the one statement and the
engine. The same batch (a move, a swap that lost, a hand ended with the next one dealt)
goes through each into rooms of its own, and the rows read back are the same, compared
column by column as the database holds them."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import rules
from app.db import create_sessionmaker
from app.persist import Commit, SeatRow, SqlStore
from app.persist.pg_writer import PostgresBatches
from app.persist.rows import NewSeat, new_snapshot
from app.persist.sealing import StateCipher, decode_key, new_key
from app.persist.sql_writer import Batches, EngineBatches, SqlWriter
from app.persist.sqlite_writer import WriterProcess, sqlite_file

NOW = datetime(2026, 12, 6, 20, 30, 15, 123456, tzinfo=UTC)
CIPHER = StateCipher(decode_key(new_key()))


def one_hop(engine: AsyncEngine) -> Batches:
    if engine.url.get_backend_name() == "sqlite":
        path = sqlite_file(engine.url)
        assert path is not None
        return WriterProcess(path)
    return PostgresBatches(engine)


async def write_the_batch(engine: AsyncEngine, batches: Batches) -> tuple[list[Any], list[str]]:
    """Three new rooms, and one batch on them: room 0 draws, room 1's swap loses (the
    entry was made on a version it never had), room 2's vote ends its hand and deals the
    next, with a stand-in and a turn deadline. The writer's answers, and the rooms."""
    store = SqlStore(create_sessionmaker(engine), CIPHER)
    ids = [uuid.uuid4().hex for _ in range(3)]
    state = rules.new_game("classic", 2, seed=bytes(32))
    seats = [NewSeat(name="Ann", token_hash=None, bot=None), NewSeat(None, None, "easy")]
    rooms = []
    for room_id in ids:
        room = new_snapshot(
            room_id, variant="classic", players=2, mode="online", state=state, seats=seats, now=NOW
        )
        await store.create(room)
        rooms.append(room)
    moved = rules.apply(state, state.turn, rules.parse_move({"type": "draw", "source": "stock"}))

    def draw() -> Commit:  # one per room: an entry seals its state for its own room
        return Commit(seat=0, kind="move", payload={"type": "draw"}, state=moved)

    stood_in = tuple(SeatRow(i, "Ann", True, None, stand_in="hard" if i == 0 else None, timeouts=i)
                     for i in range(2))  # fmt: skip
    deal = Commit(
        seat=1,
        kind="vote",
        payload={"vote": "next_hand"},
        state=state,
        hand_ended=True,
        new_hand_start=rules.hand_start(state).model_dump_json(),
        seats=stood_in,
        turn_deadline=NOW + timedelta(seconds=30),
    )
    stale = replace(rooms[1], version=4)
    writer = SqlWriter(batches, CIPHER)
    try:
        results = await writer.commit_many(
            [(rooms[0], draw(), NOW), (stale, draw(), NOW), (rooms[2], deal, NOW)]
        )
    finally:
        await writer.close()
    return results, ids


async def rows_of(engine: AsyncEngine, ids: list[str]) -> list[list[tuple[Any, ...]]]:
    """Each room's rows as stored (its id written as its index, sealed values opened)."""
    found = []
    async with engine.connect() as conn:
        for i, room_id in enumerate(ids):
            params = {"room": room_id}
            room = (await conn.execute(text(
                "SELECT version, state, hand_seq, active_at, turn_deadline, attendance "
                "FROM rooms WHERE id = :room"), params)).one()  # fmt: skip
            state = CIPHER.open(CIPHER.state_context(room_id), room[1])
            moves = (await conn.execute(text(
                "SELECT version, seat, hand_seq, kind, move, created_at FROM moves "
                "WHERE room_id = :room ORDER BY version"), params)).all()  # fmt: skip
            hands = (await conn.execute(text(
                "SELECT seq, start, start_version, end_version FROM hands "
                "WHERE room_id = :room ORDER BY seq"), params)).all()  # fmt: skip
            opened = [
                (seq, CIPHER.open(CIPHER.hand_context(room_id, seq), start), *versions)
                for seq, start, *versions in hands
            ]
            found.append([(i, room[0], state, *room[2:]), *map(tuple, moves), *opened])
    return found


async def test_the_one_hop_and_the_engine_write_the_same_rows(engine: AsyncEngine) -> None:
    results, one_hop_ids = await write_the_batch(engine, one_hop(engine))
    assert results == [1, None, 1]
    engine_results, engine_ids = await write_the_batch(
        engine, EngineBatches(create_sessionmaker(engine))
    )
    assert engine_results == results

    one_hop_rows = await rows_of(engine, one_hop_ids)
    assert one_hop_rows == await rows_of(engine, engine_ids)
    drawn, untouched, dealt = one_hop_rows
    assert drawn[0][1] == 1 and len(drawn) == 3  # the room, one move, its first hand
    assert untouched[0][1] == 0 and len(untouched) == 2  # the room and its hand: no move
    room, vote, first, second = dealt
    assert (room[1], room[3]) == (1, 1)  # version 1, now in hand 1
    assert room[6] == '{"stand_in": ["hard", null], "timeouts": [0, 1]}'
    assert vote[:4] == (1, 1, 0, "vote")
    assert (first[0], first[2], first[3]) == (0, 0, 1)  # ended by version 1
    assert (second[0], second[2], second[3]) == (1, 1, None)  # dealt by version 1


async def joined(engine: AsyncEngine, process: WriterProcess | None) -> list[tuple[Any, ...]]:
    """A new room with a turn timer and two free seats, filled by two joins through the
    writer process (or the engine): its rows as stored."""
    setup = None if process is None else process.setup
    store = SqlStore(create_sessionmaker(engine), CIPHER, setup=setup)
    room_id = uuid.uuid4().hex
    state = rules.new_game("classic", 2, seed=bytes(32))
    seats = [NewSeat(None, None, None), NewSeat(None, None, None)]
    room = new_snapshot(
        room_id, variant="classic", players=2, mode="online", state=state, seats=seats,
        now=NOW, turn_seconds=30,
    )  # fmt: skip
    tokens = [uuid.uuid4().hex for _ in range(3)]  # token hashes are unique in the table
    try:
        await store.create(room)
        later = NOW + timedelta(seconds=5)
        deadline = later + timedelta(seconds=30)
        assert await store.take_seat(room_id, name="Ann", token_hash=tokens[0], now=later) == 0
        assert (
            await store.take_seat(
                room_id, name=None, token_hash=tokens[1], now=later, deadline=deadline
            )
            == 1
        )
        assert await store.take_seat(room_id, name="Cy", token_hash=tokens[2], now=later) is None
    finally:
        if process is not None:
            await process.close()
    async with engine.connect() as conn:
        params = {"room": room_id}
        room_row = (await conn.execute(text(
            "SELECT version, hand_seq, created_at, active_at, spectators, turn_seconds, "
            "turn_deadline, attendance FROM rooms WHERE id = :room"), params)).one()  # fmt: skip
        seat_rows = (await conn.execute(text(
            "SELECT seat, name, token_hash, bot FROM seats WHERE room_id = :room ORDER BY seat"),
            params)).all()  # fmt: skip
        hand = (await conn.execute(text(
            "SELECT seq, start_version, end_version FROM hands WHERE room_id = :room"),
            params)).all()  # fmt: skip
    # Each seat's token as its index among the joiners' tokens.
    by_token = [(seat, name, tokens.index(token), bot) for seat, name, token, bot in seat_rows]
    return [tuple(room_row), *by_token, *map(tuple, hand)]


# Only SQLite makes rooms and takes seats in a process of its own: on SQLite alone.
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_new_room_and_its_joins_are_written_alike_by_the_process_and_the_engine(
    engine: AsyncEngine,
) -> None:
    path = sqlite_file(engine.url)
    assert path is not None
    rows = await joined(engine, WriterProcess(path))
    assert rows == await joined(engine, None)
    room, ann, guest, hand = rows
    assert room[5] == 30 and room[6] is not None  # the filling join started the timer
    assert ann == (0, "Ann", 0, None) and guest == (1, "Player 2", 1, None)
    assert hand == (0, 0, None)
