"""Several `rummy serve` processes on one PostgreSQL database and one Redis (the tests of
tests/scale/): the services they share and one server process (the fixtures that start
them are in tests/scale/conftest.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from tests.kit.ports import free_port

ROOT = Path(__file__).resolve().parents[2]


async def admin(url: str, sql: str) -> None:
    """Run one statement as the test server's admin (CREATE/DROP DATABASE)."""
    import asyncpg

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@dataclass(frozen=True)
class Services:
    """The PostgreSQL database and the Redis the servers of a scale test share."""

    database_url: str  # this session's own PostgreSQL database
    redis_url: str


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
