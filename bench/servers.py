"""The servers the benches start and wait for: a free port, waiting until a server answers,
a `rummy serve` that the kill benches kill and start again on its port, and the PostgreSQL
database and environment those servers share."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_up(http: httpx.AsyncClient) -> None:
    """Until the server `http` points at answers /healthz (30 s at most)."""
    for _ in range(300):
        try:
            if (await http.get("/healthz")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("the server did not start")


def wait_healthy(url: str, proc: subprocess.Popen[bytes], what: str, timeout: float = 180) -> None:
    """Until `url` answers /healthz; exits the bench if `proc` ends or `timeout` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"{what} did not come up")


def wait_listening(port: int, tries: int = 100) -> None:
    """Until something accepts connections on `port` on loopback (`tries` x 0.1 s at most)."""
    for _ in range(tries):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)


def sqlite_env(db: Path, tree: Path | None = None, **settings: str) -> dict[str, str]:
    """The environment of a `rummy serve` on the SQLite file `db` with the rates off (a bench
    is one address that sends more than a player would), `tree`'s packages first on the path
    when it serves another checkout, and `settings` (RUMMY_... names) on top."""
    env = dict(
        os.environ,
        RUMMY_DATABASE_URL=f"sqlite+aiosqlite:///{db}",
        RUMMY_RATE_LIMIT_ENABLED="0",
        **settings,
    )
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


class Server:
    """One `rummy serve` on a fixed port, which `kill` and `start` cycle."""

    def __init__(self, name: str, env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.log_path = log_dir / f"server-{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.up_since = 0.0  # monotonic time it last became ready; 0 while down

    def start(self) -> None:
        rummy = Path(sys.executable).with_name("rummy")
        cmd = [str(rummy)] if rummy.exists() else [sys.executable, "-m", "app.cli"]
        cmd += ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    async def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server {self.name} exited; see {self.log_path}")
                try:
                    if (await http.get(self.url + "/healthz")).status_code == 200:
                        self.up_since = time.monotonic()
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError(f"server {self.name} not ready in {timeout} s; see {self.log_path}")

    async def up(self) -> None:
        """Start it and wait until it answers."""
        self.start()
        await self.wait_ready()

    def kill(self) -> None:
        self.up_since = 0.0
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        self.up_since = 0.0
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


async def admin(url: str, sql: str) -> None:
    """One statement on the PostgreSQL server of `url` (creating or dropping a database)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def own_database(admin_url: str, bench: str) -> tuple[str, Path]:
    """A database of this run (`<bench>_<pid>`) made on `admin_url`'s PostgreSQL, which
    `drop_database` drops, and a folder for the run's logs (kept: they are the evidence)."""
    database = f"{bench}_{os.getpid()}"
    await admin(admin_url, f'CREATE DATABASE "{database}"')
    return database, Path(tempfile.mkdtemp(prefix=f"rummy-{bench}-"))


async def drop_database(admin_url: str, database: str) -> None:
    await admin(admin_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def shared_env(admin_url: str, database: str, redis: str) -> dict[str, str]:
    """The environment of servers that share `database` (on `admin_url`'s PostgreSQL) and
    `redis`: rates off, and one sealing key for all of them, none left in ./data."""
    from app.persist.sealing import new_key

    db_url = admin_url.rsplit("/", 1)[0] + f"/{database}"
    return {
        **os.environ,
        "RUMMY_DATABASE_URL": db_url.replace("postgresql://", "postgresql+asyncpg://", 1),
        "RUMMY_REDIS_URL": redis,
        "RUMMY_RATE_LIMIT_ENABLED": "false",
        "RUMMY_SECRET_KEY": new_key(),
        "PYTHONPATH": str(ROOT),
    }
