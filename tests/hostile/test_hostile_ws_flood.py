"""A socket that sends and never reads: the server's memory stays bounded, the socket is
closed with 4429 (the client reconnects and resyncs), and other rooms play on. A real
`rummy serve` with the rate limits off, so only the outbox bound can hold the line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
from hostilekit import bearer, body, full_room
from processkit import rummy_serve
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

DRAW = {"type": "draw", "source": "stock"}
JUNK_FRAMES = 60_000
# What the flood may add to the server's resident memory. With an unbounded queue (an error
# frame and a state event per junk frame) it grew by 43 MB; bounded, by 5 MB.
MAX_GROWTH_KB = 20_000
SAMPLES = 20


async def test_a_socket_that_never_reads_is_closed_and_memory_stays_bounded(
    tmp_path: Path,
) -> None:
    with rummy_serve(tmp_path) as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=60) as http:
            room, tokens = await full_room(http)
            other, other_tokens = await full_room(http)
            before = served.rss_kb()
            url = f"{served.ws_base}/api/rooms/{room}/ws?token={tokens[1]}"
            # max_queue=1: the client stops reading its TCP stream after one frame.
            async with connect(url, max_queue=1, close_timeout=5) as flood:
                for _ in range(JUNK_FRAMES):
                    await flood.send("x")
                # The server works through what the socket sent at its own pace: watch its
                # memory for a while, the highest reading counts.
                grown = 0
                for _ in range(SAMPLES):
                    grown = max(grown, served.rss_kb() - before)
                    await asyncio.sleep(0.25)
                assert grown < MAX_GROWTH_KB, f"RSS grew by {grown} kB"
                # Another room plays on, over REST and over its own socket.
                moved = await http.post(
                    f"/api/rooms/{other}/moves",
                    json={"move": DRAW, "version": 0},
                    headers=bearer(other_tokens[0]),
                )
                assert body(moved)["version"] == 1
                other_url = f"{served.ws_base}/api/rooms/{other}/ws?token={other_tokens[1]}"
                async with connect(other_url) as ws, asyncio.timeout(60):
                    state = json.loads(await ws.recv())["state"]
                    assert state["version"] == 1 and state["last_move"]["seat"] == 0
                # The flooding socket, once it reads, finds itself closed with 4429.
                try:
                    async with asyncio.timeout(120):
                        while True:
                            await flood.recv()
                except ConnectionClosed as exc:
                    code = exc.rcvd.code if exc.rcvd is not None else None
            assert code == 4429, code
            # The seat reconnects and resyncs: its view, at the room's version.
            async with connect(url) as ws, asyncio.timeout(60):
                state = json.loads(await ws.recv())["state"]
                assert state["version"] == 0 and state["seat"] == 1
