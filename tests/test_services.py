"""scripts/services.sh, which gives `make test` and `.ci/run` their PostgreSQL and Redis.

It runs here on free ports, so the servers this machine already runs on 5432 and 6379 are
never touched: the throwaway ones must come up, serve the command, and be gone after it.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.kit.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "services.sh"

# What the command sees: it connects to both services with the URLs it was given.
PROBE = """
import asyncio, json, os
import asyncpg, redis.asyncio as aioredis

async def main():
    url = os.environ["RUMMY_TEST_POSTGRES_URL"]
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    fsync = await conn.fetchval("show fsync")
    await conn.close()
    client = aioredis.from_url(os.environ["RUMMY_TEST_REDIS_URL"])
    pong = await client.ping()
    await client.aclose()
    print(json.dumps({
        "postgres": url, "redis": os.environ["RUMMY_TEST_REDIS_URL"], "fsync": fsync,
        "pong": pong, "require": os.environ["RUMMY_TEST_REQUIRE_SERVICES"],
    }))

asyncio.run(main())
"""


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUMMY_")}
    return {**env, **extra}


def _run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *command], env=env, capture_output=True, text=True, timeout=120
    )


def _initdb() -> str | None:
    installed = glob.glob("/usr/lib/postgresql/*/bin/initdb")  # Debian keeps it off PATH
    return shutil.which("initdb") or max(installed, default=None)


def _need(*binaries: str | None) -> None:
    if all(binaries):
        return
    if os.environ.get("RUMMY_TEST_REQUIRE_SERVICES", "") not in ("", "0"):
        pytest.fail("RUMMY_TEST_REQUIRE_SERVICES=1 but PostgreSQL or Redis is not installed")
    pytest.skip("PostgreSQL's or Redis's binaries are not installed")


def test_throwaway_servers_serve_the_command_and_are_gone_after_it() -> None:
    _need(_initdb(), shutil.which("redis-server"))
    pg, redis = free_port(), free_port()
    # As strict as this run: a machine without Chromium may still test the services.
    require = "0" if os.environ.get("RUMMY_TEST_REQUIRE_SERVICES") == "0" else "1"
    done = _run(
        [sys.executable, "-c", PROBE],
        _env(
            RUMMY_SERVICES_PG_PORT=str(pg),
            RUMMY_SERVICES_REDIS_PORT=str(redis),
            RUMMY_TEST_REQUIRE_SERVICES=require,
        ),
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen == {
        "postgres": f"postgresql+asyncpg://root@127.0.0.1:{pg}/test",
        "redis": f"redis://127.0.0.1:{redis}/0",
        "fsync": "off",
        "pong": True,
        "require": require,
    }
    assert f"starting a throwaway PostgreSQL on 127.0.0.1:{pg}" in done.stderr
    assert not _port_open(pg) and not _port_open(redis)


def test_given_urls_are_used_as_they_are_and_the_exit_status_is_the_commands() -> None:
    done = _run(
        ["sh", "-c", 'echo "$RUMMY_TEST_POSTGRES_URL $RUMMY_TEST_REDIS_URL"; exit 3'],
        _env(
            RUMMY_TEST_POSTGRES_URL="postgresql+asyncpg://u:hunter2@db.invalid/x",
            RUMMY_TEST_REDIS_URL="redis://cache.invalid/5",
        ),
    )
    assert done.returncode == 3
    assert done.stdout.split() == ["postgresql+asyncpg://u:hunter2@db.invalid/x",
                                   "redis://cache.invalid/5"]  # fmt: skip
    assert "hunter2" not in done.stderr and "u:***@db.invalid" in done.stderr


def test_a_service_that_cannot_be_had_fails_and_names_what_to_install(tmp_path: Path) -> None:
    # A PATH with the shell's tools but without redis-server, and a closed port.
    for tool in ("bash", "sh", "mktemp", "sed", "seq", "sleep", "cat", "true"):
        found = shutil.which(tool)
        assert found, tool
        (tmp_path / tool).symlink_to(found)
    done = _run(
        ["sh", "-c", "echo ran"],
        _env(
            PATH=str(tmp_path),
            RUMMY_TEST_POSTGRES_URL="postgresql+asyncpg://root@127.0.0.1:1/test",
            RUMMY_SERVICES_REDIS_PORT=str(free_port()),
            RUMMY_TEST_REQUIRE_SERVICES="1",
        ),
    )
    assert done.returncode == 1 and "ran" not in done.stdout
    assert "redis-server is not installed" in done.stderr
    assert "apt-get install -y chromium postgresql redis-server nodejs" in done.stderr

    skipping = _run(
        [
            "sh",
            "-c",
            'echo ran "${RUMMY_TEST_REDIS_URL:-without redis}" "$RUMMY_TEST_REQUIRE_SERVICES"',
        ],  # fmt: skip
        _env(
            PATH=str(tmp_path),
            RUMMY_TEST_POSTGRES_URL="postgresql+asyncpg://root@127.0.0.1:1/test",
            RUMMY_SERVICES_REDIS_PORT=str(free_port()),
            RUMMY_TEST_REQUIRE_SERVICES="0",
        ),
    )
    assert skipping.returncode == 0, skipping.stderr
    assert skipping.stdout.strip() == "ran without redis 0"
    assert "its tests will skip" in skipping.stderr


def test_a_postgresql_that_refuses_root_fails_and_says_so() -> None:
    """Like Debian's own cluster: it answers on the port but has no trust-auth `root`."""
    initdb = _initdb()
    _need(initdb, shutil.which("psql"))
    assert initdb
    bin_dir = Path(os.path.realpath(initdb)).parent
    as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    # Not under pytest's tmp_path: the `postgres` user cannot enter root's private folder.
    home = Path(tempfile.mkdtemp(prefix="rummy-test-pg."))
    data = home / "pg"
    pg_ctl = [*as_owner, str(bin_dir / "pg_ctl"), "-D", str(data), "-w"]
    port = free_port()
    try:
        home.chmod(0o755)
        data.mkdir()
        if as_owner:
            shutil.chown(data, "postgres")
        subprocess.run([*as_owner, str(initdb), "-A", "trust", "-U", "postgres", "-N", "-D",
                        str(data)], check=True, capture_output=True)  # fmt: skip
        options = f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={data}"
        subprocess.run([*pg_ctl, "-l", str(data / "log"), "start", "-o", options],
                       check=True, capture_output=True)  # fmt: skip
        done = _run(["sh", "-c", "echo ran"], _env(RUMMY_SERVICES_PG_PORT=str(port)))
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(home)
    assert done.returncode == 1 and "ran" not in done.stdout
    assert f"PostgreSQL on 127.0.0.1:{port} refuses root" in done.stderr
    assert "set RUMMY_TEST_POSTGRES_URL" in done.stderr
