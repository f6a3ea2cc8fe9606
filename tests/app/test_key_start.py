"""A server whose key cannot open the database's sealed rooms does not start (app/keycheck.py):
a wrong RUMMY_SECRET_KEY, or a key file gone from beside sealed rows, ends `rummy serve` with
one line that says what to do, and /healthz never answers 200 meanwhile."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import httpx

from app.persist.sealing import new_key
from tests.kit.ports import free_port
from tests.kit.processes import RUMMY, rummy_serve


def _make_a_room(base: str) -> None:
    created = httpx.post(f"{base}/api/rooms", json={"variant": "classic", "mode": "local"})
    assert created.status_code == 201


def _refused_start(database: Path, **env: str) -> tuple[int, list[str]]:
    """Start `rummy serve` on `database`; returns its exit status and stderr's lines, having
    asked /healthz all along that it never said 200."""
    port = free_port()
    environ = {**os.environ, "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{database}", **env}
    if "RUMMY_SECRET_KEY" not in env:
        environ.pop("RUMMY_SECRET_KEY", None)
    process = subprocess.Popen(
        [RUMMY, "serve", "--port", str(port)],
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        try:
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
        except httpx.TransportError:
            pass
        else:
            assert health.status_code != 200, "a server that cannot read its rooms said 200"
        time.sleep(0.05)
    started = process.poll() is None
    if started:
        process.kill()
    _, stderr = process.communicate(timeout=30)
    assert not started, "the server started with a key that opens none of its rooms"
    return process.returncode, stderr.decode().splitlines()


def test_a_wrong_key_refuses_to_start_with_one_clear_line(tmp_path: Path) -> None:
    database = tmp_path / "rummy.db"
    url = f"sqlite+aiosqlite:///{database}"
    with rummy_serve(tmp_path, RUMMY_DATABASE_URL=url, RUMMY_SECRET_KEY=new_key()) as served:
        _make_a_room(served.base)

    other = new_key()
    status, lines = _refused_start(database, RUMMY_SECRET_KEY=other)
    assert status != 0
    refusals = [line for line in lines if line.startswith("rummy serve:")]
    assert len(refusals) == 1, lines
    assert "RUMMY_SECRET_KEY does not open this database's sealed rooms" in refusals[0]
    assert not any("Traceback" in line for line in lines)
    assert not any(other in line for line in lines)  # the key itself is never printed


def test_a_missing_key_file_beside_sealed_rooms_is_an_error_not_a_new_key(
    tmp_path: Path,
) -> None:
    database = tmp_path / "rummy.db"
    url = f"sqlite+aiosqlite:///{database}"
    key = tmp_path / "secret.key"
    with rummy_serve(tmp_path, RUMMY_DATABASE_URL=url) as served:
        assert key.exists()  # made on first start
        _make_a_room(served.base)
    key.unlink()

    status, lines = _refused_start(database)
    assert status != 0
    refusals = [line for line in lines if line.startswith("rummy serve:")]
    assert len(refusals) == 1, lines
    assert f"the key file {key} is missing" in refusals[0]
    assert not key.exists()  # no new key that would open none of the rooms


def test_a_new_database_still_makes_its_key_and_a_right_key_starts(tmp_path: Path) -> None:
    database = tmp_path / "rummy.db"
    url = f"sqlite+aiosqlite:///{database}"
    with rummy_serve(tmp_path, RUMMY_DATABASE_URL=url) as served:
        _make_a_room(served.base)
    with rummy_serve(tmp_path, RUMMY_DATABASE_URL=url) as served:  # the same key file
        assert httpx.get(f"{served.base}/healthz").status_code == 200


def test_a_key_file_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    """A key-file path that is a directory printed a 38-line traceback (a path under a file,
    or one without permission, is the same OSError: app/keycheck.py)."""
    folder = tmp_path / "keys"
    folder.mkdir()
    status, lines = _refused_start(tmp_path / "rummy.db", RUMMY_SECRET_KEY_FILE=str(folder))
    said = [line for line in lines if not line.startswith("INFO ")]  # the migration's
    assert status == 2 and len(said) == 1, lines
    assert said[0].startswith(f"rummy serve: the key file {folder} cannot be read or made")
