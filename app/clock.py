"""The process's time: every part of the server reads the room service's clock, which tests
(and `RUMMY_CLOCK_OFFSET_FILE`, app/testclock.py) may replace."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)
