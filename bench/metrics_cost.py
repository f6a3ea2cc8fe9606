"""The cost of metrics: server CPU per move with and without RUMMY_METRICS_ADDRESS, in one run.

Two `rummy serve` processes on SQLite files of their own, one serving metrics (and scraped
every `--scrape` seconds, as Prometheus would), the other not. Each round runs
`bench/load.py --server-pid` against both at the same time (the same rooms, rate and
seed), so the machine's swings, which on a shared machine move one run's CPU per move by
20% from the next, hit both alike; it prints the two CPU-per-move figures and their ratio,
and the last line the ratio of the sums over `--rounds` (the goal: under 1.05x), and the
same over the clients' CPU per move (load.py's `server_over_clients`). `--floor` makes each
load run measure bench/floor_app.py too (printed beside).

    .venv/bin/python bench/metrics_cost.py --rounds 3 --rooms 100 --rate 300 --duration 30
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from servers import free_port, wait_healthy  # noqa: E402

PY = sys.executable


def start(tmp: Path, name: str, metrics: str | None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/{name}.db"}
    env["RUMMY_RATE_LIMIT_ENABLED"] = "false"
    if metrics:
        env["RUMMY_METRICS_ADDRESS"] = metrics
    rummy = str(Path(PY).with_name("rummy"))
    with open(tmp / f"{name}.log", "wb") as log:
        proc = subprocess.Popen([rummy, "serve", "--port", str(port)], env=env, stderr=log)
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, proc, name)
    return proc, url


def load(url: str, pid: int, args: argparse.Namespace, out: Path) -> subprocess.Popen[bytes]:
    """`bench/load.py` against one server, started; its summary goes to `out`."""
    cmd = [PY, str(ROOT / "bench" / "load.py"), "--url", url, "--server-pid", str(pid)]
    cmd += ["--rooms", str(args.rooms), "--duration", str(args.duration)]
    cmd += ["--rate", str(args.rate), "--procs", "1", "--json", str(out)]
    if args.floor:
        cmd.append("--floor")
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL)


def summary(out: Path) -> dict[str, Any]:
    return dict(json.loads(out.read_text())) if out.exists() else {}


def scraping(url: str, every: float, stop: threading.Event) -> threading.Thread:
    def run() -> None:
        while not stop.wait(every):
            httpx.get(url, timeout=10)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=600.0)
    parser.add_argument("--scrape", type=float, default=5.0, help="seconds between scrapes")
    parser.add_argument("--floor", action="store_true", help="each load run measures the floor")
    parser.add_argument(
        "--control", action="store_true", help="neither serves metrics: the setup's own bias"
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rummy-metrics-cost-"))
    metrics = f"127.0.0.1:{free_port()}"
    servers = {"without": start(tmp, "without", None)}
    servers["with"] = start(tmp, "with", None if args.control else metrics)
    totals = {"without": 0.0, "with": 0.0}
    relative = {"without": 0.0, "with": 0.0}
    try:
        for i in range(args.rounds):
            line, figures, over = [], {}, {}
            stop = threading.Event()
            if not args.control:
                scraping(f"http://{metrics}/metrics", args.scrape, stop)
            # Both at once: the machine's swings (other work, frequency) hit both alike.
            outs = {name: tmp / f"{name}-{i}.json" for name in servers}
            runs = [load(url, proc.pid, args, outs[name]) for name, (proc, url) in servers.items()]
            for run in runs:
                run.wait()
            stop.set()
            for name in servers:
                result = summary(outs[name])
                us = result.get("server", {}).get("cpu_us_per_move") or 0.0
                figures[name] = us
                over[name] = result.get("server_over_clients") or 0.0
                floor = result.get("floor", {}).get("rate")
                line.append(f"{name} {us:7.1f} µs/move (floor {floor} writes/s)")
            time.sleep(1)
            if not (figures["with"] and figures["without"]):
                print(f"round {i + 1}: a load run failed, left out: {'; '.join(line)}")
                continue
            for name, us in figures.items():
                totals[name] += us
                relative[name] += over[name]
            ratio = figures["with"] / figures["without"]
            print(f"round {i + 1}: {'; '.join(line)}; with/without {ratio:.3f}x", flush=True)
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(30)
    print(f"server CPU per move, with metrics / without: {totals['with'] / totals['without']:.3f}x")
    if relative["without"]:
        ratio = relative["with"] / relative["without"]
        print(f"the same over the clients' CPU per move: {ratio:.3f}x")
    print(f"details: {tmp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
