"""Is the server's memory bounded? One process, computer rooms of hard bots, RSS each minute.

Starts `rummy serve` (a temporary SQLite database, one bot worker process) and opens `--rooms`
computer rooms (rummy51, three hard bots around one greedy seat played from here, through the
move answers, which carry every bot turn that followed). Every `--every` seconds it prints the
resident memory of the server and of its bot worker, with the moves and hands played so far,
as one line of CSV that the next run can be compared with:

    python bench/soak.py --rooms 24 --minutes 70 > soak.csv

The question it answers is whether the server's RSS stops growing after warm-up; the last line
gives the growth over the second half of the run (MB per 10 minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
from procs import children, cmdline, rss_mb  # noqa: E402
from servers import free_port, sqlite_env, wait_up  # noqa: E402

import rules  # noqa: E402
from bots.client import to_view  # noqa: E402
from bots.greedy import GreedyStrategy  # noqa: E402


def _serve(port: int, db: Path, budget_ms: float) -> subprocess.Popen[bytes]:
    env = sqlite_env(db, RUMMY_BOT_PROCESSES="1", RUMMY_BOT_BUDGET_MS=str(budget_ms))
    exe = Path(sys.executable).with_name("rummy")
    return subprocess.Popen([str(exe), "serve", "--port", str(port)], env=env)


class Counts:
    def __init__(self) -> None:
        self.moves = 0
        self.hands = 0
        self.errors = 0


async def _step(http: httpx.AsyncClient, room: str, view: dict[str, Any], rng: Random) -> Any:
    """The human seat's next move or vote; returns the view after it."""
    auth = {"Authorization": f"Bearer {view['token']}"}
    if view["phase"] in ("hand_over", "match_over"):
        vote = "next_hand" if view["phase"] == "hand_over" else "new_match"
        body: dict[str, Any] = {"vote": vote, "version": view["version"]}
        return (await http.post(f"/api/rooms/{room}/votes", json=body, headers=auth)).json()
    if view["turn"] != view["seat"]:
        await asyncio.sleep(0.05)  # bots still thinking: look again
        return (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
    seat_view = to_view(view)
    move = GreedyStrategy().choose(seat_view, list(rules.legal_moves(seat_view)), rng)
    body = {"move": rules.move_to_json(move), "version": view["version"]}
    return (await http.post(f"/api/rooms/{room}/moves", json=body, headers=auth)).json()


async def _room(http: httpx.AsyncClient, stop: float, counts: Counts, think: float) -> None:
    body = {"variant": "rummy51", "players": 4, "mode": "computer"}
    body["bots"] = {"1": "hard", "2": "hard", "3": "hard"}
    created = (await http.post("/api/rooms", json=body)).json()
    room, token = created["room"], created["token"]
    rng = Random(room)
    auth = {"Authorization": f"Bearer {token}"}
    view = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
    while time.monotonic() < stop:
        before = view.get("version", 0)
        after = await _step(http, room, {**view, "token": token}, rng)
        if "version" not in after:  # a stale version or an error: read the room again
            counts.errors += 1
            after = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
        counts.moves += max(0, after["version"] - before)
        if after["phase"] == "hand_over" and view.get("phase") != "hand_over":
            counts.hands += 1
        view = after
        if think:
            await asyncio.sleep(think)


async def _sample(server: int, stop: float, every: float, counts: Counts) -> list[float]:
    began = time.monotonic()
    series: list[float] = []
    print("minute,server_mb,bot_worker_mb,sqlite_writer_mb,moves,hands,errors", flush=True)
    while True:
        kids = {c: cmdline(c) for c in children(server)}
        worker = sum(rss_mb(c) for c, cmd in kids.items() if "spawn_main" in cmd)
        writer = sum(rss_mb(c) for c, cmd in kids.items() if "sqlite_process" in cmd)
        mb = rss_mb(server)
        series.append(mb)
        minute = (time.monotonic() - began) / 60
        print(
            f"{minute:.1f},{mb:.1f},{worker:.1f},{writer:.1f},"
            f"{counts.moves},{counts.hands},{counts.errors}",
            flush=True,
        )
        if time.monotonic() + every > stop + every / 2:
            return series
        await asyncio.sleep(every)


async def _run(args: argparse.Namespace) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = _serve(port, Path(tmp) / "soak.db", args.budget_ms)
        try:
            limits = httpx.Limits(max_connections=args.rooms + 4)
            async with httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}", timeout=120, limits=limits
            ) as http:
                await wait_up(http)
                stop = time.monotonic() + args.minutes * 60
                counts = Counts()
                rooms = [_room(http, stop, counts, args.think) for _ in range(args.rooms)]
                sampler = asyncio.ensure_future(_sample(server.pid, stop, args.every, counts))
                await asyncio.gather(*rooms)
                series = await sampler
        finally:
            server.terminate()
            server.wait(10)
    half = series[len(series) // 2 :]
    if len(half) > 1:
        per10 = (half[-1] - half[0]) / ((len(half) - 1) * args.every / 600)
        print(f"# second half: server {half[0]:.1f} -> {half[-1]:.1f} MB, {per10:+.2f} MB/10 min")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=24)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--budget-ms", type=float, default=150.0)
    parser.add_argument("--think", type=float, default=0.0, help="seconds the human seat waits")
    asyncio.run(_run(parser.parse_args()))


if __name__ == "__main__":
    main()
