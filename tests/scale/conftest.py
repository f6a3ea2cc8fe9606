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
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@dataclass(frozen=True)
class Services:
    database_url: str  # this session's own PostgreSQL database
    redis_url: str


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
    asyncio.run(_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    try:
        yield Services(pg.set(database=name).render_as_string(hide_password=False), REDIS_URL)
    finally:
        asyncio.run(_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class Server:
    """One `rummy serve` subprocess on a free loopback port."""

    def __init__(
        self,
        services: Services,
        log_dir: Path,
        name: str,
        workers: int = 1,
        env: dict[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.name = name
        self.log_path = log_dir / f"server-{name}-{self.port}.log"
        env = {
            **os.environ,
            "RUMMY_DATABASE_URL": services.database_url,
            "RUMMY_REDIS_URL": services.redis_url,
            "RUMMY_ALLOW_FIXED_DEALS": "1",
            # One test client sends many requests from one address.
            "RUMMY_RATE_LIMIT_ENABLED": "false",
            # The work tree's packages, whatever an editable install recorded.
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p
            ),
            **(env or {}),
        }
        rummy = Path(sys.executable).with_name("rummy")
        cmd = [str(rummy)] if rummy.exists() else [sys.executable, "-m", "app.cli"]
        cmd += ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        if workers > 1:
            cmd += ["--workers", str(workers)]
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server {self.name} exited:\n{self.log()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server {self.name} not ready in {timeout} s:\n{self.log()}")

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        """kill -9 the whole process group (uvicorn workers included)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


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
