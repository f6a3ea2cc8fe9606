"""What /proc says of a server's processes, for the benches that measure them: their
children, command lines, CPU time and resident memory, and a meter that samples them all
over a run."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The direct children of `pid` (a server's bot worker, SQLite writer, resource tracker;
    a cluster script's servers and proxy)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def cmdline(pid: int) -> str:
    """The command line of `pid`, spaces between its words ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """The resident set of process `pid` in MB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def descendants(pids: list[int]) -> list[int]:
    """`pids` and every process they started, from /proc (gone ones are skipped)."""
    found: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children(pid)
    return found


class ServerMeter:
    """Samples the server processes' CPU time and resident memory from /proc, in a thread,
    so the bench can say what each acknowledged move cost the server over its window."""

    def __init__(self, pids: list[int], every: float = 0.25) -> None:
        self.pids = pids
        self.every = every
        # (wall time, CPU s, of which in the kernel: sends, receives, fsyncs; RSS bytes)
        self.samples: list[tuple[float, float, float, int]] = []
        _, self.baseline_cpu, _, self.baseline_rss = self.read()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def read(self) -> tuple[float, float, float, int]:
        """Now: the CPU seconds and RSS of the servers and their child processes (a SQLite
        server's writer is one: app/persist/sqlite_process.py)."""
        cpu = system = 0.0
        rss = 0
        for pid in descendants(self.pids):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    # After the parenthesised name: utime and stime are the 12th and 13th.
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{pid}/status") as f:
                    rss += next(int(x.split()[1]) * 1024 for x in f if x.startswith("VmRSS:"))
            except OSError:
                if pid in self.pids:
                    raise
                continue  # a child that just ended
            cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            system += int(fields[12]) / CLOCK_TICKS
        return time.time(), cpu, system, rss

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.samples.append(self.read())
            except OSError:
                return  # the server is gone: the run reports what it has

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def at(self, when: float) -> tuple[float, float, int]:
        """CPU seconds (all, and the kernel's) and RSS at wall time `when`, from the
        nearest sample."""
        _, cpu, system, rss = min(self.samples, key=lambda s: abs(s[0] - when))
        return cpu, system, rss

    def peak_rss(self) -> int:
        return max((s[3] for s in self.samples), default=self.baseline_rss)
