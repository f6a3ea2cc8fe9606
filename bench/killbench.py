"""Kill bench: two `rummy serve` processes on PostgreSQL + Redis, one of them `kill -9`'d at
random moments while websocket bots play, then an audit.

It creates a database of its own (`killbench_<pid>`, dropped at the end), starts two servers
on it and on one Redis db, and opens R rooms of 2 to 4 seats whose seats are spread over
both servers, one websocket bot client per seat (greedy strategy, `bench/load.py`'s
Chooser). Every room plays hand after hand. Meanwhile it kills one server (the whole process
group, SIGKILL) at random moments, `--kills` times over `--duration` seconds, and restarts it
on the same port; clients whose socket died reconnect to the other server, and go back to
their own one a few seconds after it is up again, so rooms keep spanning both processes.
Then it stops voting for new hands, waits (bounded) for every room's hand to finish, and
audits every room's log through REST. It prints:

- acknowledged moves: moves whose mover received the state of the version it made;
- lost: acknowledged moves missing from the room's log (must be 0);
- stalled: rooms that made no progress for `--stall` seconds while being played, or whose
  hand did not finish at the end (must be 0);
and exits 1 unless both are 0 (or when it could not kill `--kills` times).

    .venv/bin/python bench/killbench.py --rooms 50 --duration 270 --kills 18
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from load import PLAYING, Chooser, free_port, log_gaps, log_moves, same_move  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

from app.persist.sealing import new_key  # noqa: E402

DONE = ("hand_over", "match_over")


# ---------------------------------------------------------------------------------------
# Servers


class Server:
    """One `rummy serve` on a fixed port, which `kill` and `start` cycle."""

    def __init__(self, name: str, env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.log_path = log_dir / f"server-{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.up_since = 0.0  # monotonic time it last became ready; 0 while down

    def start(self) -> None:
        rummy = Path(sys.executable).with_name("rummy")
        cmd = [str(rummy)] if rummy.exists() else [sys.executable, "-m", "app.cli"]
        cmd += ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    async def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server {self.name} exited; see {self.log_path}")
                try:
                    if (await http.get(self.url + "/healthz")).status_code == 200:
                        self.up_since = time.monotonic()
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError(f"server {self.name} not ready in {timeout} s; see {self.log_path}")

    def kill(self) -> None:
        self.up_since = 0.0
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        self.up_since = 0.0
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


async def admin(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


# ---------------------------------------------------------------------------------------
# Rooms and their seats


@dataclass
class Room:
    id: str
    tokens: list[str]
    top: int = 0  # the newest version any seat saw
    phase: str = ""  # and its phase
    progress_at: float = field(default_factory=time.monotonic)
    longest_pause: float = 0.0
    stalled: str | None = None
    # What each seat last saw: (version, phase, turn, server index, moves awaiting an answer),
    # printed with a stall so that its cause can be told (server or client) afterwards.
    seen: dict[int, tuple[int, str, int, int, int]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)  # seats whose latest view is a hand's end
    # (version made, seat, move) of every move whose mover saw the version it made
    acked: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)  # when each was acknowledged

    def saw(self, version: int, phase: str) -> None:
        if version > self.top:
            self.phase = phase
            now = time.monotonic()
            self.longest_pause = max(self.longest_pause, now - self.progress_at)
            self.top, self.progress_at = version, now


@dataclass
class Run:
    servers: list[Server]
    stopping: bool = False  # no new hands: finish the one in play
    home_after: tuple[float, float] | None = (3.0, 10.0)  # seconds away before going home
    reconnects: int = 0
    # (when a seat's socket was lost, seconds until a new socket of it had its first state)
    returns: list[tuple[float, float]] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)


async def seat_loop(run: Run, room: Room, seat: int, home: int, think: float, seed: int) -> None:
    """One seat's websocket bot: plays its turns, votes for the next hand until the run
    stops, and reconnects (to the other server first) whenever its socket dies."""
    chooser = Chooser("greedy", seed=seed)
    sent: dict[int, dict[str, Any]] = {}  # version sent against -> move
    voted = None  # the hand this seat voted after
    at = home
    lost_at: float | None = None
    while True:
        server = run.servers[at]
        url = server.url.replace("http://", "ws://") + f"/api/rooms/{room.id}/ws"
        # Away from home: go back a few seconds after home is up again.
        away = run.home_after
        leave_at = None if at == home or not away else time.monotonic() + random.uniform(*away)
        try:
            async with connect(f"{url}?token={room.tokens[seat]}", open_timeout=5) as ws:
                fresh = True
                voted = None  # a vote sent on a socket that died may never have arrived
                state: dict[str, Any] | None = None
                while True:
                    if leave_at is not None and time.monotonic() > leave_at:
                        if run.servers[home].up_since and not sent:
                            break
                    try:
                        frame = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    except TimeoutError:
                        continue
                    if frame["type"] == "error":
                        run.refusals[frame["error"]["code"]] += 1
                        sent.clear()  # refused: decide again on the view that follows
                        voted = None
                        continue
                    if frame["type"] != "state":
                        continue
                    state = frame["state"]
                    version = state["version"]
                    if lost_at is not None:
                        run.returns.append((lost_at, time.monotonic() - lost_at))
                        lost_at = None
                    room.saw(version, state["phase"])
                    room.seen[seat] = (version, state["phase"], state["turn"], at, len(sent))
                    last = state.get("last_move") or {}
                    if version - 1 in sent and last.get("seat") == seat:
                        room.acked.append((version, seat, sent.pop(version - 1)))
                        room.acked_at.append(time.monotonic())
                    if fresh:
                        sent.pop(version, None)  # sent on a socket that died: maybe lost
                        fresh = False
                    phase = state["phase"]
                    if phase in DONE:
                        room.finished.add(seat)
                    else:
                        room.finished.discard(seat)
                    if phase in PLAYING and state["turn"] == seat and version not in sent:
                        if think:
                            await asyncio.sleep(random.uniform(0, 2 * think))
                        move = chooser.choose(state)
                        sent[version] = move
                        await ws.send(
                            json.dumps({"type": "move", "move": move, "version": version})
                        )
                    elif phase in DONE and not run.stopping and voted != state["hand_number"]:
                        voted = state["hand_number"]  # once: every vote's view comes back
                        vote = "next_hand" if phase == "hand_over" else "new_match"
                        await ws.send(json.dumps({"type": "vote", "vote": vote}))
            at = home  # left on purpose
        except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
            run.reconnects += 1
            lost_at = lost_at or time.monotonic()
            at = 1 - at
            await asyncio.sleep(random.uniform(0.05, 0.3))


async def watch_stalls(run: Run, rooms: list[Room], stall: float) -> None:
    began = time.monotonic()
    while True:
        await asyncio.sleep(1.0)
        now = time.monotonic()
        for room in rooms:
            done = run.stopping and len(room.finished) == len(room.tokens)
            if room.stalled is None and not done and now - room.progress_at > stall:
                room.stalled = (
                    f"at {now - began:.0f} s: no progress for {stall:.0f} s at version"
                    f" {room.top} ({room.phase}); seats saw {room.seen};"
                    f" cached: {await cached_versions(run, room)}"
                )


async def cached_versions(run: Run, room: Room) -> list[str]:
    """What each server's cached room says (the public summary reads no database when the
    room is cached), to tell a server that missed news from a client that did."""
    found = []
    async with httpx.AsyncClient(timeout=5) as http:
        for server in run.servers:
            try:
                r = await http.get(f"{server.url}/api/rooms/{room.id}")
                summary = r.json()
                found.append(f"{server.name}: {summary['version']} {summary['status']}")
            except (httpx.HTTPError, ValueError, KeyError):
                found.append(f"{server.name}: down")
    return found


async def until_finished(rooms: list[Room], timeout: float) -> None:
    """Until every seat of every room has seen its hand end, for 3 s in a row (a vote sent
    before the stop may still deal one more hand), or `timeout`."""
    deadline = time.monotonic() + timeout
    since = None
    while time.monotonic() < deadline:
        if all(len(room.finished) == len(room.tokens) for room in rooms):
            since = since or time.monotonic()
            if time.monotonic() - since >= 3.0:
                return
        else:
            since = None
        await asyncio.sleep(0.5)


async def create_rooms(servers: list[Server], n: int, sizes: list[int]) -> list[Room]:
    rooms = []
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(n):
            players = sizes[i % len(sizes)]
            maker = servers[i % 2]
            r = await http.post(
                maker.url + "/api/rooms", json={"variant": "basic", "players": players}
            )
            r.raise_for_status()
            room, tokens = r.json()["room"], [r.json()["token"]]
            for seat in range(1, players):
                r = await http.post(
                    f"{servers[(i + seat) % 2].url}/api/rooms/{room}/join",
                    json={"name": f"p{seat}"},
                )
                r.raise_for_status()
                tokens.append(r.json()["token"])
            rooms.append(Room(room, tokens))
    return rooms


async def killer(run: Run, kills: int, duration: float, rng: random.Random) -> list[str]:
    """`kills` kill -9s spread over `duration` seconds, each followed by a restart."""
    done: list[str] = []
    start = time.monotonic()
    for k in range(kills):
        due = start + duration * (k + rng.uniform(0.2, 0.8)) / kills
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        victim = rng.choice(run.servers)
        victim.kill()
        t = time.monotonic() - start
        done.append(f"{t:.0f}s:{victim.name}")
        await asyncio.sleep(rng.uniform(0.0, 1.0))
        victim.start()
        await victim.wait_ready()
    return done


async def audit(url: str, rooms: list[Room], missing: list[float] | None = None) -> tuple[int, int]:
    """(acknowledged moves missing from the logs, rooms whose log has gaps); each miss is
    printed with what the log holds at its version, and its acknowledgement's time added to
    `missing`."""
    lost = gaps = 0
    async with httpx.AsyncClient(timeout=30) as http:
        for room in rooms:
            r = await http.get(
                f"{url}/api/rooms/{room.id}/log",
                headers={"Authorization": f"Bearer {room.tokens[0]}"},
            )
            r.raise_for_status()
            log = r.json()
            logged = {v: (seat, move) for v, seat, move in log_moves(log)}
            for i, (version, seat, move) in enumerate(room.acked):
                entry = logged.get(version)
                if entry is None or entry[0] != seat or not same_move(entry[1], move):
                    lost += 1
                    if missing is not None:
                        missing.append(room.acked_at[i])
                    print(f"  lost? {room.id} v{version} seat {seat} {move}; log has {entry}")
            gaps += log_gaps(log) > 0
    return lost, gaps


async def bench(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    random.seed(args.seed)
    database = f"killbench_{os.getpid()}"
    admin_url = args.postgres
    await admin(admin_url, f'CREATE DATABASE "{database}"')
    logs = Path(tempfile.mkdtemp(prefix="rummy-killbench-"))
    db_url = admin_url.rsplit("/", 1)[0] + f"/{database}"
    env = {
        **os.environ,
        "RUMMY_DATABASE_URL": db_url.replace("postgresql://", "postgresql+asyncpg://", 1),
        "RUMMY_REDIS_URL": args.redis,
        "RUMMY_RATE_LIMIT_ENABLED": "false",
        # Both processes seal states with one key, and the bench leaves no key in ./data.
        "RUMMY_SECRET_KEY": new_key(),
        "PYTHONPATH": str(ROOT),
    }
    servers = [Server(name, env, logs) for name in ("a", "b")]
    lo, _, hi = args.home_after.partition("-")
    run = Run(servers, home_after=(float(lo), float(hi or lo)) if lo != "never" else None)
    tasks: list[asyncio.Task[Any]] = []
    try:
        for server in servers:  # one at a time: the first one migrates the new database
            server.start()
            await server.wait_ready()
        lo, _, hi = args.players.partition("-")
        rooms = await create_rooms(servers, args.rooms, list(range(int(lo), int(hi or lo) + 1)))
        seats = [
            asyncio.create_task(seat_loop(run, room, s, (i + s) % 2, args.think, i * 8 + s))
            for i, room in enumerate(rooms)
            for s in range(len(room.tokens))
        ]
        tasks = [*seats, asyncio.create_task(watch_stalls(run, rooms, args.stall))]
        began = time.monotonic()
        kills = await killer(run, args.kills, args.duration, rng)
        await asyncio.sleep(max(0.0, began + args.duration - time.monotonic()))
        run.stopping = True  # no more votes: the hands in play end, and rooms stay there
        elapsed = time.monotonic() - began
        await until_finished(rooms, args.finish_timeout)
        for room in rooms:
            if room.stalled is None and len(room.finished) < len(room.tokens):
                room.stalled = f"hand not finished at version {room.top} ({room.phase})"
        failed = [t for t in seats if t.done() and not t.cancelled() and t.exception()]
        lost, gaps = await audit(servers[0].url, rooms)
    finally:
        for task in tasks:
            task.cancel()
        for server in servers:
            server.stop()
        await admin(admin_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    acked = sum(len(room.acked) for room in rooms)
    stalled = [room for room in rooms if room.stalled]
    print(f"rooms: {len(rooms)}, seats: {len(seats)}, played {elapsed:.0f} s")
    print(f"kill -9s: {len(kills)} ({' '.join(kills)})")
    refused = ", ".join(f"{code} {n}" for code, n in run.refusals.most_common()) or "none"
    print(f"client reconnects: {run.reconnects}; refused: {refused}")
    print(f"acknowledged moves: {acked}")
    print(f"lost (acknowledged, not in the log): {lost}")
    print(f"rooms whose log has gaps: {gaps}")
    print(f"longest pause of a room: {max(r.longest_pause for r in rooms):.1f} s")
    print(f"rooms stalled: {len(stalled)}")
    for room in stalled[:10]:
        print(f"  {room.id}: {room.stalled}")
    if failed:
        print(f"seat clients failed: {len(failed)}, first: {failed[0].exception()!r}")
    print(f"server logs: {logs}")
    ok = not (lost or gaps or stalled or failed) and len(kills) >= args.kills and acked > 0
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description="Rummy kill -9 bench (PostgreSQL + Redis).")
    parser.add_argument(
        "--postgres",
        default="postgresql://root@127.0.0.1:5432/postgres",
        help="an admin URL: the bench creates and drops its own database there",
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/2")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", default="2-4", help="seats per room: N or LO-HI (cycled)")
    parser.add_argument("--duration", type=float, default=270.0, help="seconds of play")
    parser.add_argument("--kills", type=int, default=18, help="kill -9s over the duration")
    parser.add_argument("--think", type=float, default=0.05, help="mean seconds a bot thinks")
    parser.add_argument("--stall", type=float, default=30.0, help="seconds without progress")
    parser.add_argument("--finish-timeout", type=float, default=120.0)
    parser.add_argument(
        "--home-after",
        default="3-10",
        help="LO-HI seconds a client stays on the other server before going back, or never",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(bench(args))


if __name__ == "__main__":
    sys.exit(main())
