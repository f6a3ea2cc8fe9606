"""Slow request heads and connection floods from one address (app/guards/connections.py).

A probe left 5,000 half-sent request heads open for over a minute. Now a head not
complete within the header timeout gets 408 and is closed, connections over the per-address
cap get 429 and are closed at once, and other clients are served meanwhile. This holds for
the tests' in-thread server and for `rummy serve` (one process and `--workers`), which
build their uvicorn Config in the same place."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.kit.clients import bearer
from tests.kit.ports import free_port
from tests.kit.responses import ok
from tests.kit.rooms import online_room

HALF_HEAD = b"GET /api/variants HTTP/1.1\r\nHost: rummy\r\nX-Slow: "
TIMEOUT = 2.0
CAP = 8
# The cap is a per-address limit: on with the rate limits (the test servers' default is off).
GUARDS = {
    "header_timeout_seconds": TIMEOUT,
    "max_connections_per_client": CAP,
    "rate_limit_enabled": True,
}
ROOT = Path(__file__).resolve().parents[2]


async def _half_head(base: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(HALF_HEAD)
    await writer.drain()
    return reader, writer


async def _answer(reader: asyncio.StreamReader) -> tuple[int, str]:
    """What the server sent before it closed the connection: status and error code.

    A connection refused over the cap is closed with the client's half head unread, so
    the kernel may reset it and drop the 429 before it is read: a reset reads as 429."""
    try:
        async with asyncio.timeout(30):  # a connection left open fails the test, not hangs it
            raw = await reader.read()  # until EOF
    except ConnectionResetError:
        return 429, "rate_limited"
    assert raw, "closed without an answer"
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    return status, json.loads(payload)["error"]["code"]


def _other_address() -> httpx.AsyncHTTPTransport:
    # Another loopback address is another client for the per-address cap.
    return httpx.AsyncHTTPTransport(local_address="127.0.0.2")


async def _flood_and_check(base: str, heads: int) -> None:
    conns = [await _half_head(base) for _ in range(heads)]
    try:
        # The server is busy holding CAP half heads: another client is served meanwhile.
        async with httpx.AsyncClient(base_url=base, transport=_other_address()) as other:
            assert ok(await other.get("/api/variants"))
        answers = await asyncio.gather(*(_answer(r) for r, _ in conns))
    finally:
        for _, w in conns:
            w.close()
    # The first CAP were held until the header timeout; every later one was refused on
    # arrival (before any of the first CAP timed out, since 429 is only sent over the cap).
    assert answers == [(408, "request_timeout")] * CAP + [(429, "rate_limited")] * (heads - CAP)
    # Their closing gave the address its connections back.
    async with httpx.AsyncClient(base_url=base) as same:
        assert ok(await same.get("/api/variants"))


async def test_half_sent_heads_are_closed_and_capped(make_server: Any) -> None:
    live = make_server(**GUARDS)
    await _flood_and_check(live, 60)


async def test_a_slow_second_head_on_a_kept_alive_connection_times_out(
    make_server: Any,
) -> None:
    live = make_server(**GUARDS)
    reader, writer = await _half_head(live)
    try:
        writer.write(b"\r\n\r\n")  # the first request completes and is answered
        await writer.drain()
        async with asyncio.timeout(30):
            first = await reader.readuntil(b"\r\n\r\n")
            assert first.startswith(b"HTTP/1.1 200")
            length = int(first.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
        writer.write(HALF_HEAD)  # ...and the next one never does
        await writer.drain()
        assert await _answer(reader) == (408, "request_timeout")
    finally:
        writer.close()


async def test_websockets_leave_the_http_count_and_outlive_the_header_timeout(
    make_server: Any,
) -> None:
    live = make_server(**{**GUARDS, "max_connections_per_client": 2})
    async with httpx.AsyncClient(base_url=live, timeout=60) as http:
        room, tokens = await online_room(http, "classic", 2, seed=7)
        sockets = [
            await websockets.connect(f"{live.ws_url}/api/rooms/{room}/ws?token={tokens[i % 2]}")
            for i in range(6)
        ]
        try:
            for ws in sockets:
                assert json.loads(await ws.recv())["type"] in ("state", "presence")
            # Six sockets from this address, a cap of two HTTP connections: REST still works.
            state = ok(await http.get(f"/api/rooms/{room}/state", headers=bearer(tokens[0])))
            await asyncio.sleep(TIMEOUT * 2)  # past the header timeout: the sockets stay up
            await sockets[0].send(json.dumps({"type": "ping"}))
            await sockets[0].send(
                json.dumps(
                    {
                        "type": "move",
                        "move": {"type": "draw", "source": "stock"},
                        "version": state["version"],
                    }
                )
            )
            while True:
                frame = json.loads(await asyncio.wait_for(sockets[0].recv(), 30))
                if frame["type"] == "state" and frame["state"]["version"] > state["version"]:
                    break
        finally:
            for ws in sockets:
                await ws.close()


# --- `rummy serve` -------------------------------------------------------------------------


@pytest.fixture(params=[1, 2], ids=["one-process", "two-workers"])
def rummy_serve(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, int]]:
    """`rummy serve` (a subprocess) with a small header timeout and cap: (base URL, workers)."""
    port = free_port()
    env = {
        **os.environ,
        "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/serve.db",
        "RUMMY_HEADER_TIMEOUT_SECONDS": str(TIMEOUT),
        "RUMMY_MAX_CONNECTIONS_PER_CLIENT": str(CAP),
        "RUMMY_RATE_LIMIT_ENABLED": "true",
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    }
    cmd = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    cmd += ["--workers", str(request.param)]
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "rummy serve did not start"
            time.sleep(0.1)
        yield base, request.param
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
        log.close()


async def test_rummy_serve_closes_and_caps_half_sent_heads(rummy_serve: tuple[str, int]) -> None:
    base, workers = rummy_serve
    if workers > 1:
        # Each worker counts its own connections and the kernel spreads them: per address
        # the cap is per worker, so only the timeout is exact here.
        conns = [await _half_head(base) for _ in range(CAP)]
        try:
            answers = await asyncio.gather(*(_answer(r) for r, _ in conns))
        finally:
            for _, w in conns:
                w.close()
        assert answers == [(408, "request_timeout")] * CAP
        return
    await _flood_and_check(base, 30)
