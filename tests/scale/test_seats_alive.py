"""Two `rummy serve` processes on one PostgreSQL and one Redis, a stand-in and a turn timer
running in the same room: every turn is played exactly once, and only one process even
tries each computer turn. The processes' clock is moved through RUMMY_CLOCK_OFFSET_FILE."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

WAIT = 60.0
DRAW = {"type": "draw", "source": "stock"}


class Seat:
    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def until(self, predicate: Any) -> dict[str, Any]:
        async with asyncio.timeout(WAIT):
            while True:
                frame: dict[str, Any] = json.loads(await self.ws.recv())
                if predicate(frame):
                    return frame


async def post_move(
    http: httpx.AsyncClient,
    url: str,
    room: str,
    auth: dict[str, str],
    body: dict[str, Any],
    version: int,
) -> dict[str, Any]:
    r = await http.post(
        f"{url}/api/rooms/{room}/moves", json={"move": body, "version": version}, headers=auth
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _moves(database_url: str, room: str) -> list[tuple[int, int, str, dict[str, Any]]]:
    import asyncpg

    dsn = make_url(database_url).set(drivername="postgresql").render_as_string(False)
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT version, seat, kind, move FROM moves WHERE room_id = $1 ORDER BY version",
            room,
        )
    finally:
        await conn.close()
    return [(r["version"], r["seat"], r["kind"], json.loads(r["move"])) for r in rows]


async def test_a_stand_in_and_a_timer_across_two_processes_play_each_turn_once(
    start_servers: Any, services: Any, tmp_path: Path
) -> None:
    offset = tmp_path / "clock"
    offset.write_text("0")
    a, b = start_servers(
        2,
        env={
            "RUMMY_CLOCK_OFFSET_FILE": str(offset),
            "RUMMY_TIMER_INTERVAL_SECONDS": "0.05",
        },
    )
    seconds = 0.0

    def advance(by: float) -> None:
        nonlocal seconds
        seconds += by
        offset.write_text(str(seconds))

    async with httpx.AsyncClient(timeout=WAIT) as http:
        created = (
            await http.post(
                f"{a.url}/api/rooms",
                json={"mode": "online", "seed": 61, "turn_seconds": 120, "name": "Host"},
            )
        ).json()
        room, host = created["room"], created["token"]
        guest = (await http.post(f"{b.url}/api/rooms/{room}/join", json={"name": "G"})).json()
        auth = {"Authorization": f"Bearer {host}"}
        async with (
            connect(f"{a.ws_url}/api/rooms/{room}/ws?token={host}") as ws_a,
            connect(f"{b.ws_url}/api/rooms/{room}/ws?token={host}") as ws_b,
        ):
            on_a, on_b = Seat(ws_a), Seat(ws_b)
            # The guest's only socket, on process b, closes: the seat is away for both.
            async with connect(f"{b.ws_url}/api/rooms/{room}/ws?token={guest['token']}"):
                await on_a.until(lambda f: f["type"] == "presence" and f["seats"][1]["connected"])
            await on_a.until(
                lambda f: f["type"] == "presence" and f["seats"][1]["away_since"] is not None
            )
            advance(61)
            r = await http.post(
                f"{b.url}/api/rooms/{room}/stand-in", json={"seat": 1}, headers=auth
            )
            assert r.status_code == 200, r.text
            view = r.json()
            # The host plays two turns, one through each process; the stand-in answers.
            for url in (a.url, b.url):
                assert view["turn"] == 0
                view = await post_move(http, url, room, auth, DRAW, view["version"])
                discard = {"type": "discard", "card": view["hand"][-1]}
                view = await post_move(http, url, room, auth, discard, view["version"])
            # Then the host stops: the timer plays its turn on one process, the stand-in
            # plays seat 1's, three times over. Both processes' schedulers see each deadline.
            for timeouts in (1, 2, 3):
                advance(121)
                for sock in (on_a, on_b):
                    await sock.until(
                        lambda f, t=timeouts: (
                            f["type"] == "state"
                            and f["state"]["seats"][0]["timeouts"] == t
                            and f["state"]["turn"] == 0
                            and f["state"]["phase"] == "draw"
                        )
                    )
            final = (await http.get(f"{a.url}/api/rooms/{room}/state", headers=auth)).json()
    assert final["seats"][0]["timeouts"] == 3 and final["seats"][1]["timeouts"] == 0
    entries = await _moves(services.database_url, room)
    assert [v for v, *_ in entries] == list(range(1, len(entries) + 1))
    assert [e[3] for e in entries if e[2] == "stand_in"] == [{"stand_in": "hard"}]
    moves = [(seat, move) for _, seat, kind, move in entries if kind == "move"]
    # Turns go round the table, each one seat's draw ... discard, played once.
    expected, drawn, turns = 0, False, 0
    for i, (seat, move) in enumerate(moves):
        assert seat == expected, f"move {i}: seat {seat} moved on seat {expected}'s turn"
        if move["type"] == "draw":
            assert not drawn, f"move {i}: a second draw in one turn"
            drawn = True
        if move["type"] == "discard":
            expected, drawn, turns = 1 - expected, False, turns + 1
    assert turns == 10  # 2 host turns, 3 timed out, and the stand-in's 5
    # Of the two processes only one tried each computer turn (the claim), so neither
    # lost a compare-and-swap on one: a loser logs that (the INFO lines are kept).
    for server in (a, b):
        text = server.log()
        assert "room created" in text or "stands in" in text or "turn timer" in text
        assert "lost its compare-and-swap" not in text
