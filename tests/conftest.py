"""Shared fixtures: real servers on loopback, the database backends, a small API client
and fixed deals.

- `live_server` (session): one real server (uvicorn in a thread, on a socket pre-bound to
  127.0.0.1:0) with RUMMY_ALLOW_FIXED_DEALS=1 on a temporary SQLite database. It is a `str`
  (its base URL, e.g. "http://127.0.0.1:43127") with extras: `.app`, `.set_clock(fn)`,
  `.call(coro_fn)` (run a coroutine on the server's own loop).
- `database_url` (session, parametrized "sqlite" / "postgres"): the postgres param uses
  RUMMY_TEST_POSTGRES_URL; it skips when that is unset, or fails when
  RUMMY_TEST_REQUIRE_SERVICES=1. Its tables are dropped once at session start.
- `server` (session): like `live_server` but on each `database_url`.
- `make_server` (function): start extra servers with custom settings, stopped afterwards.
- `api` / `Api`: an httpx-based client for the routes of API.md.
- `fixed_deal(...)`: a complete `deal` body from the few cards a test cares about.

Each test creates its own rooms (ids are random), so tests never share a room.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

POSTGRES_ENV = "RUMMY_TEST_POSTGRES_URL"
REQUIRE_ENV = "RUMMY_TEST_REQUIRE_SERVICES"
RANKS = "A23456789TJQK"
SUITS = "CDHS"


# --- database backends ------------------------------------------------------------------


def _require_services() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def postgres_url_or_skip() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        reason = f"{POSTGRES_ENV} is not set: PostgreSQL tests skipped"
        if _require_services():
            pytest.fail(f"{REQUIRE_ENV}=1 but {POSTGRES_ENV} is not set")
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
            for table in ("moves", "hands", "seats", "rooms", "alembic_version"):
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


class LiveServer(str):
    """The base URL of a running server, plus handles to reach inside it."""

    app: Any
    loop: asyncio.AbstractEventLoop
    database_url: str
    _server: Any
    _thread: threading.Thread

    @property
    def ws_url(self) -> str:
        return "ws" + self[len("http") :]

    def set_clock(self, clock: Callable[[], datetime]) -> None:
        """Make the server read time from `clock` (expiry tests)."""
        self.app.state.game.clock = clock

    async def call(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """Run `make()` on the server's event loop (its engine lives there) and await it."""

        async def run() -> Any:
            return await make()

        future = asyncio.run_coroutine_threadsafe(run(), self.loop)
        return await asyncio.wrap_future(future)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)


def start_server(database_url: str, **settings: Any) -> LiveServer:
    """Migrate `database_url` to head and serve the app on a free loopback port."""
    import uvicorn

    from app import migrate
    from app.config import Settings
    from app.db import create_engine
    from app.main import create_app

    options: dict[str, Any] = {
        "database_url": database_url,
        "allow_fixed_deals": True,
        "rate_limit_enabled": False,
    }
    options.update(settings)
    app = create_app(Settings(**options))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, lifespan="on", ws="websockets-sansio", access_log=False, log_level="warning"
    )
    server = uvicorn.Server(config)
    live = LiveServer(f"http://127.0.0.1:{port}")
    live.app, live.database_url, live._server = app, database_url, server
    failure: list[BaseException] = []

    async def main() -> None:
        live.loop = asyncio.get_running_loop()
        engine = create_engine(database_url)
        try:
            await migrate.upgrade(engine)
        finally:
            await engine.dispose()
        await server.serve(sockets=[sock])

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # reported to the test below
            failure.append(exc)
        finally:
            sock.close()

    live._thread = threading.Thread(target=target, name=f"rummy-{port}", daemon=True)
    live._thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if failure or not live._thread.is_alive():
            raise RuntimeError(f"server did not start: {failure!r}")
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start within 60 s")
        time.sleep(0.02)
    return live


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


# --- a small client -----------------------------------------------------------------------


class Api:
    """The routes of API.md over real HTTP; every method returns the httpx.Response."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    async def create(self, **body: Any) -> httpx.Response:
        return await self.http.post("/api/rooms", json=body)

    async def join(self, room: str, name: str = "Guest") -> httpx.Response:
        return await self.http.post(f"/api/rooms/{room}/join", json={"name": name})

    async def summary(self, room: str) -> httpx.Response:
        return await self.http.get(f"/api/rooms/{room}")

    async def state(self, room: str, token: str | None) -> httpx.Response:
        return await self.http.get(f"/api/rooms/{room}/state", headers=self.auth(token))

    async def move(
        self, room: str, token: str | None, move: dict[str, Any], version: int
    ) -> httpx.Response:
        return await self.http.post(
            f"/api/rooms/{room}/moves",
            json={"move": move, "version": version},
            headers=self.auth(token),
        )

    async def vote(self, room: str, token: str | None, vote: str) -> httpx.Response:
        return await self.http.post(
            f"/api/rooms/{room}/votes", json={"vote": vote}, headers=self.auth(token)
        )

    async def log(self, room: str, token: str | None) -> httpx.Response:
        return await self.http.get(f"/api/rooms/{room}/log", headers=self.auth(token))


async def _api_for(base_url: str) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        yield Api(http)


@pytest.fixture
async def api(live_server: LiveServer) -> AsyncIterator[Api]:
    """A client of `live_server`."""
    async for client in _api_for(live_server):
        yield client


# --- fixed deals --------------------------------------------------------------------------


def pack(variant: str) -> list[str]:
    """Every card of the variant's pack, in a fixed order."""
    import rules

    ruleset = rules.get_variant(variant)
    codes = [rank + suit for suit in SUITS for rank in RANKS] * ruleset.decks
    return codes + ["JK"] * ruleset.jokers


def fixed_deal(
    variant: str,
    players: int,
    hands: list[list[str]] | None = None,
    stock_top: list[str] | None = None,
    discard: list[str] | None = None,
) -> dict[str, Any]:
    """A complete `deal` body: the given cards where asked, the rest of the pack filled in
    pack order (hands first, then one discard if none is given, then the stock)."""
    import rules

    size = rules.get_variant(variant).hand_size[players]
    left = pack(variant)
    wanted = [c for h in hands or [] for c in h] + (stock_top or []) + (discard or [])
    for card in wanted:
        left.remove(card)
    full_hands = []
    for seat in range(players):
        hand = list((hands or [])[seat]) if hands and seat < len(hands) else []
        while len(hand) < size:
            hand.append(left.pop(0))
        full_hands.append(hand)
    if discard is None:
        discard = [left.pop(0)]
    return {"hands": full_hands, "discard": discard, "stock": (stock_top or []) + left}
