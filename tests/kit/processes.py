"""`rummy serve` as a subprocess on a free port, its stderr (every log line) kept in a file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.kit.ports import free_port

RUMMY = str(Path(sys.executable).parent / "rummy")


@dataclass
class Served:
    base: str
    process: subprocess.Popen[bytes]
    stderr: Path

    @property
    def ws_base(self) -> str:
        return "ws" + self.base[len("http") :]

    def rss_kb(self) -> int:
        """The server's resident memory now (VmRSS of /proc/<pid>/status), in kB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS line")

    @property
    def database(self) -> Path:
        """The SQLite file it serves."""
        return self.stderr.with_suffix(".db")

    def log_text(self) -> str:
        return self.stderr.read_text(errors="replace")


@contextmanager
def rummy_serve(tmp: Path, *args: str, **env: str) -> Iterator[Served]:
    """Serve a fresh SQLite database; stops the server (SIGTERM: a graceful shutdown) on exit."""
    port = free_port()
    stderr = tmp / f"serve-{port}.log"
    environ = {
        **os.environ,
        "RUMMY_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/serve-{port}.db",
        "RUMMY_RATE_LIMIT_ENABLED": "false",
        **env,
    }
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            [RUMMY, "serve", "--port", str(port), *args],
            env=environ,
            stdout=sink,
            stderr=sink,
        )
    served = Served(f"http://127.0.0.1:{port}", process, stderr)
    try:
        wait_serving(served.base, process, served.log_text)
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_serving(base: str, process: subprocess.Popen[bytes], log: Callable[[], str]) -> None:
    """Until `base`'s /healthz answers 200; fails with `log()` if the server exits first, and
    after 60 s."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert process.poll() is None, log()
        assert time.monotonic() < deadline, "rummy serve did not come up"
        time.sleep(0.1)
