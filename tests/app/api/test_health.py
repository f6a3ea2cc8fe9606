"""`/healthz` tells a load balancer the truth: 503 in the API's error shape once the
database is gone, without naming the database."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

pytestmark = pytest.mark.postgres


async def _admin(url: str, sql: str) -> None:
    # CREATE/DROP DATABASE cannot run inside a transaction.
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.exec_driver_sql(sql)
    finally:
        await engine.dispose()


async def test_healthz_answers_503_when_the_database_is_gone(
    make_server: Any, postgres_url: str
) -> None:
    admin = postgres_url
    name = f"rummy_health_{secrets.token_hex(4)}"
    await _admin(admin, f"CREATE DATABASE {name}")
    try:
        url = make_url(admin).set(database=name).render_as_string(hide_password=False)
        base = make_server(database_url=url)
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            up = await http.get("/healthz")
            assert up.status_code == 200 and up.json() == {"status": "ok"}

            await _admin(admin, f"DROP DATABASE {name} WITH (FORCE)")
            down = await http.get("/healthz")
            assert down.status_code == 503
            assert down.json()["error"]["code"] == "unavailable"
            assert name not in down.text and "127.0.0.1" not in down.text
    finally:
        await _admin(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
