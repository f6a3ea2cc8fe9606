"""A clock that tests of whole server processes move forward (RUMMY_CLOCK_OFFSET_FILE).

The file holds a number of seconds added to the real time; the test rewrites it to jump a
minute ahead without waiting for one (turn timers, away seats). It is read again whenever
its modification time changes. Never set in production: it exists for tests only, like
RUMMY_ALLOW_FIXED_DEALS.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta


def offset_clock(path: str) -> Callable[[], datetime]:
    """The real time plus the seconds in the file at `path` (0 while it is missing)."""
    seen: list[object] = [None, timedelta()]

    def now() -> datetime:
        try:
            stamp: object = os.stat(path).st_mtime_ns
        except OSError:
            stamp = None
        if stamp != seen[0]:
            seen[0] = stamp
            try:
                with open(path) as f:
                    seen[1] = timedelta(seconds=float(f.read().strip() or 0))
            except (OSError, ValueError):
                seen[1] = timedelta()
        offset = seen[1]
        assert isinstance(offset, timedelta)
        return datetime.now(UTC) + offset

    return now
