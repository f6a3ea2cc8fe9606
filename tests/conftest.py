"""Shared fixtures: real servers on loopback, the database backends, a small API client
and fixed deals.

- `live_server` (session): one real server (uvicorn in a thread, on a socket pre-bound to
  127.0.0.1:0) with RUMMY_ALLOW_FIXED_DEALS=1 on a temporary SQLite database. It is a `str`
  (its base URL, e.g. "http://127.0.0.1:43127") with extras: `.app`, `.set_clock(fn)`,
  `.call(coro_fn)` (run a coroutine on the server's own loop).
- `database_url` (session, parametrized "sqlite" / "postgres"): the postgres param uses
  RUMMY_TEST_POSTGRES_URL; it skips when that is unset, or fails when
  RUMMY_TEST_REQUIRE_SERVICES=1. Its tables are dropped once at session start.
- `postgres_url` (session): RUMMY_TEST_POSTGRES_URL itself, skipping or failing likewise.
- `server` (session): like `live_server` but on each `database_url`.
- `make_server` (function): start extra servers with custom settings, stopped afterwards.
- `http`, `api`: an HTTP client and an `Api` client of `live_server`; `client`: an `Api`
  client of `server`.
Helpers (servers, clients, deals, response checks...) live in the test kit, tests/kit/.

Each test creates its own rooms (ids are random), so tests never share a room.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.kit import hangs
from tests.kit.clients import Api, http_client
from tests.kit.servers import LiveServer, start_server

POSTGRES_ENV = "RUMMY_TEST_POSTGRES_URL"
REQUIRE_ENV = "RUMMY_TEST_REQUIRE_SERVICES"


# --- a hung test fails with where it waits (tests/kit/hangs.py) ------------------------------


def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    return hangs.set_timer(item, settings)


def pytest_timeout_cancel_timer(item: pytest.Item) -> bool | None:
    return hangs.cancel_timer(item)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    hangs.terminal_summary(terminalreporter)


# --- one database and one Redis db per worker ---------------------------------------------


REDIS_ENV = "RUMMY_TEST_REDIS_URL"
REDIS_DBS = 16  # Redis's default number of logical databases


def _own_services_per_worker() -> None:
    """Under pytest-xdist (`make test` runs workers side by side) each worker gets its own
    PostgreSQL database (`<db>_gw0`, ...) and Redis db (the given one + 1 + its number), so
    one worker dropping its tables or sweeping its keys never touches another's. Runs at
    import, before any fixture or sub-directory conftest reads the variables; the servers
    the tests start inherit them."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    index = int(worker.removeprefix("gw"))
    postgres = os.environ.get(POSTGRES_ENV)
    if postgres:
        from sqlalchemy.engine import make_url

        url = make_url(postgres)
        own = url.set(database=f"{url.database}_{worker}")
        _create_database(postgres, own.database or "")
        os.environ[POSTGRES_ENV] = own.render_as_string(hide_password=False)
    redis = os.environ.get(REDIS_ENV)
    if redis:
        base, _, db = redis.rstrip("/").rpartition("/")
        if not db.isdigit():
            base, db = redis.rstrip("/"), "0"
        os.environ[REDIS_ENV] = f"{base}/{(int(db) + 1 + index) % REDIS_DBS}"


def _create_database(url: str, name: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    async def create() -> None:
        conn = await asyncpg.connect(plain)
        try:
            exists = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
            if not exists:
                await conn.execute(f'CREATE DATABASE "{name}"')
        except asyncpg.DuplicateDatabaseError:
            pass  # another run made it first
        finally:
            await conn.close()

    asyncio.run(create())


_own_services_per_worker()


# --- database backends ------------------------------------------------------------------


def _require_services() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def postgres_url_or_skip() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        # `make test` sets it: scripts/services.sh finds or starts a PostgreSQL.
        reason = f"{POSTGRES_ENV} is not set (make test sets it): PostgreSQL tests skipped"
        if _require_services():
            pytest.fail(f"{REQUIRE_ENV}=1 but {POSTGRES_ENV} is not set (make test sets it)")
        pytest.skip(reason)
    return url


_cleaned_postgres: set[str] = set()


def _clean_postgres(url: str) -> None:
    """Drop our tables once per session: DB `test` is shared between runs."""
    if url in _cleaned_postgres:
        return

    async def drop() -> None:
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(url)
        async with engine.begin() as conn:
            friends = (
                "chat_messages",
                "room_social",
                "challenge_invites",
                "challenge_entries",
                "challenges",
            )
            for table in (*friends, "moves", "hands", "seats", "rooms", "alembic_version"):
                await conn.exec_driver_sql(f"DROP TABLE IF EXISTS {table} CASCADE")
        await engine.dispose()

    _run_in_thread(drop())
    _cleaned_postgres.add(url)


def _run_in_thread(coro: Awaitable[Any]) -> Any:
    """asyncio.run in a fresh thread: fixtures may be set up while a loop is running."""
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)  # type: ignore[arg-type]
        except BaseException as exc:  # re-raised in the caller
            result["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")


@pytest.fixture(
    scope="session",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "postgres":
        url = postgres_url_or_skip()
        _clean_postgres(url)
        return url
    path = tmp_path_factory.mktemp("db") / "rummy.db"
    return f"sqlite+aiosqlite:///{path}"


# --- real servers -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test PostgreSQL server's URL (the test is skipped without one)."""
    return postgres_url_or_skip()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server with fixed deals allowed, on a temporary SQLite database."""
    path = tmp_path_factory.mktemp("live") / "rummy.db"
    server = start_server(f"sqlite+aiosqlite:///{path}")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def server(database_url: str) -> Iterator[LiveServer]:
    """A real server on each database backend (SQLite, and PostgreSQL when configured)."""
    live = start_server(database_url)
    yield live
    live.stop()


@pytest.fixture
def make_server(
    tmp_path: Path,
) -> Iterator[Callable[..., LiveServer]]:
    """Start servers with custom settings; `database_url` defaults to a fresh SQLite file."""
    started: list[LiveServer] = []

    def make(**settings: Any) -> LiveServer:
        url = (
            settings.pop("database_url", None)
            or f"sqlite+aiosqlite:///{tmp_path}/s{len(started)}.db"
        )
        live = start_server(url, **settings)
        started.append(live)
        return live

    yield make
    for live in started:
        live.stop()


# --- clients -----------------------------------------------------------------------------


@pytest.fixture
async def http(live_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of `live_server`."""
    async with http_client(live_server) as client:
        yield client


@pytest.fixture
async def api(http: httpx.AsyncClient) -> AsyncIterator[Api]:
    """An `Api` client of `live_server`."""
    yield Api(http)


@pytest.fixture
async def client(server: LiveServer) -> AsyncIterator[Api]:
    """An `Api` client of `server` (each database backend)."""
    async with http_client(server) as http:
        yield Api(http)
