"""Hostile sockets against a real `rummy serve` process (rate limits off), where the
server's memory and its log can be read: a socket that sends and never reads is closed
with 4409 while memory stays bounded and other rooms play on; text frames that are not
UTF-8 close with 1007 and log one line each."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.kit.clients import bearer, seat_socket
from tests.kit.processes import Served, rummy_serve
from tests.kit.responses import ok
from tests.kit.rooms import online_room

DRAW = {"type": "draw", "source": "stock"}
JUNK_FRAMES = 60_000
# What the flood may add to the server's resident memory. With an unbounded queue (an error
# frame and a state event per junk frame) it grew by 43 MB; bounded, by 5 MB.
MAX_GROWTH_KB = 20_000
SAMPLES = 20


@contextlib.asynccontextmanager
async def _served_room(
    tmp: Path,
) -> AsyncIterator[tuple[Served, httpx.AsyncClient, str, list[str]]]:
    """A `rummy serve`, a client of it and a full two-seat room: (served, http, room, tokens)."""
    with rummy_serve(tmp) as served:
        async with httpx.AsyncClient(base_url=served.base, timeout=60) as http:
            room, tokens = await online_room(http)
            yield served, http, room, tokens


async def _views(http: httpx.AsyncClient, room: str, tokens: list[str]) -> list[dict[str, Any]]:
    views = []
    for token in tokens:
        view = ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(token)))
        view.pop("seats")  # presence comes and goes with the sockets
        views.append(view)
    return views


async def test_a_socket_that_never_reads_is_closed_and_memory_stays_bounded(
    tmp_path: Path,
) -> None:
    async with _served_room(tmp_path) as (served, http, room, tokens):
        other, other_tokens = await online_room(http)
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
            assert ok(moved)["version"] == 1
            other_url = f"{served.ws_base}/api/rooms/{other}/ws?token={other_tokens[1]}"
            async with connect(other_url) as ws, asyncio.timeout(60):
                state = json.loads(await ws.recv())["state"]
                assert state["version"] == 1 and state["last_move"]["seat"] == 0
            # The flooding socket, once it reads, finds itself closed with 4409.
            try:
                async with asyncio.timeout(120):
                    while True:
                        await flood.recv()
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
        assert code == 4409, code
        # The seat reconnects and resyncs: its view, at the room's version.
        async with connect(url) as ws, asyncio.timeout(60):
            state = json.loads(await ws.recv())["state"]
            assert state["version"] == 0 and state["seat"] == 1


async def test_text_frames_that_are_not_utf8_close_the_socket_with_one_log_line_each(
    tmp_path: Path,
) -> None:
    async with _served_room(tmp_path) as (served, http, room, tokens):
        before = await _views(http, room, tokens)
        for _ in range(5):
            async with seat_socket(served.base, room, tokens[0]) as seat:
                await seat.state()
                await seat.ws.send(b"\xff\xfe{}", text=True)
                assert await seat.closed() == 1007  # "invalid frame payload data"
        assert await _views(http, room, tokens) == before
    lines = [line for line in served.log_text().splitlines() if "UTF-8" in line]
    assert len(lines) == 5, lines
    assert "Traceback" not in served.log_text()
