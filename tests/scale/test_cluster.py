"""`scripts/cluster.sh`: N processes behind HAProxy (deploy/haproxy.cfg) with room affinity.
Every request and websocket of a room reaches one process; when that process dies, its
rooms' requests go to another and moves still land exactly once (the compare-and-swap)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.kit.cluster import ROOT
from tests.kit.players import PLAYING, Chooser, SeatSocket, create_room
from tests.kit.ports import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ROOMS = 12


@pytest.fixture
def cluster(services: Any, tmp_path: Path) -> Iterator[tuple[str, list[int]]]:
    """scripts/cluster.sh 2 on this session's database: (proxy URL, the processes' pids)."""
    if subprocess.run(["which", "haproxy"], capture_output=True).returncode:
        pytest.fail("haproxy is not installed (apt-get install -y haproxy)")
    port, base = free_port(), free_port()
    env = {
        **os.environ,
        "RUMMY_DATABASE_URL": services.database_url,
        "RUMMY_REDIS_URL": services.redis_url,
        "RUMMY_ALLOW_FIXED_DEALS": "1",
        "RUMMY_RATE_LIMIT_ENABLED": "false",
        "CLUSTER_PORT": str(port),
        "CLUSTER_BASE_PORT": str(base),
        "CLUSTER_DIR": str(tmp_path),
        # No metrics: their default ports (the base + 101, ...) are not known to be free.
        "CLUSTER_METRICS_BASE_PORT": "0",
        # The key the suite's other servers of this database seal with (their default, run
        # from the project's root): a new one would not open their rooms, and a server
        # refuses to start on a key that opens none of its database's rooms.
        "RUMMY_SECRET_KEY_FILE": str(ROOT / "data" / "secret.key"),
    }
    out = open(tmp_path / "cluster.out", "w+")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [str(ROOT / "scripts" / "cluster.sh"), "2"],
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while "ready" not in (tmp_path / "cluster.out").read_text():
            assert proc.poll() is None, (tmp_path / "cluster.out").read_text()
            assert time.monotonic() < deadline, "the cluster did not start"
            time.sleep(0.2)
        pids = [int(p) for p in _pids(base)]
        yield f"http://127.0.0.1:{port}", pids
    finally:
        with contextlib.suppress(ProcessLookupError):  # it may have died on its own
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)
        out.close()


def _pids(base: int) -> list[str]:
    """The pids of `rummy serve --port base+1` and `base+2`."""
    found = []
    for i in (1, 2):
        ps = subprocess.run(
            ["pgrep", "-f", f"rummy serve --host 127.0.0.1 --port {base + i}"],
            capture_output=True,
            text=True,
        )
        found.append(ps.stdout.split()[0])
    return found


def _server_of(http: httpx.Client, path: str, **kw: Any) -> str:
    return http.get(path, **kw).headers["x-rummy-server"]


async def test_a_room_lives_on_one_process_and_moves_on_when_it_dies(
    cluster: tuple[str, list[int]],
) -> None:
    url, pids = cluster
    made = [await create_room(url, [url], seed=i) for i in range(ROOMS)]
    homes: dict[str, str] = {}
    with httpx.Client(base_url=url, timeout=30) as http:
        for room, tokens in made:
            auth = {"Authorization": f"Bearer {tokens[0]}"}
            seen = {
                _server_of(http, f"/api/rooms/{room}"),
                _server_of(http, f"/api/rooms/{room}/state", headers=auth),
                _server_of(http, f"/api/rooms/{room}/log", headers=auth),
                _server_of(http, f"/api/rooms/{room}/ws?token={tokens[0]}"),  # the upgrade's path
            }
            assert len(seen) == 1, (room, seen)
            homes[room] = seen.pop()
    assert set(homes.values()) == {"s1", "s2"}  # the rooms spread over both

    # Process s1 dies: its rooms are served by s2 now, and moves land once each.
    os.kill(pids[0], signal.SIGKILL)
    chooser = Chooser()
    for room, tokens in made:
        seats = [await SeatSocket.open(url, room, s, tokens[s]) for s in (0, 1)]
        try:
            version = (await seats[0].latest())["version"]
            for _ in range(4):
                views = [await s.state_at(version) for s in seats]
                assert views[0]["phase"] in PLAYING
                turn = views[0]["turn"]
                await seats[turn].send_move(chooser.choose(views[turn]), version)
                version += 1
            await seats[0].state_at(version)
        finally:
            for s in seats:
                await s.close()
    with httpx.Client(base_url=url, timeout=30) as http:
        assert {_server_of(http, f"/api/rooms/{room}") for room, _ in made} == {"s2"}
