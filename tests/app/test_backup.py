"""Backups that restore: `rummy backup` copies a live SQLite database while moves keep
arriving, with its key beside the copy; a second server started on the copy finds every
room at the version the copy holds (a version between the ones acknowledged before and
after the backup) and plays on; `rummy restore` puts the copy in place, refusing to replace
a database without --force or with a key that does not open it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
from pathlib import Path

import httpx

from app.persist.sealing import new_key
from tests.kit.processes import RUMMY, rummy_serve
from tests.kit.tables import Greedy, Table, while_playing


async def _rummy(*args: str, database: Path) -> tuple[int, str]:
    """`rummy ARGS` on `database`: (exit code, what it printed)."""
    env = {**os.environ, "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{database}"}
    proc = await asyncio.create_subprocess_exec(
        RUMMY, *args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


def _versions(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as db:
        return dict(db.execute("SELECT id, version FROM rooms").fetchall())


def _logged(database: Path, room: str) -> list[tuple[int, int]]:
    """(version, seat) of the room's moves in the database's log."""
    with sqlite3.connect(database) as db:
        query = "SELECT version, seat FROM moves WHERE room_id = ? AND kind = 'move'"
        return sorted(db.execute(query, (room,)).fetchall())


async def test_a_live_backup_serves_every_room_at_its_version(tmp_path: Path) -> None:
    backups = tmp_path / "backups"
    backups.mkdir()
    copy = backups / "copy.db"
    # Page by page with a pause: the copy takes long enough for moves to land meanwhile.
    args = ("backup", str(copy), "--pages", "1", "--pause", "0.02")
    with rummy_serve(tmp_path) as served:
        async with httpx.AsyncClient(timeout=30) as http:
            tables, before, after, (status, said) = await while_playing(
                http, served.base, lambda: _rummy(*args, database=served.database)
            )
    assert status == 0, said
    assert sum(after.values()) > sum(before.values())  # moves were acknowledged meanwhile
    assert (backups / "secret.key").read_text() == (tmp_path / "secret.key").read_text()
    saw = _versions(copy)
    for t in tables:
        assert before[t.room] <= saw[t.room] <= after[t.room]
        acked = sorted(a for a in t.acked if a[0] <= saw[t.room])
        assert _logged(copy, t.room) == acked  # every acknowledged move the copy covers
    with rummy_serve(tmp_path, RUMMY_DATABASE_URL=f"sqlite+aiosqlite:///{copy}") as second:
        async with httpx.AsyncClient(timeout=30) as http:
            bot = Greedy()
            for t in tables:
                again = Table(second.base, t.room, t.tokens)
                assert (await again.state(http))["version"] == saw[t.room]
                await again.step(http, bot)  # sealed state opens with the key: play goes on
                assert again.top == saw[t.room] + 1 or again.hands_done == 1
    await _restores(copy, tmp_path / "restored" / "rummy.db")


async def _restores(copy: Path, target: Path) -> None:
    saw = _versions(copy)
    status, said = await _rummy("restore", str(copy), database=target)
    assert status == 0, said
    assert (target.parent / "secret.key").read_text() == (copy.parent / "secret.key").read_text()
    assert _versions(target) == saw
    status, said = await _rummy("restore", str(copy), database=target)
    assert status == 2 and "--force" in said  # an existing database stays unless told
    other = copy.parent / "other.key"
    other.write_text(new_key() + "\n")
    wrong = ("restore", str(copy), "--key", str(other), "--force")
    status, said = await _rummy(*wrong, database=target)
    assert status == 2 and "does not open" in said, said
    assert _versions(target) == saw and not target.with_name("rummy.db.before-restore").exists()


async def test_migrate_brings_a_database_to_the_release_without_serving(tmp_path: Path) -> None:
    """An upgrade's first step (docs/operations.md)."""
    database = tmp_path / "rummy.db"
    status, said = await _rummy("migrate", database=database)
    assert status == 0, said
    assert _versions(database) == {}  # the tables are there, and no room
