"""What /proc says of a server's processes, for the benches that measure them: their
children, command lines, CPU time and resident memory."""

from __future__ import annotations

import os
from pathlib import Path


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
