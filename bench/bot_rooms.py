"""Does the server stay responsive while bots think? Move latency beside many computer rooms.

Starts `rummy serve` (a temporary SQLite database) and opens `--rooms` computer rooms in which
three hard bots (the expert, 150 ms budget) play around one greedy seat driven from here. Meanwhile
a probe plays a local two-seat room and times every one of its moves. The probe's latency is what
any other room's player feels: with bots thinking on the event loop's thread it grows with the
number of busy rooms, with worker processes (`RUMMY_BOT_PROCESSES`) it should not.

    python bench/bot_rooms.py --rooms 50 --seconds 30 --bot-processes 1
    python bench/bot_rooms.py --rooms 50 --seconds 30 --bot-processes 0   # threads, to compare
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

import httpx
from servers import free_port, sqlite_env, wait_up

import rules
from bots.client import to_view
from bots.greedy import GreedyStrategy


def _serve(port: int, db: Path, processes: int, budget_ms: float) -> subprocess.Popen[bytes]:
    env = sqlite_env(db, RUMMY_BOT_PROCESSES=str(processes), RUMMY_BOT_BUDGET_MS=str(budget_ms))
    exe = Path(sys.executable).with_name("rummy")
    return subprocess.Popen([str(exe), "serve", "--port", str(port)], env=env)


async def _play(http: httpx.AsyncClient, room: str, token: str, rng: Random) -> dict[str, Any]:
    """One move (or vote) of the seat of `token`; returns the view after it."""
    auth = {"Authorization": f"Bearer {token}"}
    view = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
    if view["phase"] in ("hand_over", "match_over"):
        vote = "next_hand" if view["phase"] == "hand_over" else "new_match"
        body = {"vote": vote, "version": view["version"]}
        return dict((await http.post(f"/api/rooms/{room}/votes", json=body, headers=auth)).json())
    if view["turn"] != view["seat"]:
        await asyncio.sleep(0.02)
        return dict(view)
    seat_view = to_view(view)
    move = GreedyStrategy().choose(seat_view, list(rules.legal_moves(seat_view)), rng)
    body = {"move": rules.move_to_json(move), "version": view["version"]}
    return dict((await http.post(f"/api/rooms/{room}/moves", json=body, headers=auth)).json())


async def _computer_room(http: httpx.AsyncClient, stop: float, counts: list[int]) -> None:
    body = {
        "variant": "rummy51",
        "players": 4,
        "mode": "computer",
        "bots": {"1": "hard", "2": "hard", "3": "hard"},
    }
    created = (await http.post("/api/rooms", json=body)).json()
    rng = Random(created["room"])
    while time.perf_counter() < stop:
        await _play(http, created["room"], created["token"], rng)
        counts[0] += 1


async def _probe(http: httpx.AsyncClient, stop: float, start: float) -> list[float]:
    created = (await http.post("/api/rooms", json={"variant": "classic", "mode": "local"})).json()
    room, tokens = created["room"], created["tokens"]
    rng = Random(1)
    latencies: list[float] = []
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    while time.perf_counter() < stop:
        view = (
            await http.get(
                f"/api/rooms/{room}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
            )
        ).json()
        token = tokens[view["turn"]] if view["phase"] in ("draw", "play") else tokens[0]
        began = time.perf_counter()
        await _play(http, room, token, rng)
        latencies.append((time.perf_counter() - began) * 1000)
    return latencies


async def _run(args: argparse.Namespace) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = _serve(port, Path(tmp) / "bench.db", args.bot_processes, args.budget_ms)
        try:
            limits = httpx.Limits(max_connections=args.rooms + 10)
            async with httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}", timeout=120, limits=limits
            ) as http:
                await wait_up(http)
                warm = time.perf_counter() + 3.0  # let every room start before timing
                stop = warm + args.seconds
                counts = [0]
                rooms = [_computer_room(http, stop, counts) for _ in range(args.rooms)]
                probe = asyncio.ensure_future(_probe(http, stop, warm))
                await asyncio.gather(*rooms)
                lat = sorted(await probe)
        finally:
            server.terminate()
            server.wait(10)
    p95 = lat[max(0, int(0.95 * len(lat)) - 1)] if lat else 0.0
    print(
        f"{args.rooms} computer rooms (rummy51, 3 hard bots each), bot processes "
        f"{args.bot_processes}, budget {args.budget_ms:g} ms, {args.seconds:g} s: "
        f"{counts[0]} human-seat moves in the computer rooms; probe room {len(lat)} moves, "
        f"latency median {statistics.median(lat) if lat else 0:.1f} ms, p95 {p95:.1f} ms, "
        f"max {lat[-1] if lat else 0:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--bot-processes", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=150.0)
    asyncio.run(_run(parser.parse_args()))


if __name__ == "__main__":
    main()
