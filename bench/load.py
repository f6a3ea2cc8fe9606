"""Load test: many rooms of websocket bots against a running server, then an audit.

It starts no game server: point it at one or more base URLs on loopback (several URLs spread
each room's seats over them, so a room spans processes). It opens R rooms of 2 to 4 seats,
one websocket bot client per seat (greedy strategy), plays complete hands for a bounded time
and prints:

- moves/s: moves acknowledged by their broadcast state, over the measured window;
- move-to-broadcast p50/p95/p99: from sending a move to the mover receiving the state of the
  version it made ("ack"), and to the last seat of the room receiving it ("fan-out");
- websocket connections held (lowest and highest during the window) and errors by code.

Then it audits every room through REST: every acknowledged move is in the room's log
exactly once at the version it made, versions have no gaps, and every state seen on any
websocket and the final state pass the card-conservation check (the seat's hand, the other
hands' counts, the stock, the discard pile and the melds add up to the deck).

The bots pace themselves (`--rate`, the offered moves/s over all rooms) so the latency is the
server's, not a closed loop's queue. Several client processes (`--procs`) keep the clients'
CPU from being the bottleneck; run them on the other core.

It also counts as problems (and exits 1 on any): server errors (5xx answers, error frames
`unavailable` or `internal_error`, close code 1011, and with `--server-log` the server's log
lines at ERROR or with a traceback), rooms it could not make, sockets that got no state
within `--state-timeout` of their first try, and rooms stalled (no new version for
`--stall-seconds` while a hand is in play).

`--storm` is the connect storm: `--rooms` (2,000) rooms made and connected as fast as the
bench can, no warm-up, then a short play to see that no room stalled; it prints the sockets
that got their state, the time until all had, the server errors and stalled rooms. Run the
server with RUMMY_RATE_LIMIT_ENABLED=false (2,000 creates from one address are above the
default rates), e.g.:

    .venv/bin/rummy serve --port 8000 2> server.log &
    .venv/bin/python bench/load.py --storm --server-log server.log

`--server-pid PID` (repeat for several processes) reads the server's CPU time and resident
memory from /proc during the run and prints its CPU per acknowledged move over the measured
window, its RSS before the rooms and at the window's end, and the growth per room and per
socket (the cost curve: run it at 100, 500 and 2,000 rooms at the same per-room rate). It
also prints that CPU over the clients' own per move: the clients' work per move does not
change with the server's code, so the ratio compares trees measured in different hours of
this machine, whose speed swings by 1.5-2x.

`--floor` also measures, in the same run, the cheapest endpoint that writes one SQLite row
per request (bench/floor_app.py, started here in its own process) and prints our ratio to it.

    .venv/bin/rummy serve --port 8000 &
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --rooms 200 --duration 60 --floor
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load_client import child_main  # noqa: E402
from load_report import log_size, report  # noqa: E402
from procs import ServerMeter  # noqa: E402


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Rummy load test: websocket bots + audit.")
    parser.add_argument("--url", action="append", help="server base URL (repeat to spread seats)")
    parser.add_argument("--rooms", type=int, help="rooms (200; with --storm 2,000)")
    parser.add_argument("--players", default="2-4", help="seats per room: N or LO-HI (cycled)")
    parser.add_argument("--variant", default="basic")
    parser.add_argument(
        "--strategy",
        default="legal",
        help="the seats' bot: legal (cheap, from the view's legal; the default) or a strategy",
    )
    parser.add_argument("--duration", type=float, help="measured seconds (60; storm 20)")
    parser.add_argument("--warmup", type=float, help="unmeasured seconds first (3; storm 0)")
    parser.add_argument(
        "--storm", action="store_true", help="make and connect every room at once, no warm-up"
    )
    parser.add_argument(
        "--state-timeout",
        type=float,
        default=30.0,
        help="a socket with no state this long after its first try is a problem",
    )
    parser.add_argument(
        "--stall-seconds",
        type=float,
        default=20.0,
        help="a room in a hand with no new version this long is stalled",
    )
    parser.add_argument("--server-log", help="the server's log file: its errors count")
    parser.add_argument("--rate", type=float, default=600.0, help="offered moves/s, all rooms")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--finish-timeout",
        type=float,
        default=90.0,
        help="after the window, seconds to finish the hands in play (unmeasured)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--floor", action="store_true", help="also measure bench/floor_app.py")
    parser.add_argument("--floor-conns", type=int, default=32)
    parser.add_argument("--floor-duration", type=float, default=10.0)
    parser.add_argument("--json", help="also write the summary here")
    parser.add_argument(
        "--server-pid",
        type=int,
        action="append",
        help="a server process (repeat for several): print its CPU per move and its memory",
    )
    parser.add_argument("--child-index", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-share", help=argparse.SUPPRESS)
    parser.add_argument("--child-start", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    return parser


def main() -> int:
    parser = _parser()
    args = parser.parse_args()
    args.url = args.url or ["http://127.0.0.1:8000"]
    if args.rooms is None:
        args.rooms = 2000 if args.storm else 200
    if args.duration is None:
        args.duration = 20.0 if args.storm else 60.0
    if args.warmup is None:
        args.warmup = 0.0 if args.storm else 3.0
    for url in args.url:
        if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error(f"{url}: load goes to loopback only")
    if args.child_index is not None:
        child_main(args)
        return 0

    lo, _, hi = args.players.partition("-")
    sizes = list(range(int(lo), int(hi or lo) + 1))
    plan = [(n, sizes[n % len(sizes)]) for n in range(args.rooms)]
    # A storm's rooms are made after the start: the clients only need to be up by then.
    start_at = time.time() + 3.0 + (0 if args.storm else args.rooms / 100)
    log_from = log_size(args.server_log)
    meter = ServerMeter(args.server_pid) if args.server_pid else None
    results = _run_clients(args, plan, start_at)
    if meter is not None:
        meter.stop()
    if results is None:
        return 2
    return report(args, results, meter, log_from, start_at)


def _run_clients(
    args: argparse.Namespace, plan: list[tuple[int, int]], start_at: float
) -> list[dict[str, Any]] | None:
    """Spread `plan` (room number, seats) over `--procs` client processes of this script
    and wait for their results (None when one failed)."""
    procs = max(1, min(args.procs, args.rooms))
    outdir = tempfile.TemporaryDirectory(prefix="rummy-load-")
    children = [
        subprocess.Popen(_child_command(args, i, plan[i::procs], start_at, Path(outdir.name)))
        for i in range(procs)
    ]
    results = []
    for i, child in enumerate(children):
        child.wait(timeout=args.warmup + args.duration + args.finish_timeout + 600)
        out = Path(outdir.name) / f"client{i}.json"
        if child.returncode != 0 or not out.exists():
            print(f"client process failed with {child.returncode}", file=sys.stderr)
            return None
        results.append(json.loads(out.read_text()))
    outdir.cleanup()
    return results


def _child_command(
    args: argparse.Namespace, i: int, share: list[tuple[int, int]], start_at: float, out: Path
) -> list[str]:
    cmd = [
        sys.executable,
        __file__,
        "--child-index",
        str(i),
        "--child-share",
        json.dumps(share),
        "--child-start",
        str(start_at),
        "--variant",
        args.variant,
        "--strategy",
        args.strategy,
        "--duration",
        str(args.duration),
        "--warmup",
        str(args.warmup),
        "--rate",
        str(args.rate),
        "--rooms",
        str(args.rooms),
        "--seed",
        str(args.seed),
        "--finish-timeout",
        str(args.finish_timeout),
        "--state-timeout",
        str(args.state_timeout),
        "--stall-seconds",
        str(args.stall_seconds),
    ]
    if args.storm:
        cmd.append("--storm")
    for url in args.url:
        cmd += ["--url", url]
    cmd += ["--child-out", str(out / f"client{i}.json")]
    return cmd


if __name__ == "__main__":
    sys.exit(main())
