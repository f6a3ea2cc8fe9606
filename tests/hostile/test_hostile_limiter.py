"""The token buckets behind 429 `rate_limited`, on a clock the test turns by hand, and the
rate syntax of the RUMMY_RATE_* settings."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.limits import Limits, Rate, RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rates_are_read_from_their_settings_syntax() -> None:
    assert Rate.parse("60/minute") == Rate(capacity=60, per_second=1)
    assert Rate.parse("10/second") == Rate(capacity=10, per_second=10)
    assert Rate.parse("7200/hour") == Rate(capacity=7200, per_second=2)
    assert Rate.parse("5/10s") == Rate(capacity=5, per_second=0.5)
    for off in ("off", "0", "", " OFF "):
        assert Rate.parse(off) is None
    for bad in ("60", "60/fortnight", "-1/minute", "x/minute", "5/0s", "nan/minute"):
        with pytest.raises(ValueError):
            Rate.parse(bad)


def test_a_bucket_allows_its_burst_then_refills_with_time() -> None:
    clock = Clock()
    limiter = RateLimiter({"move": Rate.parse("3/minute")}, clock=clock)
    assert [limiter.hit("move", "1.2.3.4") for _ in range(3)] == [None, None, None]
    wait = limiter.hit("move", "1.2.3.4")
    assert wait == pytest.approx(20.0)  # one token every 20 s
    assert limiter.hit("move", "5.6.7.8") is None  # another client has its own bucket
    clock.now += 19.0
    assert limiter.hit("move", "1.2.3.4") == pytest.approx(1.0)
    clock.now += 1.0
    assert limiter.hit("move", "1.2.3.4") is None
    clock.now += 3600
    assert [limiter.hit("move", "1.2.3.4") for _ in range(4)][-1] is not None  # capped at 3


def test_failures_keep_counting_past_empty_but_not_forever() -> None:
    clock = Clock()
    limiter = RateLimiter({"auth_fail": Rate.parse("2/minute")}, clock=clock)
    for _ in range(50):
        limiter.charge("auth_fail", "a")
    # 50 failures cost at most one extra bucket of waiting: 2 + 2 tokens at 30 s each.
    assert limiter.retry_after("auth_fail", "a") == pytest.approx(90.0)
    clock.now += 90
    assert limiter.retry_after("auth_fail", "a") is None


def test_an_unlimited_kind_never_refuses() -> None:
    limiter = RateLimiter({"create": None})
    assert all(limiter.hit("create", "a") is None for _ in range(10_000))
    assert limiter.hit("unknown kind", "a") is None


def test_a_flood_of_addresses_cannot_grow_memory_without_bound() -> None:
    limiter = RateLimiter({"join": Rate.parse("1/hour")}, max_keys=100)
    for i in range(10_000):
        limiter.hit("join", f"10.0.{i // 256}.{i % 256}")
    assert len(limiter._buckets) == 100


def test_limits_come_from_the_settings() -> None:
    settings = Settings(
        rate_create="2/minute",
        rate_auth_fail="off",
        max_body_bytes=1234,
        ws_max_frame_bytes=99,
        ws_idle_seconds=5,
    )
    limits = Limits.from_settings(settings)
    assert limits.rates["create"] == Rate(capacity=2, per_second=2 / 60)
    assert limits.rates["auth_fail"] is None
    assert (limits.max_body_bytes, limits.ws_max_frame_bytes, limits.ws_idle_seconds) == (
        1234,
        99,
        5,
    )
    with pytest.raises(ValueError):
        Limits.from_settings(Settings(rate_move="lots"))
