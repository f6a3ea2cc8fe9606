"""Kill bench: two `rummy serve` processes on PostgreSQL + Redis, one of them `kill -9`'d at
random moments while websocket bots play, then an audit.

It creates a database of its own (`killbench_<pid>`, dropped at the end), starts two servers
on it and on one Redis db, and opens R rooms of 2 to 4 seats whose seats are spread over
both servers, one websocket bot client per seat (greedy strategy, bench/kill_rooms.py's
seats). Every room plays hand after hand. Meanwhile it kills one server (the whole process
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
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from kill_rooms import Room, Run, audit, create_rooms, finish, seat_all, watch_stalls  # noqa: E402
from servers import Server, drop_database, own_database, shared_env  # noqa: E402


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
        await victim.up()
    return done


async def bench(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    random.seed(args.seed)
    admin_url = args.postgres
    database, logs = await own_database(admin_url, "killbench")
    env = shared_env(admin_url, database, args.redis)
    servers = [Server(name, env, logs) for name in ("a", "b")]
    lo, _, hi = args.home_after.partition("-")
    run = Run(servers, home_after=(float(lo), float(hi or lo)) if lo != "never" else None)
    tasks: list[asyncio.Task[Any]] = []
    try:
        for server in servers:  # one at a time: the first one migrates the new database
            await server.up()
        lo, _, hi = args.players.partition("-")
        sizes = list(range(int(lo), int(hi or lo) + 1))
        rooms = await create_rooms([s.url for s in servers], args.rooms, sizes)
        seats = seat_all(run, rooms, args.think, lambda i, s: (i + s) % 2)
        tasks = [*seats, asyncio.create_task(watch_stalls(run, rooms, args.stall))]
        began = time.monotonic()
        kills = await killer(run, args.kills, args.duration, rng)
        await asyncio.sleep(max(0.0, began + args.duration - time.monotonic()))
        run.stopping = True  # no more votes: the hands in play end, and rooms stay there
        elapsed = time.monotonic() - began
        await finish(rooms, args.finish_timeout)
        failed = [t for t in seats if t.done() and not t.cancelled() and t.exception()]
        lost, gaps = await audit(servers[0].url, rooms)
    finally:
        for task in tasks:
            task.cancel()
        for server in servers:
            server.stop()
        await drop_database(admin_url, database)
    print(f"rooms: {len(rooms)}, seats: {len(seats)}, played {elapsed:.0f} s")
    print(f"kill -9s: {len(kills)} ({' '.join(kills)})")
    refused = ", ".join(f"{code} {n}" for code, n in run.refusals.most_common()) or "none"
    print(f"client reconnects: {run.reconnects}; refused: {refused}")
    ok = _report(rooms, lost, gaps, failed) and len(kills) >= args.kills
    print(f"server logs: {logs}")
    return 0 if ok else 1


def _report(rooms: list[Room], lost: int, gaps: int, failed: list[asyncio.Task[None]]) -> bool:
    """Print the audit's figures; whether they pass."""
    acked = sum(len(room.acked) for room in rooms)
    stalled = [room for room in rooms if room.stalled]
    print(f"acknowledged moves: {acked}")
    print(f"lost (acknowledged, not in the log): {lost}")
    print(f"rooms whose log has gaps: {gaps}")
    print(f"longest pause of a room: {max(r.longest_pause for r in rooms):.1f} s")
    print(f"rooms stalled: {len(stalled)}")
    for room in stalled[:10]:
        print(f"  {room.id}: {room.stalled}")
    if failed:
        print(f"seat clients failed: {len(failed)}, first: {failed[0].exception()!r}")
    return not (lost or gaps or stalled or failed) and acked > 0


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
