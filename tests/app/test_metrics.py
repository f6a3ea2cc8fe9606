"""Metrics an operator scrapes: `rummy serve` with RUMMY_METRICS_ADDRESS serves Prometheus's
exposition format there (never on the game's port), `promtool check metrics` accepts a scrape
taken mid-game, and a real Prometheus (Debian's, on loopback) scrapes two processes and
answers a query for moves per second."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from app.metrics import _serve
from tests.kit.ports import free_port
from tests.kit.processes import Served, rummy_serve
from tests.kit.tables import Greedy, Table, need_tool


@contextlib.contextmanager
def _with_metrics(tmp: Path) -> Iterator[tuple[Served, str]]:
    """A `rummy serve` with metrics on a port of their own: (server, metrics URL)."""
    port = free_port()
    with rummy_serve(tmp, RUMMY_METRICS_ADDRESS=f"127.0.0.1:{port}") as served:
        yield served, f"http://127.0.0.1:{port}/metrics"


def _samples(text: str) -> dict[str, float]:
    """`name{labels}` -> value of every sample of a scrape."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found


async def test_a_scrape_taken_mid_game_passes_promtool(tmp_path: Path) -> None:
    promtool = need_tool("promtool")
    with _with_metrics(tmp_path) as (served, metrics):
        async with httpx.AsyncClient(timeout=30) as http:
            table = await Table.open(http, served.base)
            ws = f"{served.ws_base}/api/rooms/{table.room}/ws?token={table.tokens[1]}"
            async with connect(ws) as seat:
                await seat.recv()  # its first view: the socket is open and counted
                bot = Greedy()
                for _ in range(6):
                    await table.step(http, bot)
                stale = {"move": {"type": "draw", "source": "stock"}, "version": 0}
                refused = await http.post(
                    f"{served.base}/api/rooms/{table.room}/moves",
                    json=stale,
                    headers={"Authorization": f"Bearer {table.tokens[0]}"},
                )
                assert refused.status_code == 409
                scrape = (await http.get(metrics)).text
            assert (await http.get(f"{served.base}/metrics")).status_code == 404
    checked = subprocess.run(
        [promtool, "check", "metrics"], input=scrape, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    got = _samples(scrape)
    assert got['rummy_moves_accepted_total{variant="classic"}'] == len(table.acked) == 6
    assert got['rummy_moves_refused_total{reason="stale_version",variant="classic"}'] == 1
    assert got['rummy_errors_total{code="stale_version"}'] == 1
    assert got['rummy_rooms_created_total{mode="online",variant="classic"}'] == 1
    assert got["rummy_rooms_live"] == 1
    assert got['rummy_sockets_open{kind="seat"}'] == 1
    assert got['rummy_http_responses_total{status="409"}'] == 1
    assert got["rummy_commit_seconds_count"] >= 1
    assert got["rummy_commit_batch_size_sum"] == 6
    assert got["process_cpu_seconds_total"] > 0  # the library's own, per process
    _names_used_exist(scrape)


def _names_used_exist(scrape: str) -> None:
    """Every metric the alerts, the dashboard and the operator's page name is one a server
    serves (a renamed metric would leave them silently empty)."""
    served = {_base(line.split()[2]) for line in scrape.splitlines() if line.startswith("# TYPE")}
    root = Path(__file__).resolve().parents[2]
    for doc in ("deploy/rummy-alerts.yml", "deploy/grafana-rummy.json", "docs/operations.md"):
        used = set(re.findall(r"\b(?:rummy|process)_[a-z_]+\b(?![./])", (root / doc).read_text()))
        assert {_base(name) for name in used} <= served, (doc, used)


def _base(name: str) -> str:
    return re.sub(r"_(total|bucket|sum|count)$", "", name)


def test_worker_processes_take_the_next_free_port() -> None:
    """`rummy serve --workers K`: each process serves its metrics on a port of its own."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        server, thread = _serve("127.0.0.1", port, 2)  # its sibling holds `port`
        try:
            assert server.server_address[1] == port + 1
        finally:
            server.shutdown()
            server.server_close()
            thread.join(5)
        with pytest.raises(OSError, match=f"metrics on 127.0.0.1:{port}"):
            _serve("127.0.0.1", port, 1)  # one process, its port taken: it says so


@contextlib.contextmanager
def _prometheus(tmp: Path, targets: list[str]) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """Debian's Prometheus on loopback, scraping `targets` every second: (process, URL)."""
    config = tmp / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        "scrape_configs:\n  - job_name: rummy\n    static_configs:\n"
        f"      - targets: [{', '.join(repr(t) for t in targets)}]\n"
    )
    port = free_port()
    command = [
        need_tool("prometheus"),
        f"--config.file={config}",
        f"--storage.tsdb.path={tmp / 'tsdb'}",
        f"--web.listen-address=127.0.0.1:{port}",
    ]
    with open(tmp / "prometheus.log", "wb") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            yield proc, f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(30)


async def test_prometheus_scrapes_two_processes_and_answers_moves_per_second(
    tmp_path: Path,
) -> None:
    ports = [free_port(), free_port()]
    with contextlib.ExitStack() as stack:
        servers = [
            stack.enter_context(rummy_serve(tmp_path, RUMMY_METRICS_ADDRESS=f"127.0.0.1:{p}"))
            for p in ports
        ]
        targets = [f"127.0.0.1:{p}" for p in ports]
        prom, prom_url = stack.enter_context(_prometheus(tmp_path, targets))
        query = "sum by (instance) (rate(rummy_moves_accepted_total[5s]))"
        stop = asyncio.Event()
        async with httpx.AsyncClient(timeout=30) as http:
            tables = [await Table.open(http, s.base) for s in servers]
            players = [asyncio.create_task(t.play(http, stop, i)) for i, t in enumerate(tables)]
            try:
                rates = await _until_answered(http, prom, prom_url, query, len(ports))
            finally:
                stop.set()
                await asyncio.gather(*players)
    assert sorted(rates) == sorted(f"127.0.0.1:{p}" for p in ports)
    assert all(rate > 0 for rate in rates.values()), rates


async def _until_answered(
    http: httpx.AsyncClient, prom: subprocess.Popen[bytes], url: str, query: str, n: int
) -> dict[str, float]:
    """Ask Prometheus `query` until it has a positive rate for `n` instances (two scrapes
    of each while moves are played); a bound of 120 s, not a speed claim."""
    deadline = time.monotonic() + 120
    rates: dict[str, float] = {}
    while time.monotonic() < deadline:
        assert prom.poll() is None, "prometheus exited"
        try:
            answer = (await http.get(f"{url}/api/v1/query", params={"query": query})).json()
        except httpx.TransportError:
            answer = {}  # not listening yet
        if answer.get("status") == "success":
            rates = {
                r["metric"]["instance"]: float(r["value"][1]) for r in answer["data"]["result"]
            }
            if len(rates) == n and all(v > 0 for v in rates.values()):
                return rates
        await asyncio.sleep(0.5)
    raise AssertionError(f"Prometheus never answered for {n} processes: {rates}")


def test_the_deploy_scrape_config_and_alerts_are_valid(tmp_path: Path) -> None:
    """deploy/prometheus.yml (as scripts/cluster.sh fills it in) and the alert rules it
    loads, as Prometheus's own checker reads them."""
    promtool = need_tool("promtool")
    deploy = Path(__file__).resolve().parents[2] / "deploy"
    config = tmp_path / "prometheus.yml"
    targets = "'127.0.0.1:8201', '127.0.0.1:8202'"
    config.write_text((deploy / "prometheus.yml").read_text().replace("@TARGETS@", targets))
    (tmp_path / "rummy-alerts.yml").write_text((deploy / "rummy-alerts.yml").read_text())
    checked = subprocess.run([promtool, "check", "config", str(config)], capture_output=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert b"6 rules found" in checked.stdout
