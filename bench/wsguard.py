"""What the websocket guard (app/guards/sockets.py) adds to every frame a socket receives.

Drives `Guards` in one process on uvloop, as the server runs it, with an app that reads
`--frames` frames through the guard and, in the same run, the same number straight from a
stub receive that waits one turn of the loop like the server's queue (the floor). Prints the
CPU time per frame of each and their difference: the guard's own cost per frame. Rate limits
are off, as in `bench/load.py`'s server, so the figure is the idle-socket bookkeeping and the
wrapping alone.

    .venv/bin/python bench/wsguard.py [--frames 200000] [--rounds 3]

Compare trees by running it from each with PYTHONPATH set to the tree; the figures drift with
the machine, the difference within one run much less.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    import uvloop

    uvloop.run(_main(args))


if __name__ == "__main__":
    main()
