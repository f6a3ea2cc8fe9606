"""scripts/system-packages.sh, the first step of `make test`: the Debian packages the suite
needs are named when missing, installed as root, and otherwise told in one line.

It runs here with a PATH that hides some commands and ports nobody listens on, so nothing
is installed: the dry run prints what would be, and a fake `id` plays a user who is not
root."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "system-packages.sh"


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])  # free once closed: nobody answers there


def _path_without(tmp: Path, hidden: set[str], extra: dict[str, str]) -> str:
    """A PATH of links to what the script uses, minus `hidden`, plus fake commands."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(parents=True)
    tools = ("bash", "ls", "id", "node", "npm", "haproxy", "promtool", "pg_dump")
    for name in (*tools, "redis-server", "initdb"):
        found = shutil.which(name)
        if found and name not in hidden:
            (bin_dir / name).symlink_to(found)
    for name, text in extra.items():
        (bin_dir / name).unlink(missing_ok=True)
        (bin_dir / name).write_text(f"#!/bin/sh\n{text}\n")
        (bin_dir / name).chmod(0o755)
    return str(bin_dir)


def _run(tmp: Path, hidden: set[str], **env: str) -> subprocess.CompletedProcess[str]:
    fakes = {k.removeprefix("fake_"): v for k, v in env.items() if k.startswith("fake_")}
    env = {k: v for k, v in env.items() if not k.startswith("fake_")}
    environ = {
        "PATH": _path_without(tmp, hidden, fakes),
        "RUMMY_SERVICES_PG_PORT": _closed_port(),
        "RUMMY_SERVICES_REDIS_PORT": _closed_port(),
        **env,
    }
    bash = shutil.which("bash") or "/bin/bash"
    return subprocess.run(
        [bash, str(SCRIPT)], env=environ, capture_output=True, text=True, timeout=30
    )


def test_it_names_what_is_missing(tmp_path: Path) -> None:
    done = _run(tmp_path, {"haproxy", "npm"}, SYSTEM_PACKAGES_DRY_RUN="1")
    assert done.returncode == 0, done.stderr
    missing = done.stdout.split()
    assert "haproxy" in missing and "npm" in missing
    assert "nodejs" not in missing or not shutil.which("node")


def test_without_root_it_says_in_one_line_what_to_run(tmp_path: Path) -> None:
    done = _run(tmp_path, {"haproxy"}, fake_id="echo 1000")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "apt-get install -y" in lines[0] and "haproxy" in lines[0]
    assert done.stdout == ""
    lenient = _run(
        tmp_path / "again", {"haproxy"}, fake_id="echo 1000", RUMMY_TEST_REQUIRE_SERVICES="0"
    )
    assert lenient.returncode == 0 and "haproxy" in lenient.stderr


def test_nothing_missing_is_silent(tmp_path: Path) -> None:
    needed = ("haproxy", "promtool", "pg_dump")
    if os.environ.get("RUMMY_TEST_REQUIRE_SERVICES", "1") == "0" or not all(
        map(shutil.which, needed)
    ):
        return  # this machine itself lacks a package; the other tests cover the script
    done = _run(
        tmp_path, set(), fake_initdb="true", **{"fake_redis-server": "true"}, fake_id="echo 1000"
    )
    assert done.returncode == 0 and done.stderr == "" and done.stdout == ""
