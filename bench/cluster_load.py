"""One SQLite process beside clusters behind HAProxy, under bench/load.py, in one run.

For each setup it starts the servers, runs `bench/load.py` (websocket bots, paced) through
its URL with `--server-pid` for every server process (and the proxy's, reported apart),
stops them, and at the end prints one line per setup: moves/s, ack p99, server CPU per
acknowledged move (all server processes), the ratio of the cluster's CPU per move to the
single SQLite process's (the goal: at most 1.3x), and apart the CPU per move of the proxy,
of PostgreSQL and of Redis (over the whole run, set-up included: upper bounds).

    .venv/bin/python bench/cluster_load.py --clusters 2 4 --rooms 200 --rate 600 --duration 60

Setups: `sqlite` (one `rummy serve` on a temporary SQLite file) and `cluster N` for each N
(`scripts/cluster.sh N` on PostgreSQL + Redis: a database of its own, created and dropped
here; `--redis` picks the Redis db). Find the rate at p99 < 50 ms by running it at a few
`--rate`s. Needs a quiet machine; `--duration 10 --rooms 20` checks that it works.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from procs import children, cmdline, cpu_seconds  # noqa: E402
from servers import free_port, wait_healthy  # noqa: E402

PY = sys.executable


def _load(url: str, pids: list[int], args: argparse.Namespace, out: Path) -> dict[str, Any]:
    cmd = [PY, str(ROOT / "bench" / "load.py"), "--url", url, "--rooms", str(args.rooms)]
    cmd += ["--duration", str(args.duration), "--rate", str(args.rate), "--json", str(out)]
    for pid in pids:
        cmd += ["--server-pid", str(pid)]
    subprocess.run(cmd, check=False)
    return dict(json.loads(out.read_text())) if out.exists() else {}


def _services_cpu_s() -> dict[str, float]:
    """CPU seconds so far of this machine's PostgreSQL and Redis servers (every process of
    each): what the cluster costs them, which the server processes' figure leaves out."""
    total = {"postgres": 0.0, "redis": 0.0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name = stat.read_text().split("(", 1)[1].split(")", 1)[0]
            key = "postgres" if name.startswith("postgres") else "redis" if "redis" in name else ""
            if key:
                total[key] += cpu_seconds(int(stat.parent.name))
        except (OSError, IndexError):
            continue
    return total


def _measured(url: str, pids: list[int], args: argparse.Namespace, out: Path) -> dict[str, Any]:
    """`_load`, with the PostgreSQL and Redis CPU it cost (whole run, set-up included)."""
    before = _services_cpu_s()
    result = _load(url, pids, args, out)
    after = _services_cpu_s()
    result["services_cpu_s"] = {k: round(after[k] - before[k], 2) for k in after}
    return result


def sqlite_setup(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    port = free_port()
    env = {**os.environ, "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/one.db"}
    env["RUMMY_RATE_LIMIT_ENABLED"] = "false"
    rummy = str(Path(PY).with_name("rummy"))
    with open(tmp / "one.log", "wb") as log:
        proc = subprocess.Popen([rummy, "serve", "--port", str(port)], env=env, stderr=log)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc, "the SQLite server")
        return _measured(f"http://127.0.0.1:{port}", [proc.pid], args, tmp / "one.json")
    finally:
        proc.terminate()
        proc.wait(30)


def cluster_env(
    args: argparse.Namespace, database: str, port: int, base: int, folder: Path
) -> dict[str, str]:
    """The environment of `scripts/cluster.sh` on `database` (of `args.postgres`) and
    `args.redis`, its proxy on `port` and its processes from `base` + 1, rates and metrics
    off (the script's metrics ports, `base` + 101..., may be taken on a busy machine)."""
    return {
        **os.environ,
        "RUMMY_DATABASE_URL": f"{args.postgres}/{database}",
        "RUMMY_REDIS_URL": args.redis,
        "RUMMY_RATE_LIMIT_ENABLED": "false",
        "CLUSTER_PORT": str(port),
        "CLUSTER_BASE_PORT": str(base),
        "CLUSTER_DIR": str(folder),
        "CLUSTER_METRICS_BASE_PORT": "0",
    }


def cluster_setup(n: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    port, base = free_port(), free_port()
    database = f"cluster_load_{os.getpid()}_{n}"
    env = cluster_env(args, database, port, base, tmp / f"cluster{n}")
    cluster = subprocess.Popen(
        [str(ROOT / "scripts" / "cluster.sh"), str(n)], env=env, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, cluster, "the cluster")
        # The script's other children come and go (its health-check curl, psql): only the
        # proxy and the `rummy serve` processes are measured.
        lines = {p: cmdline(p) for p in children(cluster.pid)}
        proxy = [p for p, line in lines.items() if "haproxy" in line]
        servers = [p for p, line in lines.items() if "rummy" in line and " serve " in line]
        proxy_before = sum(cpu_seconds(p) for p in proxy)
        result = _measured(url, servers, args, tmp / f"cluster{n}.json")
        result["proxy_cpu_s"] = round(sum(cpu_seconds(p) for p in proxy) - proxy_before, 2)
        return result
    finally:
        os.killpg(cluster.pid, signal.SIGTERM)
        cluster.wait(60)
        admin = args.postgres.replace("postgresql+asyncpg://", "postgresql://") + "/postgres"
        subprocess.run(["psql", "-q", admin, "-c", f'drop database if exists "{database}"'])


def _line(name: str, r: dict[str, Any], base_us: float | None) -> str:
    server = r.get("server", {})
    us = server.get("cpu_us_per_move")
    acked = r.get("moves_per_s", 0) * r.get("duration_s", 0)
    # The proxy's CPU over the whole load run (set-up included) per move of the window: an
    # upper bound.
    proxy_us = r["proxy_cpu_s"] / acked * 1e6 if acked and "proxy_cpu_s" in r else None
    ratio = f"{us / base_us:.2f}x" if us and base_us else "-"
    proxy = f"{proxy_us:.0f}" if proxy_us else "-"
    services = r.get("services_cpu_s", {})
    pg, rd = (
        f"{services[k] / acked * 1e6:.0f}" if acked and k in services else "-"
        for k in ("postgres", "redis")
    )
    return (
        f"{name:<10} moves/s {r.get('moves_per_s', '-'):>8}  ack p99 "
        f"{r.get('ack_ms', {}).get('p99', '-'):>6} ms  server CPU/move {us or '-':>7} µs "
        f"({ratio})  proxy CPU/move <= {proxy} µs  PostgreSQL <= {pg} µs  Redis <= {rd} µs"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clusters", type=int, nargs="*", default=[2, 4])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--rate", type=float, default=600.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--postgres", default="postgresql+asyncpg://root@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rummy-cluster-load-"))
    results = {"sqlite": sqlite_setup(args, tmp)}
    for n in args.clusters:
        results[f"cluster {n}"] = cluster_setup(n, args, tmp)
    base = results["sqlite"].get("server", {}).get("cpu_us_per_move")
    print(f"\n{args.rooms} rooms, offered {args.rate:g} moves/s, {args.duration:g} s each:")
    for name, result in results.items():
        print(_line(name, result, base))
    print(f"details: {tmp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
