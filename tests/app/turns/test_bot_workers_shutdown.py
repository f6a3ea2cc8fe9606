"""A server whose computer seats have thought in a worker process stops cleanly on SIGTERM:
its shutdown completes and leaves nothing for Python's resource tracker to warn about (a
worker shut down without waiting leaves its queue's semaphores behind), and the log shows
none of the database pool's INFO chatter."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import httpx

from tests.kit.clients import Api
from tests.kit.processes import rummy_serve
from tests.kit.responses import ok

DRAW = {"type": "draw", "source": "stock"}


def _wait_until_nobody_writes(path: Path) -> None:
    """The resource tracker outlives the server and inherits its stderr: it has warned, if it
    will, once no process holds the log file open any more."""
    deadline = time.monotonic() + 30
    while any(_holds(pid, path) for pid in os.listdir("/proc") if pid.isdigit()):
        assert time.monotonic() < deadline, "a process still holds the server's log open"
        time.sleep(0.05)


def _holds(pid: str, path: Path) -> bool:
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in fds)
    except OSError:  # gone meanwhile, or not ours to read
        return False


async def _my_draw_turn(api: Api, room: str, token: str) -> dict[str, Any]:
    """Wait until the bot has played (in the worker process) and the human draws."""
    async with asyncio.timeout(30):
        while True:
            view: dict[str, Any] = ok(await api.state(room, token))
            if view["turn"] == view["seat"] and view["phase"] == "draw":
                return view
            await asyncio.sleep(0.05)


async def test_the_bot_worker_stops_with_the_server(tmp_path: Path) -> None:
    with rummy_serve(tmp_path, RUMMY_BOT_PROCESSES="1") as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=30) as http:
            api = Api(http)
            created = ok(await api.create(variant="classic", mode="computer"), 201)
            room, token = created["room"], created["token"]
            view = await _my_draw_turn(api, room, token)
            view = ok(await api.move(room, token, DRAW, view["version"]))
            discard = {"type": "discard", "card": view["hand"][-1]}
            ok(await api.move(room, token, discard, view["version"]))
            await _my_draw_turn(api, room, token)
    _wait_until_nobody_writes(served.stderr)
    log = served.log_text()
    # uvicorn re-raises SIGTERM once its shutdown is done, so the exit code is -15 either way.
    assert "Application shutdown complete." in log, log[-2000:]
    assert "leaked" not in log and "Traceback" not in log, log[-2000:]
    # The database pool's chatter (SQLAlchemy keeps it at WARNING) stays out of the log.
    assert "Pool disposed" not in log, log[-2000:]
