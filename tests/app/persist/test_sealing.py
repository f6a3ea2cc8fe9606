"""The key and the seal of stored states (app/persist/sealing.py): one key per data folder,
made once however many processes start together, private to its owner; a sealed value
opens only under its key and for its own row."""

from __future__ import annotations

import stat
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.config import Settings
from app.persist.sealing import (
    SealError,
    StateCipher,
    cipher_for,
    decode_key,
    load_or_create_key,
    new_key,
)

STATE = '{"seed": "ab", "stock": ["AH", "2H", "3H"]}'


def test_a_new_key_file_is_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "data" / "secret.key"
    key = load_or_create_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_key(path) == key
    assert [p.name for p in path.parent.iterdir()] == ["secret.key"]  # no temporary left


def test_processes_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    path = tmp_path / "secret.key"
    start = threading.Barrier(8)
    keys: list[bytes] = []

    def boot() -> None:
        start.wait()
        keys.append(load_or_create_key(path))

    threads = [threading.Thread(target=boot) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert keys[0] == decode_key(path.read_text())


def test_the_embedded_default_keeps_its_key_beside_the_database(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/rummy.db")
    sealed = cipher_for(settings).seal("rooms.state:r1", STATE)
    assert (tmp_path / "secret.key").exists()
    assert cipher_for(settings).open("rooms.state:r1", sealed) == STATE  # a restart


def test_rummy_secret_key_is_used_and_a_malformed_one_is_refused(tmp_path: Path) -> None:
    key = new_key()
    url = f"sqlite+aiosqlite:///{tmp_path}/rummy.db"
    sealed = cipher_for(Settings(database_url=url, secret_key=key)).seal("c", STATE)
    assert StateCipher(decode_key(key)).open("c", sealed) == STATE
    assert not (tmp_path / "secret.key").exists()
    with pytest.raises(ValueError, match="32 bytes"):
        cipher_for(Settings(database_url=url, secret_key="c2hvcnQ="))


def test_a_sealed_state_opens_only_for_its_own_row_and_key() -> None:
    cipher = StateCipher(decode_key(new_key()))
    sealed = cipher.seal(cipher.state_context("room-a"), STATE)
    assert '"AH"' not in sealed and sealed != cipher.seal(cipher.state_context("room-a"), STATE)
    assert cipher.open(cipher.state_context("room-a"), sealed) == STATE
    with pytest.raises(SealError):
        cipher.open(cipher.state_context("room-b"), sealed)  # a row copied to another room
    with pytest.raises(SealError):
        cipher.open(cipher.hand_context("room-a", 0), sealed)
    with pytest.raises(SealError):
        StateCipher(decode_key(new_key())).open(cipher.state_context("room-a"), sealed)
    assert cipher.open(cipher.state_context("room-a"), STATE) == STATE  # from before sealing


async def test_another_process_advances_its_cached_room_from_the_sealed_event() -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    import rules
    from app.db import create_sessionmaker
    from app.persist import Commit, SeatRow, Snapshot, SqlStore
    from app.rooms.snapshots import SnapshotCache

    engine = create_async_engine("sqlite+aiosqlite://")  # never connected
    store = SqlStore(create_sessionmaker(engine), StateCipher(decode_key(new_key())))
    state = rules.new_game("classic", 2, seed=bytes(32))
    seats = tuple(SeatRow(seat=i, name=None, taken=True, bot=None) for i in range(2))
    room = Snapshot("r1", "classic", 2, "online", 0, 0, datetime.now(UTC), state, seats)
    moved = rules.apply(state, state.turn, rules.parse_move({"type": "draw", "source": "stock"}))
    sealed = store.stored_state("r1", Commit(seat=0, kind="move", payload={}, state=moved))
    # Quoted: a bare two-letter code turns up in random base64 about one time in three.
    assert f'"{moved.stock[0]}"' not in sealed and moved.seed not in sealed

    async def no_reads(room_id: str) -> Snapshot:
        raise AssertionError("the event carried the state: no read needed")

    cache = SnapshotCache(no_reads, store.decode_state)
    cache.put(room)
    event = {"kind": "state", "version": 1, "state": sealed, "hand_seq": 0}
    cache.on_event("r1", {**event, "active_at": datetime.now(UTC).isoformat()})
    assert (await cache.get("r1")).state == moved
    await engine.dispose()
