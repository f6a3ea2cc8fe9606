"""Rolling-restart bench: every process of `scripts/cluster.sh N` (`make cluster N=4`)
restarted one at a time under load, the way an upgrade goes (docs/operations.md, "Upgrades").

It starts the cluster on a database of its own (created and dropped here) and plays rooms of
websocket bots through the proxy (bench/kill_rooms.py's seats, as bench/hostkill.py does).
Then, for each server process in turn: SIGTERM (its sockets close with 1012, it finishes
what it was doing and exits), start it again with the same command line and environment,
wait for its /healthz, and let the proxy's health check see it up (`--settle` s) before the
next. At the end it audits every room's log through the proxy, and prints per restart:

- the process's shutdown and start times;
- moves acknowledged from its SIGTERM to the next restart, and those missing from the log
  (lost: must be 0);
- its sockets' return: how many seats lost their socket, and the slowest one's time from
  losing it to its first view on a live process (must be within 5 s);
- rooms stalled: rooms that made no move within 5 s of the SIGTERM (must be 0).

    .venv/bin/python bench/rolling.py --processes 4 --rooms 40 --think 0.05

Needs haproxy, PostgreSQL and Redis on this machine, as `make cluster` does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from cluster_load import cluster_env  # noqa: E402
from hostkill import resumed, seated  # noqa: E402
from kill_rooms import Room, Run, audit, until_finished  # noqa: E402
from procs import children, cmdline  # noqa: E402
from servers import drop_database, free_port, own_database  # noqa: E402

RETURN_LIMIT = 5.0  # seconds a seat may be without a socket on a live process


@dataclass
class Process:
    """One `rummy serve` of the cluster, restarted as it was started."""

    port: int
    pid: int
    popen: subprocess.Popen[bytes] | None = None  # once restarted here

    def snapshot(self) -> tuple[list[str], dict[str, str], str, str]:
        """(argv, environment, working folder, log file) of the running process."""
        proc = Path(f"/proc/{self.pid}")
        argv = (proc / "cmdline").read_bytes().rstrip(b"\0").decode().split("\0")
        env = dict(
            item.split("=", 1)
            for item in (proc / "environ").read_bytes().decode().split("\0")
            if "=" in item
        )
        return argv, env, os.readlink(proc / "cwd"), os.readlink(proc / "fd" / "2")

    async def stop(self) -> float:
        """SIGTERM, and the seconds until it exited."""
        began = time.monotonic()
        os.kill(self.pid, signal.SIGTERM)
        while Path(f"/proc/{self.pid}").exists() and _alive(self.pid):
            await asyncio.sleep(0.02)
        if self.popen is not None:
            self.popen.wait()
        return time.monotonic() - began

    def start(self, argv: list[str], env: dict[str, str], cwd: str, log: str) -> None:
        with open(log, "ab") as out:
            self.popen = subprocess.Popen(
                argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        self.pid = self.popen.pid

    async def wait_healthy(self, timeout: float = 240.0) -> float:
        began = time.monotonic()
        async with httpx.AsyncClient(timeout=10) as http:
            while time.monotonic() - began < timeout:
                if self.popen is not None and self.popen.poll() is not None:
                    raise RuntimeError(f"the process on port {self.port} exited at start")
                try:
                    if (await http.get(f"http://127.0.0.1:{self.port}/healthz")).status_code == 200:
                        return time.monotonic() - began
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError(f"the process on port {self.port} did not come back")


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for its parent (the cluster script) to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@dataclass
class Restart:
    port: int
    began: float
    down_s: float
    up_s: float
    ended: float = 0.0
    slowest_room_s: float = 0.0
    rooms_late: int = 0


def start_cluster(args: argparse.Namespace, database: str, logs: Path) -> tuple[
    subprocess.Popen[bytes], int, int
]:  # fmt: skip
    port, base, metrics = free_port(), free_run(args.processes), free_run(args.processes)
    env = cluster_env(args, database, port, base, logs)
    env["CLUSTER_METRICS_BASE_PORT"] = "0" if args.no_metrics else str(metrics)
    out = open(logs / "cluster.out", "wb")  # noqa: SIM115 - the script holds it
    cluster = subprocess.Popen(
        [str(ROOT / "scripts" / "cluster.sh"), str(args.processes)],
        env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    return cluster, port, base


def free_run(n: int) -> int:
    """A base port whose next `n` ports are free, below the ephemeral range: a base from
    the kernel's free ports had one of its next ports taken by some outgoing connection
    on a busy machine, and a process of the cluster failed to start."""
    while True:
        base = random.randrange(20_000, 32_000 - n)
        with contextlib.ExitStack() as held:
            try:
                for port in range(base + 1, base + n + 1):
                    sock = held.enter_context(socket.socket())
                    sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return base


async def wait_ready(cluster: subprocess.Popen[bytes], logs: Path) -> None:
    deadline = time.monotonic() + 180
    while b"\nready http" not in b"\n" + (logs / "cluster.out").read_bytes():
        if cluster.poll() is not None or time.monotonic() > deadline:
            raise SystemExit((logs / "cluster.out").read_text())
        await asyncio.sleep(0.2)


def servers_of(cluster: subprocess.Popen[bytes], base: int, n: int) -> list[Process]:
    by_port = {}
    for pid in children(cluster.pid):
        line = cmdline(pid)
        if " serve " in line and "--port " in line:
            by_port[int(line.split("--port ")[1].split()[0])] = pid
    return [Process(base + i, by_port[base + i]) for i in range(1, n + 1)]


async def roll(
    processes: list[Process], rooms: list[Room], settle: float
) -> list[Restart]:  # fmt: skip
    done = []
    for process in processes:
        argv, env, cwd, log = process.snapshot()
        at_stop = {room.id: room.top for room in rooms}
        began = time.monotonic()
        waiting = asyncio.create_task(resumed(rooms, at_stop, RETURN_LIMIT))
        down = await process.stop()
        process.start(argv, env, cwd, log)
        up = await process.wait_healthy()
        restart = Restart(process.port, began, down, up)
        waits = await waiting
        restart.slowest_room_s = max(waits)
        restart.rooms_late = sum(w > RETURN_LIMIT for w in waits)
        await asyncio.sleep(settle)  # the proxy's `rise`: two checks a second apart
        restart.ended = time.monotonic()
        done.append(restart)
    return done


async def all_seated(rooms: list[Room], timeout: float) -> None:
    """Until every seat has had its first view (a loaded machine takes a while)."""
    deadline = time.monotonic() + timeout
    while any(len(room.seen) < len(room.tokens) for room in rooms):
        if time.monotonic() > deadline:
            raise SystemExit(f"not every seat had a view within {timeout:g} s")
        await asyncio.sleep(0.2)


def report(restarts: list[Restart], rooms: list[Room], run: Run, missing: list[float]) -> int:
    """Print one line per restart; the number of failed figures."""
    failed = 0
    for r in restarts:
        acked = sum(r.began <= t < r.ended for room in rooms for t in room.acked_at)
        lost = sum(r.began <= t < r.ended for t in missing)
        back = [s for lost_at, s in run.returns if r.began <= lost_at < r.ended]
        slowest = max(back, default=0.0)
        print(
            f"  restarted :{r.port}: stopped in {r.down_s:.1f} s, healthy {r.up_s:.1f} s later;"
            f" moves acknowledged {acked}, lost {lost}; sockets back {len(back)},"
            f" slowest {slowest:.2f} s; rooms stalled {r.rooms_late}"
            f" (slowest room moved again after {r.slowest_room_s:.2f} s)"
        )
        failed += (lost > 0) + (slowest > RETURN_LIMIT) + (r.rooms_late > 0)
    return failed


async def bench(args: argparse.Namespace) -> int:
    random.seed(args.seed)
    admin_url = args.postgres.replace("postgresql+asyncpg://", "postgresql://") + "/postgres"
    database, logs = await own_database(admin_url, "rolling")
    cluster, port, base = start_cluster(args, database, logs)
    tasks: list[asyncio.Task[object]] = []
    processes: list[Process] = []
    try:
        await wait_ready(cluster, logs)
        processes = servers_of(cluster, base, args.processes)
        url = f"http://127.0.0.1:{port}"
        run, rooms, seats = await seated(url, args.rooms, args.think)
        tasks = [*seats]
        await all_seated(rooms, 180.0)  # a restart before then measures the set-up, not it
        await asyncio.sleep(args.warmup)
        restarts = await roll(processes, rooms, args.settle)
        await asyncio.sleep(args.after)
        run.stopping = True
        await until_finished(rooms, args.finish_timeout)
        missing: list[float] = []
        lost, gaps = await audit(url, rooms, missing)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(cluster.pid, signal.SIGTERM)
        cluster.wait(60)
        for process in processes:
            if process.popen is not None and process.popen.poll() is None:
                process.popen.terminate()
                process.popen.wait(30)
        await drop_database(admin_url, database)
    acked = sum(len(room.acked) for room in rooms)
    print(f"{args.processes} processes behind HAProxy; rooms: {len(rooms)}; rolling restart:")
    failed = report(restarts, rooms, run, missing)
    unfinished = sum(len(room.finished) < len(room.tokens) for room in rooms)
    print(f"acknowledged moves: {acked}; lost: {lost}; rooms whose log has gaps: {gaps}")
    print(f"client reconnects: {run.reconnects}; rooms unfinished at the end: {unfinished}")
    print(f"logs: {logs}")
    return 1 if failed or lost or gaps or unfinished or not acked else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--rooms", type=int, default=40)
    parser.add_argument("--think", type=float, default=0.05, help="mean seconds a bot thinks")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after /healthz")
    parser.add_argument("--after", type=float, default=5.0, help="seconds of play after")
    parser.add_argument("--finish-timeout", type=float, default=120.0)
    parser.add_argument("--postgres", default="postgresql+asyncpg://root@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/4")
    parser.add_argument("--no-metrics", action="store_true", help="the processes serve none")
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
