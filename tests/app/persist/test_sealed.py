"""Future deals are not in the database in the clear: after part of a hand on a real
server (SQLite file, PostgreSQL), neither the database file's bytes nor any row of the
room shows a hand's card sequence, the stock order or the seeds; the room plays on after
a restart with the same key, and rooms stored in plain text by older servers still load."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

import rules
from app.config import Settings
from app.persist.sealing import key_file
from app.rooms.tokens import fixed_match_seed
from tests.kit.clients import Api
from tests.kit.deals import MELDS, OUT_IN_ONE_TURN, fixed_deal
from tests.kit.responses import ok
from tests.kit.rooms import online_room

SEED = 90210
TABLES = ("rooms", "seats", "hands", "moves")
DRAW = {"type": "draw", "source": "stock"}


def secrets_of(*states: rules.GameState) -> set[str]:
    """What a reader of the database must not find: both seeds, and every run of three
    cards of any hand or of the stock, as the state's JSON spells them."""
    found: set[str] = set()
    for state in states:
        found |= {state.seed, state.hand_seed}
        for cards in (*state.hands, state.stock):
            quoted = [f'"{c}"' for c in cards]
            found |= {",".join(quoted[i : i + 3]) for i in range(len(quoted) - 2)}
    return found


def play(state: rules.GameState, move: dict) -> rules.GameState:
    return rules.apply(state, state.turn, rules.parse_move(move))


async def stored_text(database_url: str, room: str) -> str:
    """Everything the database holds for `room`: on SQLite the file's raw bytes (and its
    write-ahead log's) as well as the rows."""
    if database_url.startswith("sqlite"):
        path = Path(database_url.split("///", 1)[1])
        raw = b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal")) if p.exists())
        with sqlite3.connect(path) as db:
            rows = [repr(r) for t in TABLES for r in db.execute(f"SELECT * FROM {t}")]  # noqa: S608
        return raw.decode("latin-1") + "\n".join(rows)
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = []
            for table in TABLES:
                key = "id" if table == "rooms" else "room_id"
                # Every column's value as text, unescaped (a row's ::text doubles quotes).
                result = await conn.execute(
                    text(
                        f"SELECT c.value FROM {table} t, jsonb_each_text(to_jsonb(t)) c"  # noqa: S608
                        f" WHERE t.{key} = :room"
                    ),
                    {"room": room},
                )
                rows += [r[0] for r in result if r[0] is not None]
    finally:
        await engine.dispose()
    return "\n".join(rows)


@pytest.fixture
def sealed_url(database_url: str, tmp_path: Path) -> str:
    """A fresh SQLite file (its bytes are the test's alone), or the test PostgreSQL."""
    if database_url.startswith("sqlite"):
        return f"sqlite+aiosqlite:///{tmp_path}/sealed.db"
    return database_url


def key_file_for(sealed_url: str, tmp_path: Path) -> str:
    """The test's own key beside its own SQLite file; on the shared test PostgreSQL, the key
    every other test's server uses there (one database, one key: app/keycheck.py)."""
    if sealed_url.startswith("sqlite"):
        return str(tmp_path / "secret.key")
    return str(key_file(Settings(database_url=sealed_url)))


async def test_no_card_to_come_is_readable_in_the_database(
    sealed_url: str, make_server, tmp_path: Path
) -> None:
    key_file = key_file_for(sealed_url, tmp_path)
    state = start = rules.new_game("classic", 2, seed=fixed_match_seed(SEED))
    base = make_server(database_url=sealed_url, secret_key_file=key_file)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        api = Api(http)
        room, tokens = await online_room(api, seed=SEED)
        # Seat to move draws and discards, the next seat draws: mid-hand, mid-turn.
        for version, move in enumerate((DRAW, None, DRAW)):
            seat = state.turn
            move = move or {"type": "discard", "card": state.hands[seat][0]}
            state = play(state, move)
            view = ok(await api.move(room, tokens[seat], move, version))
            assert sorted(view["hand"]) == sorted(state.hands[seat])

    stored = await stored_text(sealed_url, room)
    assert room in stored  # the room's rows were read
    leaked = sorted(s for s in secrets_of(start, state) if s in stored)
    assert leaked == []

    base.stop()
    again = make_server(database_url=sealed_url, secret_key_file=key_file)
    async with httpx.AsyncClient(base_url=again, timeout=60) as http:
        api = Api(http)
        seat = state.turn
        move = {"type": "discard", "card": state.hands[seat][0]}
        state = play(state, move)
        view = ok(await api.move(room, tokens[seat], move, 3))
        assert view["version"] == 4 and sorted(view["hand"]) == sorted(state.hands[seat])
        assert ok(await api.log(room, tokens[0]))["hands"] == []


async def store_in_the_clear(database_url: str, room: str, state: rules.GameState) -> None:
    """Write the room's state and deal as servers before sealing did: plain JSON."""
    engine = create_async_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text("UPDATE rooms SET state = :state WHERE id = :room"),
                {"state": state.model_dump_json(), "room": room},
            )
            await conn.execute(
                text("UPDATE hands SET start = :start WHERE room_id = :room AND seq = 0"),
                {"start": rules.hand_start(state).model_dump_json(), "room": room},
            )
    finally:
        await engine.dispose()


async def room_state(database_url: str, room: str) -> str:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            query = text("SELECT state FROM rooms WHERE id = :room")
            return str((await conn.execute(query, {"room": room})).scalar_one())
    finally:
        await engine.dispose()


async def test_a_room_stored_in_the_clear_is_sealed_at_start_and_plays_on(
    sealed_url: str, make_server, tmp_path: Path
) -> None:

    key_file = key_file_for(sealed_url, tmp_path)
    deal = fixed_deal("classic", players=2, hands=OUT_IN_ONE_TURN["classic"], stock_top=["KS"])
    state = rules.new_game(
        "classic", 2, seed=fixed_match_seed(SEED), deal=rules.Deal.model_validate(deal)
    )
    old = make_server(database_url=sealed_url, secret_key_file=key_file)
    async with httpx.AsyncClient(base_url=old, timeout=60) as http:
        room, tokens = await online_room(Api(http), seed=SEED, deal=deal)
    old.stop()
    await store_in_the_clear(sealed_url, room, state)

    plain = await stored_text(sealed_url, room)
    assert [s for s in secrets_of(state) if s in plain]  # as an older server left it

    base = make_server(database_url=sealed_url, secret_key_file=key_file)
    # The start sealed what the old server left in the clear, before serving anything.
    assert (await room_state(sealed_url, room)).startswith("sealed1:")
    stored = await stored_text(sealed_url, room)
    assert sorted(s for s in secrets_of(state) if s in stored) == []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        api = Api(http)
        view = ok(await api.state(room, tokens[0]))
        assert sorted(view["hand"]) == sorted(deal["hands"][0])
        ok(await api.move(room, tokens[0], DRAW, 0))
        ok(await api.move(room, tokens[0], {"type": "meld", "melds": MELDS["classic"]}, 1))
        done = ok(await api.move(room, tokens[0], {"type": "discard", "card": "KS"}, 2))
        assert done["hand_result"]["winner"] == 0
        [hand] = ok(await api.log(room, tokens[1]))["hands"]
    # The plain deal of the finished hand still reads back, and replays to its outcome.
    assert [list(h) for h in hand["start"]["hands"]] == deal["hands"]
    assert [m["version"] for m in hand["moves"]] == [1, 2, 3]
