"""What the websocket guards cost and what they hold: two figures.

1. Frames (the default): what the websocket guard (app/guards/sockets.py) adds to every
frame a socket receives.

Drives `Guards` in one process on uvloop, as the server runs it, with an app that reads
`--frames` frames through the guard and, in the same run, the same number straight from a
stub receive that waits one turn of the loop like the server's queue (the floor). Prints the
CPU time per frame of each and their difference: the guard's own cost per frame. Rate limits
are off, as in `bench/load.py`'s server, so the figure is the idle-socket bookkeeping and the
wrapping alone.

    .venv/bin/python bench/wsguard.py [--frames 200000] [--rounds 3]

Compare trees by running it from each with PYTHONPATH set to the tree; the figures drift with
the machine, the difference within one run much less.

2. Openings (`--openings TREE...`, docs/api.md v1.3 "Websocket openings"): a `rummy serve` of each
tree with RUMMY_WS_MAX_OPENING=8; per round, 8 sockets from 127.0.0.2 that send nothing,
then a seat's socket from 127.0.0.1: the time until its first view arrives, retrying after
each refusal's Retry-After as the clients do. Rounds alternate between the trees (one
server per tree, both up all along), so the machine's load falls on both alike.

    .venv/bin/python bench/wsguard.py --openings /work/wt/fair-base /work/wt/fair [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))  # bench/bot_rooms.py

FRAME = {"type": "websocket.receive", "text": '{"type": "ping"}'}


async def _one_turn_receive() -> dict[str, Any]:
    # The server's receive waits on a queue the protocol fills: one turn of the loop.
    loop = asyncio.get_running_loop()
    waiter = loop.create_future()
    loop.call_soon(waiter.set_result, None)
    await waiter
    return FRAME


async def _send(message: Any) -> None:
    pass


async def _floor(frames: int) -> float:
    started = time.process_time()
    for _ in range(frames):
        await _one_turn_receive()
    return (time.process_time() - started) / frames


async def _guarded(frames: int) -> float:
    from app.config import Settings
    from app.guards import Guards

    spent: list[float] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "websocket.accept"})
        started = time.process_time()
        for _ in range(frames):
            await receive()
        spent.append((time.process_time() - started) / frames)
        await send({"type": "websocket.close", "code": 1000})

    guards = Guards(app, Settings(rate_limit_enabled=False))
    scope = {"type": "websocket", "client": ("127.0.0.1", 50000), "path": "/", "headers": []}
    await guards(scope, lambda: _one_turn_receive(), _send)
    return spent[0]


async def _main(args: argparse.Namespace) -> None:
    for r in range(args.rounds):
        floor = await _floor(args.frames)
        guarded = await _guarded(args.frames)
        print(
            f"round {r + 1}: guarded {guarded * 1e6:.2f} µs/frame, floor {floor * 1e6:.2f} "
            f"µs/frame, the guard {(guarded - floor) * 1e6:.2f} µs/frame"
        )


# --- openings: a seat's first view beside 8 silent sockets ---------------------------------

SILENT = 8  # sockets from 127.0.0.2 that send nothing, as many as the opening places
SILENT_ADDRESS = "127.0.0.2"


def _serve_tree(tree: Path, port: int, db: Path) -> subprocess.Popen[bytes]:
    """`rummy serve` of `tree` (its own packages first on the path), 8 opening places."""
    from servers import sqlite_env

    env = sqlite_env(db, tree, RUMMY_ALLOW_FIXED_DEALS="1", RUMMY_WS_MAX_OPENING=str(SILENT))
    command = [
        sys.executable,
        "-m",
        "app.cli",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    return subprocess.Popen(command, cwd=tree, env=env)


async def _first_view(url: str) -> tuple[float, int]:
    """Seconds from the seat's first try until its first view, and the refusals meanwhile
    (each waited out for its Retry-After, as web/js/api.js and bots/client.py do)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    started = time.perf_counter()
    refused = 0
    while True:
        try:
            async with connect(url, open_timeout=60) as ws:
                while json.loads(await ws.recv())["type"] != "state":
                    pass
                return time.perf_counter() - started, refused
        except InvalidStatus as exc:
            refused += 1
            await asyncio.sleep(float(exc.response.headers.get("Retry-After", "1")))


async def _round(base: str) -> tuple[float, int]:
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        created = (await http.post("/api/rooms", json={"seed": 1})).json()
        joined = (await http.post(f"/api/rooms/{created['room']}/join", json={})).json()
    url = "ws" + base[4:] + f"/api/rooms/{created['room']}/ws"
    silent = [await connect(url, local_addr=(SILENT_ADDRESS, 0)) for _ in range(SILENT)]
    try:
        return await _first_view(f"{url}?token={joined['token']}")
    finally:
        for ws in silent:
            await ws.close()


async def _openings(trees: list[Path], rounds: int) -> None:
    import httpx
    from servers import free_port, wait_up

    with tempfile.TemporaryDirectory() as tmp:
        bases, servers = [], []
        for i, tree in enumerate(trees):
            port = free_port()
            servers.append(_serve_tree(tree, port, Path(tmp) / f"s{i}.db"))
            bases.append(f"http://127.0.0.1:{port}")
        try:
            for base in bases:
                async with httpx.AsyncClient(base_url=base) as http:
                    await wait_up(http)
            for r in range(rounds):
                for tree, base in zip(trees, bases, strict=True):
                    took, refused = await _round(base)
                    print(
                        f"round {r + 1} {tree.name}: first view after {took * 1000:.0f} ms, "
                        f"{refused} refusals (503) first"
                    )
        finally:
            for server in servers:
                server.terminate()
                server.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--openings",
        nargs="+",
        metavar="TREE",
        help="time a seat's first view beside 8 silent sockets",
    )
    args = ap.parse_args()
    import uvloop

    if args.openings:
        uvloop.run(_openings([Path(t).resolve() for t in args.openings], args.rounds))
        return
    uvloop.run(_main(args))


if __name__ == "__main__":
    main()
