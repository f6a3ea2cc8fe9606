"""Host-kill bench: a whole host of server processes dies under load, behind HAProxy.

Two "hosts", each a network namespace of its own (bench/netns.py) holding `rummy serve
--workers K` (a supervisor and K worker processes on one port) in one process group, on one
PostgreSQL database and one Redis, behind HAProxy with room affinity (deploy/haproxy.cfg).
Every seat's websocket bot (bench/kill_rooms.py's) talks only to the proxy, as a browser
would. At random moments the bench kills one host whole, as a machine dies: its network
falls silent first (no resets reach the proxy, the database or Redis), then every process
of it is killed (SIGKILL to the group). It restarts it a few seconds later, and measures:

- acknowledged moves, and those missing from the log (must be 0);
- for each kill, how long until every room made a move again (must be under 5 s per room;
  the proxy's health check, 1 s x 2, sends the dead host's rooms to the other host);
- reconnects, and that every seat that reconnected resynced: at the end every seat of every
  room saw the room's last version (rooms that did not are counted as stalled).

Namespaces need root; `--hosts groups` runs each host as a process group on this machine's
loopback instead (its sockets reset when it dies, which is kinder than a dead machine).

    .venv/bin/python bench/hostkill.py --rooms 40 --duration 120 --kills 6
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from kill_rooms import Room, Run, audit, create_rooms, finish, seat_all, watch_stalls  # noqa: E402
from netns import Namespace, start_relay, through  # noqa: E402
from servers import Server, drop_database, free_port, own_database, shared_env  # noqa: E402

RESUME_LIMIT = 5.0  # seconds a room may wait after a kill


class Host(Server):
    """`rummy serve --workers K` in a process group of its own, killed whole; with a
    network namespace (bench/netns.py), on a network stack of its own too, cut first."""

    workers = 2
    ns: Namespace | None = None

    def on_own_network(self, ns: Namespace) -> None:
        """Run inside `ns`, reaching PostgreSQL and Redis through its gateway's relays."""
        self.ns = ns
        self.url = f"http://{ns.address}:{self.port}"
        env = dict(self.env)
        for key in ("RUMMY_DATABASE_URL", "RUMMY_REDIS_URL"):
            env[key] = through(env[key], ns)
        env["FORWARDED_ALLOW_IPS"] = ns.gateway  # the proxy's side of the pair
        self.env = env

    def start(self) -> None:
        rummy = Path(sys.executable).with_name("rummy")
        bind = "0.0.0.0" if self.ns else "127.0.0.1"
        cmd = [str(rummy), "serve", "--host", bind, "--port", str(self.port)]
        cmd += ["--workers", str(self.workers)]
        if self.ns:
            self.ns.mend()
            cmd = self.ns.command(cmd)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def kill(self) -> None:
        if self.ns:
            self.ns.cut()  # silent first, as a machine that dies: no resets reach anyone
        super().kill()

    @property
    def address(self) -> str:
        return self.ns.address if self.ns else "127.0.0.1"


@dataclass
class Proxy:
    """HAProxy in front of the hosts; what the seats' bots see as `run.servers[i]`."""

    name: str
    url: str
    up_since: float = 1.0  # never "down": the bots never leave it


def start_proxy(hosts: list[Host], port: int, logs: Path) -> subprocess.Popen[bytes]:
    text = (ROOT / "deploy" / "haproxy.cfg").read_text()
    servers = "".join(f"    server {h.name} {h.address}:{h.port} check\n" for h in hosts)
    for key, value in (("@BIND@", "127.0.0.1"), ("@PORT@", str(port)), ("@THREADS@", "1")):
        text = text.replace(key, value)
    text = text.replace("@MAXCONN@", "4000").replace("@SERVERS@\n", servers)
    config = logs / "haproxy.cfg"
    config.write_text(text)
    with open(logs / "haproxy.log", "ab") as log:
        return subprocess.Popen(["haproxy", "-f", str(config), "-db"], stdout=log, stderr=log)


async def seated(
    url: str, n: int, think: float
) -> tuple[Run, list[Room], list[asyncio.Task[None]]]:
    """`n` rooms of 2, 3 and 4 seats through the proxy at `url`, each seat a websocket bot
    (bench/kill_rooms.py's) playing: the run, the rooms and the seats' tasks."""
    front = Proxy("proxy", url)
    run = Run([front, front], home_after=None)  # type: ignore[list-item]
    rooms = await create_rooms([url], n, [2, 3, 4])
    seats = seat_all(run, rooms, think, lambda i, s: 0)
    return run, rooms, seats


async def resumed(rooms: list[Room], at_kill: dict[str, int], limit: float) -> list[float]:
    """Seconds until each room made a move after the kill (`limit` * 4 at most)."""
    began = time.monotonic()
    waits: dict[str, float] = {}
    while len(waits) < len(rooms) and time.monotonic() - began < limit * 4:
        for room in rooms:
            if room.id not in waits and room.top > at_kill[room.id]:
                waits[room.id] = time.monotonic() - began
        await asyncio.sleep(0.05)
    return [waits.get(room.id, limit * 4) for room in rooms]


async def killer(
    hosts: list[Host], rooms: list[Room], args: argparse.Namespace, rng: random.Random
) -> list[tuple[str, float, int]]:
    """Kill a host whole `args.kills` times; (host, slowest room's resume s, rooms > 5 s)."""
    done = []
    start = time.monotonic()
    for k in range(args.kills):
        due = start + args.duration * (k + rng.uniform(0.3, 0.7)) / args.kills
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        victim = rng.choice(hosts)
        at_kill = {room.id: room.top for room in rooms}
        victim.kill()
        waits = await resumed(rooms, at_kill, RESUME_LIMIT)
        done.append((victim.name, max(waits), sum(w > RESUME_LIMIT for w in waits)))
        await asyncio.sleep(rng.uniform(1.0, 3.0))
        await victim.up()
    return done


async def bench(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    random.seed(args.seed)
    database, logs = await own_database(args.postgres, "hostkill")
    env = shared_env(args.postgres, database, args.redis)
    Host.workers = args.workers
    hosts = [Host(name, env, logs) for name in ("host-a", "host-b")]
    spaces = [Namespace(i + 1) for i in range(len(hosts))] if args.hosts == "netns" else []
    port = free_port()
    proxy: subprocess.Popen[bytes] | None = None
    relay: subprocess.Popen[bytes] | None = None
    tasks: list[asyncio.Task[object]] = []
    try:
        for host, ns in zip(hosts, spaces, strict=False):
            ns.create()
            host.on_own_network(ns)
        if spaces:
            relay = start_relay(spaces, logs)
        for host in hosts:  # one at a time: the first one migrates the new database
            await host.up()
        proxy = start_proxy(hosts, port, logs)
        url = f"http://127.0.0.1:{port}"
        await asyncio.sleep(1.5)  # the proxy's first health checks
        run, rooms, seats = await seated(url, args.rooms, args.think)
        tasks = [*seats, asyncio.create_task(watch_stalls(run, rooms, args.stall))]
        began = time.monotonic()
        kills = await killer(hosts, rooms, args, rng)
        await asyncio.sleep(max(0.0, began + args.duration - time.monotonic()))
        run.stopping = True
        await finish(rooms, args.finish_timeout)
        unsynced = [
            room for room in rooms if any(seen[0] < room.top for seen in room.seen.values())
        ]
        lost, gaps = await audit(url, rooms)
    finally:
        for task in tasks:
            task.cancel()
        for host in hosts:
            host.stop()
        for proc in (proxy, relay):
            if proc is not None:
                proc.terminate()
                proc.wait(10)
        for ns in spaces:
            ns.delete()
        await drop_database(args.postgres, database)
    kind = "network namespaces" if spaces else "process groups"
    print(f"hosts: 2 x {args.workers} processes ({kind}) behind HAProxy; rooms: {len(rooms)}")
    ok = _report(rooms, run, kills, lost, gaps, unsynced)
    print(f"logs: {logs}")
    return 0 if ok and len(kills) == args.kills else 1


def _report(
    rooms: list[Room],
    run: Run,
    kills: list[tuple[str, float, int]],
    lost: int,
    gaps: int,
    unsynced: list[Room],
) -> bool:
    """Print what the kills did to the rooms; whether it passes."""
    acked = sum(len(room.acked) for room in rooms)
    stalled = [room for room in rooms if room.stalled]
    late = sum(n for _, _, n in kills)
    for name, slowest, n in kills:
        print(f"  killed {name}: every room moved again within {slowest:.1f} s ({n} over 5 s)")
    print(f"client reconnects: {run.reconnects}")
    print(f"acknowledged moves: {acked}; lost: {lost}; rooms whose log has gaps: {gaps}")
    print(f"rooms that waited over {RESUME_LIMIT:g} s after a kill: {late}")
    print(f"rooms stalled: {len(stalled)}; seats not resynced at the end: {len(unsynced)}")
    for room in stalled[:10]:
        print(f"  {room.id}: {room.stalled}")
    return not (lost or gaps or stalled or unsynced or late) and acked > 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", default="postgresql://root@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/2")
    parser.add_argument("--rooms", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2, help="processes per host")
    parser.add_argument("--duration", type=float, default=120.0)
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--think", type=float, default=0.05)
    parser.add_argument("--stall", type=float, default=30.0)
    parser.add_argument("--finish-timeout", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--hosts",
        choices=["netns", "groups"],
        default="netns",
        help="each host a network namespace (root) or only a process group",
    )
    return asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
