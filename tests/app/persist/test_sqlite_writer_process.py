"""SQLite's group commit runs in a process of its own (app/persist/sqlite_process.py): a
`rummy serve` whose writer process is killed goes on without losing a move, and the
writer process never outlives its server."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import httpx

from tests.kit.clients import Api
from tests.kit.processes import rummy_serve
from tests.kit.responses import ok
from tests.kit.rooms import online_room


def writer_processes(server_pid: int) -> list[int]:
    """The server's child processes that run the SQLite writer."""
    found = []
    for task in os.listdir(f"/proc/{server_pid}/task"):
        for child in Path(f"/proc/{server_pid}/task/{task}/children").read_text().split():
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"sqlite_process.py" in command:
                found.append(int(child))
    return found


def stored_versions(database: Path, room: str) -> list[int]:
    """The versions of the room's move log, as the database file holds them."""
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT version FROM moves WHERE room_id = ? ORDER BY version", (room,))
        return [version for (version,) in rows]


def is_running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting for its parent to reap it has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until_ended(pid: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while is_running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


async def test_a_killed_writer_process_is_replaced_and_no_move_is_lost(tmp_path: Path) -> None:
    with rummy_serve(tmp_path) as served:
        async with httpx.AsyncClient(base_url=served.base) as http:
            api = Api(http)
            room, tokens = await online_room(api, variant="classic")
            drawn = ok(await api.move(room, tokens[0], {"type": "draw", "source": "stock"}, 0))
            [writer] = writer_processes(served.process.pid)
            os.kill(writer, signal.SIGKILL)
            assert wait_until_ended(writer)

            view = ok(
                await api.move(room, tokens[0], {"type": "discard", "card": drawn["hand"][0]}, 1)
            )
            assert view["version"] == 2
            assert stored_versions(served.database, room) == [1, 2]
            [replacement] = writer_processes(served.process.pid)
            assert replacement != writer
        assert "the SQLite writer process ended unasked" in served.log_text()


async def test_the_writer_process_ends_with_its_server(tmp_path: Path) -> None:
    for stop in (signal.SIGTERM, signal.SIGKILL):
        with rummy_serve(tmp_path) as served:
            async with httpx.AsyncClient(base_url=served.base) as http:
                await online_room(Api(http), variant="classic")
            [writer] = writer_processes(served.process.pid)
            served.process.send_signal(stop)
            served.process.wait(timeout=60)
            # Killed without warning, the server cannot close the pipe: its end does.
            assert wait_until_ended(writer), f"the writer outlived a server stopped by {stop!r}"
