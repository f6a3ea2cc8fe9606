"""What `bench/load.py` prints and writes at the end: the summary of its client processes'
results (moves/s, latency percentiles, errors, the audit), the server's CPU and memory
from its meter, the clients' CPU, the problems, and the floor's ratio."""

from __future__ import annotations

import argparse
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from floor_drive import run_floor
from procs import ServerMeter

# A server log line that is an error: an ERROR level line or a traceback.
SERVER_LOG_ERROR = re.compile(r"^(ERROR\b|Traceback \(most recent call last\))")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def log_size(path: str | None) -> int:
    """Where the server's log ends now: only lines written during the run are scanned."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def server_log_errors(path: str | None, start: int) -> list[str]:
    """The error lines the server logged since `start`."""
    if not path:
        return []
    with open(path, "rb") as log:
        log.seek(start)
        text = log.read().decode(errors="replace")
    return [line for line in text.splitlines() if SERVER_LOG_ERROR.match(line)]


def report_server(
    meter: ServerMeter,
    results: list[dict[str, Any]],
    acked: int,
    summary: dict[str, Any],
    warmup: float,
) -> None:
    """Print the server's CPU per acknowledged move over the window and its memory."""
    start = min(r["window"][0] for r in results)
    end = max(r["window"][1] for r in results)
    # Set-up: from the bench's start until the last seat had its first state (the window
    # opens `warmup` seconds later): creates, joins and connects.
    set_up = meter.at(start - warmup)[0] - meter.baseline_cpu
    cpu0, system0, _ = meter.at(start)
    cpu1, system1, rss_end = meter.at(end)
    cpu = cpu1 - cpu0
    system = system1 - system0
    peak = meter.peak_rss()
    grown = max(0, rss_end - meter.baseline_rss)
    rooms, seats = summary["rooms"], summary["websockets"]
    summary["server"] = {
        "cpu_s": round(cpu, 2),
        "cpu_us_per_move": round(cpu / acked * 1e6, 1) if acked else None,
        "cpu_share": round(cpu / (end - start), 3) if end > start else None,
        "system_us_per_move": round(system / acked * 1e6, 1) if acked else None,
        "setup_ms_per_room": round(set_up / rooms * 1e3, 2) if rooms else None,
        "rss_mb_start": round(meter.baseline_rss / 2**20, 1),
        "rss_mb_end": round(rss_end / 2**20, 1),
        "rss_mb_peak": round(peak / 2**20, 1),
        "kb_per_room": round(grown / 1024 / rooms, 1) if rooms else None,
        "kb_per_socket": round(grown / 1024 / seats, 1) if seats else None,
    }
    s = summary["server"]
    print(
        f"server CPU        {s['cpu_s']} s over the window: {s['cpu_us_per_move']} µs per "
        f"acknowledged move ({s['cpu_share']} of a core), of which {s['system_us_per_move']} "
        "µs in the kernel (socket sends and receives, fsyncs)"
    )
    print(
        f"server set-up     {s['setup_ms_per_room']} ms of CPU per room (create, joins and "
        "every seat's first connect, until the last seat had its state)"
    )
    print(
        f"server memory     RSS {s['rss_mb_start']} MB before the rooms, {s['rss_mb_end']} MB "
        f"at the window's end (peak {s['rss_mb_peak']}): {s['kb_per_room']} kB per room, "
        f"{s['kb_per_socket']} kB per socket"
    )


def report(
    args: argparse.Namespace,
    results: list[dict[str, Any]],
    meter: ServerMeter | None,
    log_from: int,
    start_at: float,
) -> int:
    """Print the run's figures (and write them with `--json`); 1 if it found a problem."""
    acked = sum(r["acked_in_window"] for r in results)
    summary = _summary(args, results, acked)
    audit = Counter(summary["audit"])
    _print_play(args, summary, acked)
    log_errors = _print_health(args, results, summary, log_from, start_at)
    if meter is not None:
        report_server(meter, results, acked, summary, args.warmup)
    _print_cpu(args, results, summary, acked)
    for line in log_errors[:5]:
        print(f"  server log: {line}")
    # A room a socket saw go back, a client error, a log that repeats, a server error, a
    # socket left without state, a stalled room: each fails the run.
    problem_count = sum(r["problem_count"] for r in results) + len(log_errors)
    summary["problems"] = problem_count
    print(f"problems          {problem_count}")
    for p in [p for r in results for p in r["problems"]][:10]:
        print(f"  problem: {p}")
    if args.floor:
        _print_floor(args, summary, acked / args.duration)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))
    lost, dup, gaps = audit.get("lost", 0), audit.get("duplicated", 0), audit.get("version_gaps", 0)
    bad = summary["errors"].get("conservation", 0)
    failed = lost or dup or gaps or bad or audit.get("log_http_error", 0) or problem_count
    return 1 if failed else 0


def _summary(args: argparse.Namespace, results: list[dict[str, Any]], acked: int) -> dict[str, Any]:
    ack = [x for r in results for x in r["ack_ms"]]
    fan = [x for r in results for x in r["fanout_ms"]]
    errors: Counter[str] = Counter()
    audit: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
        audit.update(r["audit"])
    errors = Counter({k: v for k, v in errors.items() if v})
    rate = acked / args.duration
    return {
        "urls": args.url,
        "rooms": sum(r["rooms"] for r in results),
        "websockets": sum(r["seats"] for r in results),
        "duration_s": args.duration,
        "moves_per_s": round(rate, 1),
        "ack_ms": {
            q: round(pct(ack, p), 1) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        },
        "fanout_ms": {
            q: round(pct(fan, p), 1) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        },
        "ws_held_low": sum(r["ws_low"] for r in results),
        "ws_held_high": sum(r["ws_high"] for r in results),
        "hands_completed": sum(r["hands_done"] for r in results),
        "reconnects": sum(r["reconnects"] for r in results),
        "errors": dict(errors),
        "audit": dict(audit),
    }


def _print_play(args: argparse.Namespace, summary: dict[str, Any], acked: int) -> None:
    errors, audit = summary["errors"], summary["audit"]
    print(f"target            {' '.join(args.url)}")
    print(
        f"rooms/websockets  {summary['rooms']} rooms, {summary['websockets']} websockets "
        f"(held {summary['ws_held_low']}..{summary['ws_held_high']} during the window)"
    )
    print(
        f"moves/s           {summary['moves_per_s']} acknowledged over {args.duration:.0f} s "
        f"({acked} moves, {summary['hands_completed']} hands completed)"
    )
    a, f = summary["ack_ms"], summary["fanout_ms"]
    print(f"move->ack ms      p50 {a['p50']}  p95 {a['p95']}  p99 {a['p99']}")
    print(f"move->fan-out ms  p50 {f['p50']}  p95 {f['p95']}  p99 {f['p99']}")
    print(f"errors            {errors or 0}  (reconnects {summary['reconnects']})")
    lost, dup, gaps = audit.get("lost", 0), audit.get("duplicated", 0), audit.get("version_gaps", 0)
    bad = errors.get("conservation", 0)
    print(
        f"audit             {audit.get('rooms', 0)} rooms, {audit.get('acked', 0)} acked moves: "
        f"{lost} lost, {dup} duplicated, {gaps} version gaps, {bad} conservation failures"
        + (
            f" ({audit['unfinished']} more in hands unfinished at the end, not auditable)"
            if audit.get("unfinished")
            else ""
        )
    )
    print(
        f"applied           {audit.get('versions', 0)} versions in all (moves and votes, "
        "setup and finishing included)"
    )


def _print_health(
    args: argparse.Namespace,
    results: list[dict[str, Any]],
    summary: dict[str, Any],
    log_from: int,
    start_at: float,
) -> list[str]:
    """Server errors, sockets without state, stalled rooms, rooms not made, and with
    `--storm` the time until every socket had its state; the server log's error lines."""
    server_errors: Counter[str] = Counter()
    for r in results:
        server_errors.update(r["server_errors"])
    log_errors = server_log_errors(args.server_log, log_from)
    if log_errors:
        server_errors["log_lines"] = len(log_errors)
    seats = summary["websockets"]
    got_state = sum(r["got_state"] for r in results)
    no_state = sum(r["no_state"] for r in results)
    stalled = sum(r["stalled"] for r in results)
    not_made = sum(r["rooms_not_made"] for r in results)
    summary.update(
        server_errors=dict(server_errors),
        got_state=got_state,
        no_state=no_state,
        stalled_rooms=stalled,
        rooms_not_made=not_made,
    )
    print(
        f"server errors     {sum(server_errors.values())} {dict(server_errors) or ''}"
        + ("" if args.server_log else "(no --server-log: its lines not scanned)")
    )
    print(
        f"sockets' state    {got_state} of {seats} got a state; {no_state} none within "
        f"{args.state_timeout:g} s of their first try"
    )
    print(f"stalled rooms     {stalled} (no new version for {args.stall_seconds:g} s in a hand)")
    print(f"rooms not made    {not_made}")
    if args.storm:
        last = [r["all_state_at"] for r in results]
        if all(t is not None for t in last) and got_state == seats:
            summary["all_connected_s"] = round(max(last) - start_at, 2)
            print(f"all connected in  {summary['all_connected_s']} s ({seats} sockets had a state)")
        else:
            print("all connected in  never: some sockets got no state")
    return log_errors


def _print_cpu(
    args: argparse.Namespace, results: list[dict[str, Any]], summary: dict[str, Any], acked: int
) -> None:
    clients_cpu = sum(r["cpu_window"] for r in results)
    summary["clients_cpu_us_per_move"] = round(clients_cpu / acked * 1e6, 1) if acked else None
    print(
        f"clients CPU       {clients_cpu:.2f} s over the window in {len(results)} processes: "
        f"{summary['clients_cpu_us_per_move']} µs per acknowledged move "
        f"({clients_cpu / args.duration:.3f} of a core, taken from the machine the server runs on)"
    )
    server_us = summary.get("server", {}).get("cpu_us_per_move")
    if server_us and summary["clients_cpu_us_per_move"]:
        # The clients do the same work per move whatever the server's code: the ratio reads
        # the server's cost in units of this hour's machine, which swings by 1.5-2x.
        summary["server_over_clients"] = round(server_us / summary["clients_cpu_us_per_move"], 3)
        print(
            f"server/clients    {summary['server_over_clients']} (server CPU per move over the "
            "clients'; drifts less with the machine than either)"
        )


def _print_floor(args: argparse.Namespace, summary: dict[str, Any], rate: float) -> None:
    floor = run_floor(args.floor_conns, args.floor_duration)
    summary["floor"] = {
        "rate": round(floor["rate"], 1),
        "p50": round(pct(floor["lat"], 0.5), 1),
        "p99": round(pct(floor["lat"], 0.99), 1),
        "errors": floor["errors"],
        "ratio": round(rate / floor["rate"], 3) if floor["rate"] else None,
    }
    fl = summary["floor"]
    print(
        f"floor             {fl['rate']} one-row SQLite writes/s ({args.floor_conns} conns, "
        f"p50 {fl['p50']} ms, p99 {fl['p99']} ms, {fl['errors']} errors)"
    )
    print(f"ratio             {fl['ratio']} of the floor")
