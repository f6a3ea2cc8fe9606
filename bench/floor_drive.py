"""The floor of `bench/load.py --floor`: bench/floor_app.py (the cheapest server that
still persists a move) started in its own process and driven by raw keep-alive
connections, each writing one row per request for a fixed time."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from rawhttp import RawHTTP
from servers import ROOT, free_port, wait_listening


async def _drive_floor(url: str, conns: int, duration: float) -> tuple[int, list[float], int]:
    lat: list[float] = []
    errors = 0
    done = 0
    end = time.perf_counter() + duration

    async def one(i: int) -> None:
        nonlocal errors, done
        http = RawHTTP(url)
        version = 0
        try:
            while time.perf_counter() < end:
                t = time.perf_counter()
                status, _ = await http.request(
                    "POST",
                    "/write",
                    {
                        "room": f"r{i}",
                        "version": version,
                        "move": {"type": "draw", "source": "stock"},
                    },
                )
                lat.append((time.perf_counter() - t) * 1000)
                if status == 200:
                    done += 1
                    version += 1
                else:
                    errors += 1
        finally:
            await http.close()

    await asyncio.gather(*(one(i) for i in range(conns)))
    return done, lat, errors


def run_floor(conns: int, duration: float) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "bench" / "floor_app.py"),
                "--port",
                str(port),
                "--db",
                os.path.join(tmp, "floor.db"),
            ],
        )
        try:
            url = f"http://127.0.0.1:{port}"
            wait_listening(port, tries=600)  # a loaded machine starts it in over 10 s
            done, lat, errors = asyncio.run(_drive_floor(url, conns, duration))
        finally:
            proc.terminate()
            proc.wait(10)
    return {"rate": done / duration, "lat": lat, "errors": errors}
