"""Turn timers at scale: many rooms with a turn timer, nobody moving in half of them.

It starts its own `rummy serve` (SQLite in a temporary directory, or `--database-url`),
makes `--rooms` online rooms of two seats with `--turn-seconds` (1,000 and 30 by default),
and for `--duration` seconds plays in half of them (each seat draws and discards on its
turn, every `--think` seconds) while the other half only waits: there the server's one
timer scheduler plays every turn when its deadline passes. Every `--every` seconds it
prints the server's CPU (share of one core over the interval) and resident memory, and how
many turns the timers played so far. Then it stops the server and audits the move log:
versions without a gap, and every turn one seat's moves, one draw and one discard, seats in
turn: no turn played twice. It exits 1 on any problem.

    .venv/bin/python bench/timers.py                      # 1,000 rooms, 30 s, 100 s
    .venv/bin/python bench/timers.py --rooms 200 --duration 70
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from procs import cpu_seconds, rss_mb  # noqa: E402
from rawhttp import RawHTTP  # noqa: E402
from servers import free_port, wait_listening  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DRAW = {"type": "draw", "source": "stock"}
TIMER_LINE = "the turn timer played a turn"


@dataclass
class Room:
    id: str
    tokens: list[str]
    active: bool
    moves: int = 0
    errors: list[str] = field(default_factory=list)


async def create_rooms(url: str, n: int, turn_seconds: int, conns: int) -> list[Room]:
    rooms: list[Room] = []
    queue = list(range(n))

    async def worker() -> None:
        http = RawHTTP(url)
        try:
            while queue:
                i = queue.pop()
                body = {"mode": "online", "name": "Host", "turn_seconds": turn_seconds}
                status, created = await http.request("POST", "/api/rooms", body)
                assert status == 201, created
                status, joined = await http.request(
                    "POST", f"/api/rooms/{created['room']}/join", {"name": "Guest"}
                )
                assert status == 201, joined
                rooms.append(Room(created["room"], [created["token"], joined["token"]], i % 2 == 0))
        finally:
            await http.close()

    await asyncio.gather(*(worker() for _ in range(conns)))
    return rooms


async def play(url: str, room: Room, until: float, think: float, rng: random.Random) -> None:
    """Play the room's turns by hand (draw, discard the card drawn) until `until`."""
    http = RawHTTP(url)
    try:
        await asyncio.sleep(rng.uniform(0, think))
        while time.monotonic() < until:
            status, view = await http.request(
                "GET", f"/api/rooms/{room.id}/state", token=room.tokens[0]
            )
            if status != 200 or view["phase"] not in ("draw", "play"):
                return
            token = room.tokens[view["turn"]]
            version = view["version"]
            status, view = await http.request(
                "POST", f"/api/rooms/{room.id}/moves", {"move": DRAW, "version": version}, token
            )
            if status == 200:
                discard = {"type": "discard", "card": view["hand"][-1]}
                body = {"move": discard, "version": view["version"]}
                status, view = await http.request(
                    "POST", f"/api/rooms/{room.id}/moves", body, token
                )
            if status == 200:
                room.moves += 2
            elif status != 409:  # 409: the timer played that turn first
                room.errors.append(f"{status} {view}")
            await asyncio.sleep(think)
    finally:
        await http.close()


async def sample(pid: int, log: Path, every: float, until: float) -> list[tuple[float, float]]:
    start, last_cpu, last_t = time.monotonic(), cpu_seconds(pid), time.monotonic()
    samples: list[tuple[float, float]] = []
    print(f"{'t (s)':>6} {'cpu %':>6} {'rss MB':>7} {'timer turns':>12}")
    while time.monotonic() < until:
        await asyncio.sleep(every)
        now, cpu = time.monotonic(), cpu_seconds(pid)
        share = 100 * (cpu - last_cpu) / (now - last_t)
        fired = log.read_text(errors="replace").count(TIMER_LINE)
        memory = rss_mb(pid)
        samples.append((share, memory))
        print(f"{now - start:6.0f} {share:6.1f} {memory:7.1f} {fired:12d}", flush=True)
        last_cpu, last_t = cpu, now
    return samples


def audit(db: Path, rooms: list[Room]) -> tuple[list[str], int, int]:
    """Problems found in the move log, turns in all, and timeouts counted by the server."""
    problems: list[str] = []
    turns = timeouts = 0
    conn = sqlite3.connect(db)
    try:
        for room in rooms:
            rows = conn.execute(
                "SELECT version, seat, kind, move FROM moves WHERE room_id = ? ORDER BY version",
                (room.id,),
            ).fetchall()
            if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
                problems.append(f"{room.id}: versions with a gap")
            seat, drawn = None, False
            for version, mover, kind, text in rows:
                if kind != "move":
                    continue
                move = json.loads(text)
                if seat is not None and mover != seat:
                    problems.append(f"{room.id} v{version}: seat {mover} on seat {seat}'s turn")
                    break
                if move["type"] == "draw":
                    if drawn:
                        problems.append(f"{room.id} v{version}: a second draw in one turn")
                        break
                    drawn, seat = True, mover
                elif move["type"] == "discard":
                    turns += 1
                    seat, drawn = 1 - mover, False
            (attendance,) = conn.execute(
                "SELECT attendance FROM rooms WHERE id = ?", (room.id,)
            ).fetchone()
            if attendance:
                timeouts += sum(json.loads(attendance)["timeouts"])
            problems += [f"{room.id}: {e}" for e in room.errors[:3]]
    finally:
        conn.close()
    return problems, turns, timeouts


def _serve(database_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """`rummy serve` on `port` and `database_url`, its output to `log`, in a process group
    of its own."""
    env = {
        **os.environ,
        "RUMMY_DATABASE_URL": database_url,
        "RUMMY_RATE_LIMIT_ENABLED": "false",
        "RUMMY_MAX_CONNECTIONS_PER_CLIENT": "0",
    }
    rummy = Path(sys.executable).with_name("rummy")
    cmd = [str(rummy)] if rummy.exists() else [sys.executable, "-m", "app.cli"]
    with open(log, "wb") as sink:
        return subprocess.Popen(
            [*cmd, "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


async def bench(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="rummy-timers-"))
    db = tmp / "rummy.db"
    log = tmp / "server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve(args.database_url or f"sqlite+aiosqlite:///{db}", port, log)
    try:
        wait_listening(port, tries=600)
        made = time.monotonic()
        rooms = await create_rooms(url, args.rooms, args.turn_seconds, args.conns)
        print(
            f"{len(rooms)} rooms with a {args.turn_seconds} s turn timer made in "
            f"{time.monotonic() - made:.1f} s; nobody moves in {sum(not r.active for r in rooms)}"
        )
        until = time.monotonic() + args.duration
        rng = random.Random(1)
        players = [play(url, r, until, args.think, rng) for r in rooms if r.active]
        sampler = asyncio.create_task(sample(proc.pid, log, args.every, until))
        await asyncio.gather(*players)
        samples = await sampler
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
    fired = log.read_text(errors="replace").count(TIMER_LINE)
    problems, turns, timeouts = audit(db, rooms) if not args.database_url else ([], 0, 0)
    errors = [line for line in log.read_text(errors="replace").splitlines() if "Traceback" in line]
    shares = sorted(s for s, _ in samples)
    print(
        f"server cpu: mean {sum(shares) / max(1, len(shares)):.1f} %, "
        f"max {max(shares, default=0):.1f} % of one core; "
        f"rss max {max((m for _, m in samples), default=0):.1f} MB"
    )
    print(
        f"turns played by timers: {fired} (timeouts counted: {timeouts}); "
        f"turns in all: {turns}; moves by the players: {sum(r.moves for r in rooms)}"
    )
    if timeouts and timeouts != fired:
        problems.append(f"timers played {fired} turns but the seats count {timeouts} timeouts")
    problems += errors
    print(f"no turn played twice: {'yes' if not problems else 'NO'}")
    for problem in problems[:20]:
        print("  problem:", problem)
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--turn-seconds", type=int, default=30)
    parser.add_argument("--duration", type=float, default=100.0)
    parser.add_argument("--think", type=float, default=5.0, help="seconds between turns")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--conns", type=int, default=16, help="connections that make rooms")
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temp dir")
    return asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
