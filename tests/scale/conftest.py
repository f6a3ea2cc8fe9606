"""Several `rummy serve` processes on one PostgreSQL database and one Redis.

The services come from RUMMY_TEST_POSTGRES_URL and RUMMY_TEST_REDIS_URL. Without them these
tests skip with the reason; with RUMMY_TEST_REQUIRE_SERVICES=1 (CI) they fail instead. Each
test session gets a database of its own (created here, dropped at the end), so other suites
on the same server never see our rooms and we never see theirs.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.kit.cluster import Server, Services, admin

POSTGRES_URL = os.environ.get("RUMMY_TEST_POSTGRES_URL")
REDIS_URL = os.environ.get("RUMMY_TEST_REDIS_URL")
REQUIRE = os.environ.get("RUMMY_TEST_REQUIRE_SERVICES") == "1"


def _unavailable(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"{reason} (RUMMY_TEST_REQUIRE_SERVICES=1)")
    pytest.skip(reason)


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def services() -> Iterator[Services]:
    missing = [
        name
        for name, value in (
            ("RUMMY_TEST_POSTGRES_URL", POSTGRES_URL),
            ("RUMMY_TEST_REDIS_URL", REDIS_URL),
        )
        if not value
    ]
    if missing:
        _unavailable(f"multi-process tests need PostgreSQL and Redis: set {' and '.join(missing)}")
    assert POSTGRES_URL and REDIS_URL
    pg, redis = make_url(POSTGRES_URL), make_url(REDIS_URL)
    for name, host, port in (
        ("PostgreSQL", pg.host or "127.0.0.1", pg.port or 5432),
        ("Redis", redis.host or "127.0.0.1", redis.port or 6379),
    ):
        if not _port_open(host, port):
            _unavailable(f"{name} does not answer at {host}:{port}")
    name = f"rummy_scale_{secrets.token_hex(4)}"
    asyncio.run(admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    try:
        yield Services(pg.set(database=name).render_as_string(hide_password=False), REDIS_URL)
    finally:
        asyncio.run(admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def server_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("servers")


@pytest.fixture
def start_servers(services: Services, server_logs: Path) -> Iterator[object]:
    """start_servers(n, workers=1, env=None) -> [Server, ...], ready; all stopped after
    the test. `env` adds settings (RUMMY_...) to every server started in that call."""
    started: list[Server] = []

    def start(n: int, workers: int = 1, env: dict[str, str] | None = None) -> list[Server]:
        servers = [
            Server(services, server_logs, f"s{len(started) + i}", workers, env) for i in range(n)
        ]
        started.extend(servers)
        for server in servers:
            server.wait_ready()
        return servers

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def pair(services: Services, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two server processes on the same database and Redis, shared by a module's tests."""
    logs = tmp_path_factory.mktemp("pair")
    servers = [Server(services, logs, name) for name in ("a", "b")]
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()
