"""Backups that restore, on PostgreSQL: `pg_dump` of a live database while moves keep
arriving, `pg_restore` into a new database, and a server started there with the same key
(RUMMY_SECRET_KEY) finds every room at the version the dump holds and plays on: the routine
of docs/operations.md, "Backups"."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import httpx
from sqlalchemy.engine import make_url

from app.persist.sealing import new_key
from tests.kit.cluster import Server, Services, admin
from tests.kit.tables import Greedy, Table, need_tool, while_playing


def _libpq(url: str) -> str:
    """The URL pg_dump and pg_restore take (no SQLAlchemy driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _run(*command: str) -> None:
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    assert proc.returncode == 0, out.decode()


async def _versions(url: str) -> dict[str, int]:
    import asyncpg

    conn = await asyncpg.connect(_libpq(url))
    try:
        return {r["id"]: r["version"] for r in await conn.fetch("SELECT id, version FROM rooms")}
    finally:
        await conn.close()


async def test_pg_dump_of_a_live_database_restores_every_room(
    services: Services, tmp_path: Path
) -> None:
    pg_dump, pg_restore = need_tool("pg_dump"), need_tool("pg_restore")
    base = make_url(services.database_url)
    names = [f"rummy_backup_{secrets.token_hex(4)}_{side}" for side in ("live", "restored")]
    urls = [base.set(database=n).render_as_string(hide_password=False) for n in names]
    for name in names:
        await admin(services.database_url, f'CREATE DATABASE "{name}"')
    key = {"RUMMY_SECRET_KEY": new_key()}  # what the operator keeps beside the dump
    dump = tmp_path / "rummy.dump"
    try:
        live = Server(services, tmp_path, "live", env={"RUMMY_DATABASE_URL": urls[0], **key})
        try:
            live.wait_ready()
            async with httpx.AsyncClient(timeout=30) as http:
                dumping = (pg_dump, "--format=custom", f"--file={dump}", _libpq(urls[0]))
                tables, before, after, _ = await while_playing(
                    http, live.url, lambda: _run(*dumping)
                )
        finally:
            live.stop()
        await _run(pg_restore, "--no-owner", f"--dbname={_libpq(urls[1])}", str(dump))
        saw = await _versions(urls[1])
        assert sum(after.values()) > sum(before.values())  # moves landed during the dump
        for t in tables:
            assert before[t.room] <= saw[t.room] <= after[t.room]
        second = Server(services, tmp_path, "restored", env={"RUMMY_DATABASE_URL": urls[1], **key})
        try:
            second.wait_ready()
            async with httpx.AsyncClient(timeout=30) as http:
                bot = Greedy()
                for t in tables:
                    again = Table(second.url, t.room, t.tokens)
                    assert (await again.state(http))["version"] == saw[t.room]
                    await again.step(http, bot)  # the key opens its sealed state: play goes on
        finally:
            second.stop()
    finally:
        for name in names:
            await admin(services.database_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
