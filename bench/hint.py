"""What a player feels of the engine: `GET /hint` latency, this checkout against another.

For each checkout in turn (the order turned round every round), starts its `rummy serve` on a
temporary SQLite database, with the bots thinking in the server's own process
(`RUMMY_BOT_PROCESSES=0`, so that the server's CPU time holds them) and the usual budget,
then plays a local room from a fixed seed: greedy moves for every seat, chosen here from the
seat's view, the same in every run; before every move the seat asks `GET /hint`. It records
each hint's wall time (request to answer) and the server's CPU time across it (from
/proc, in clock ticks: summed over hundreds of hints). Prints, per checkout and round, the
hints asked, their median and p95 latency and the server's CPU per hint, then the medians of
the round-by-round ratios (this checkout over the other: below 1 is faster).

    .venv/bin/python bench/hint.py --tree /path/to/older/checkout [--rounds 3] [--hands 1] \
        [--variant rummy51] [--players 4] [--budget-ms 150]
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

import httpx
from procs import cpu_seconds
from servers import free_port, sqlite_env, wait_up

import rules
from bots.client import to_view
from bots.greedy import GreedyStrategy

ROOT = Path(__file__).resolve().parent.parent
SERVE = "import sys; from app.cli import main; sys.exit(main(['serve', '--port', sys.argv[1]]))"


def _serve(tree: Path, port: int, db: Path, budget_ms: float) -> subprocess.Popen[bytes]:
    env = sqlite_env(
        db,
        tree,
        RUMMY_BOT_PROCESSES="0",
        RUMMY_ALLOW_FIXED_DEALS="1",  # a room from a seed: the same hand in every run
        RUMMY_BOT_BUDGET_MS=str(budget_ms),
    )
    return subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port)],
        env=env,
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def _hand(
    http: httpx.AsyncClient, room: str, tokens: list[str], pid: int
) -> tuple[list[float], float]:
    """Play the room's hand to its end; every move after a hint. (latencies ms, CPU s)."""
    latencies: list[float] = []
    cpu = 0.0
    while True:
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        view = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
        if view["phase"] not in ("draw", "play"):
            return latencies, cpu
        token = {"Authorization": f"Bearer {tokens[view['turn']]}"}
        before, began = cpu_seconds(pid), time.perf_counter()
        hint = await http.get(f"/api/rooms/{room}/hint", headers=token)
        latencies.append((time.perf_counter() - began) * 1000)
        cpu += cpu_seconds(pid) - before
        hint.raise_for_status()
        mine = (await http.get(f"/api/rooms/{room}/state", headers=token)).json()
        seat_view = to_view(mine)
        legal = list(rules.legal_moves(seat_view))
        move = GreedyStrategy().choose(seat_view, legal, Random(mine["version"]))
        body = {"move": rules.move_to_json(move), "version": mine["version"]}
        (await http.post(f"/api/rooms/{room}/moves", json=body, headers=token)).raise_for_status()


async def one_run(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    """One checkout's server, `args.hands` hands of one room; the hints' figures."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = _serve(tree, port, Path(tmp) / "hint.db", args.budget_ms)
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as http:
                await wait_up(http)
                latencies: list[float] = []
                cpu = 0.0
                for hand in range(args.hands):
                    body = {
                        "variant": args.variant,
                        "players": args.players,
                        "mode": "local",
                        "seed": args.seed + hand,
                    }
                    created = (await http.post("/api/rooms", json=body)).json()
                    lat, used = await _hand(http, created["room"], created["tokens"], server.pid)
                    latencies += lat
                    cpu += used
        finally:
            server.terminate()
            server.wait(10)
    ordered = sorted(latencies)
    return {
        "hints": len(latencies),
        "median_ms": statistics.median(latencies),
        "p95_ms": ordered[max(0, int(0.95 * len(ordered)) - 1)],
        "cpu_ms": cpu * 1000 / len(latencies),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=1, help="hands (rooms) a run")
    parser.add_argument("--variant", default="rummy51")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--budget-ms", type=float, default=150.0)
    args = parser.parse_args()
    trees = {"ours": ROOT, "tree": args.tree.resolve()}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for rnd in range(args.rounds):
        for name in list(trees)[:: 1 if rnd % 2 == 0 else -1]:
            r = asyncio.run(one_run(trees[name], args))
            runs[name].append(r)
            print(
                f"round {rnd + 1} {name}: {r['hints']:.0f} hints, median {r['median_ms']:.1f} "
                f"ms, p95 {r['p95_ms']:.1f} ms, server CPU {r['cpu_ms']:.2f} ms a hint",
                flush=True,
            )
    for key in ("median_ms", "p95_ms", "cpu_ms"):
        ratios = [a[key] / b[key] for a, b in zip(runs["ours"], runs["tree"], strict=True)]
        rounds = " ".join(f"{x:.2f}" for x in ratios)
        print(f"ours/tree {key}: {statistics.median(ratios):.2f}x ({rounds})")


if __name__ == "__main__":
    main()
