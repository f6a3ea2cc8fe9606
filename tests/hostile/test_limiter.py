"""The rates behind 429 `rate_limited` (app/guards/ratelimit.py on the `limits` package, in
memory here; tests/scale/test_rate_limits.py runs them on Redis across processes),
and the rate syntax of the RUMMY_RATE_* settings."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from limits import RateLimitItem
from limits.aio.storage import MemoryStorage

from app.config import Settings
from app.guards.ratelimit import RateLimits, parse_rate


def _rates(**rates: str) -> RateLimits:
    settings: dict[str, Any] = {f"rate_{k}": v for k, v in rates.items()}
    return RateLimits(Settings(**settings))


def _parsed(spec: str) -> RateLimitItem:
    """`parse_rate(spec)`, for a spec that names a rate (not "off")."""
    rate = parse_rate(spec)
    assert rate is not None
    return rate


def test_rates_are_read_from_their_settings_syntax() -> None:
    assert (_parsed("60/minute").amount, _parsed("60/minute").get_expiry()) == (60, 60)
    assert _parsed("10/second").get_expiry() == 1
    assert _parsed("7200/hour").get_expiry() == 3600
    for written in ("5/10s", "5/10 seconds", "5 per 10 seconds"):
        rate = _parsed(written)
        assert (rate.amount, rate.get_expiry()) == (5, 10)
    for off in ("off", "0", "", " OFF "):
        assert parse_rate(off) is None
    for bad in ("60", "60/fortnight", "-1/minute", "x/minute", "5/0s", "0/minute", "nan/minute"):
        with pytest.raises(ValueError):
            parse_rate(bad)


async def test_a_client_gets_its_count_then_waits() -> None:
    rates = _rates(move="3/minute")
    assert [await rates.hit("move", "1.2.3.4") for _ in range(3)] == [None, None, None]
    wait = await rates.hit("move", "1.2.3.4")
    assert wait is not None and 0 < wait <= 60
    assert await rates.hit("move", "5.6.7.8") is None  # another client has its own count
    assert await rates.hit("join", "1.2.3.4") is None  # and so has another kind


async def test_room_comes_back_as_the_window_slides() -> None:
    rates = _rates(frame="2/1 second")
    assert [await rates.hit("frame", "a") for _ in range(2)] == [None, None]
    assert await rates.hit("frame", "a") is not None
    for _ in range(300):  # bounded: the window is one second
        if await rates.hit("frame", "a") is None:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the rate never let the client act again")


async def test_a_check_spends_nothing() -> None:
    rates = _rates(auth_fail="2/hour")
    assert all([await rates.retry_after("auth_fail", "a") is None for _ in range(10)])
    for _ in range(2):
        await rates.hit("auth_fail", "a")
    wait = await rates.retry_after("auth_fail", "a")
    assert wait is not None and 0 < wait <= 3600


async def test_an_unlimited_kind_never_refuses() -> None:
    rates = _rates(create="off")
    assert all([await rates.hit("create", "a") is None for _ in range(1000)])
    assert await rates.hit("unknown kind", "a") is None


async def test_a_failing_storage_lets_requests_through(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(MemoryStorage):
        async def acquire_sliding_window_entry(self, *args: object, **kw: object) -> bool:
            raise ConnectionError("redis://user:secret@db-host is away")

    rates = RateLimits(Settings(rate_move="1/hour"), storage=Broken())
    assert [await rates.hit("move", "a") for _ in range(3)] == [None, None, None]
    assert "ConnectionError" in caplog.text and "secret" not in caplog.text


def test_the_rates_come_from_the_settings() -> None:
    rates = _rates(create="2/minute", auth_fail="off")
    assert str(rates.rates["create"]) == "2 per 1 minute"
    assert rates.rates["auth_fail"] is None
    assert str(rates.rates["frame"]) == "12000 per 1 minute"  # Settings' default
    with pytest.raises(ValueError):
        _rates(move="lots")
