"""Per-client rate limits on the `limits` package: in memory for one process, in Redis when
`RUMMY_REDIS_URL` is set, so that several processes count one client's requests together.

Each kind of action has a rate, `"<count>/<period>"` (`limits`' notation: `600/minute`,
`5/10 seconds`; `5/10s` is read too; `off` turns a kind off). The strategy is the sliding
window counter: a client gets `count` actions in any one period, and room again as the
window slides, without a burst of twice the rate at a window's edge.
"""

from __future__ import annotations

import logging
import math
import re
import time
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from app.metrics import M

log = logging.getLogger("rummy.ratelimit")

KINDS = ("create", "join", "move", "auth_fail", "frame")
_OFF = frozenset({"", "0", "off", "none", "unlimited"})
_SHORT_SECONDS = re.compile(r"/\s*(\d+)\s*s$")  # "5/10s", the notation before `limits`
_ZERO_PERIOD = re.compile(r"/\s*0+\s*[a-z]")  # `limits` would read "5/0s" as 5/second
# How long a Redis outage is logged once, not at every request.
_OUTAGE_LOG_SECONDS = 60.0


def parse_rate(spec: str) -> RateLimitItem | None:
    """A rate of the settings' notation; `None` for `"off"`, `"0"` or an empty string.

    Raises:
        ValueError: not a rate.

    >>> str(parse_rate("120/minute"))
    '120 per 1 minute'
    >>> str(parse_rate("5/10s"))
    '5 per 10 second'
    >>> parse_rate("off") is None
    True
    """
    text = spec.strip().lower()
    if text in _OFF:
        return None
    item = parse(_SHORT_SECONDS.sub(r"/\1 seconds", text))
    if item.amount <= 0 or _ZERO_PERIOD.search(text):
        raise ValueError(f"not a rate: {spec!r} (write e.g. '60/minute')")
    return item


class RateLimits:
    """The rates of `Settings` (`rate_<kind>`) over one storage shared by every process
    that is given the same Redis.

    A storage failure lets the request through (and is logged): an outage of Redis must not
    take the game down with it.
    """

    def __init__(self, settings: Any, *, storage: Storage | None = None) -> None:
        self.rates = {kind: parse_rate(str(getattr(settings, f"rate_{kind}"))) for kind in KINDS}
        self._redis_url: str | None = settings.redis_url
        self._storage = storage
        self._limiter: SlidingWindowCounterRateLimiter | None = None
        self._outage_logged = -_OUTAGE_LOG_SECONDS

    async def hit(self, kind: str, client: str) -> float | None:
        """Spend one of `client`'s `kind` actions: `None` when allowed, else the seconds to
        wait. A refused action is not counted."""
        return await self.ask(kind, client, spend=True)

    async def retry_after(self, kind: str, client: str) -> float | None:
        """Seconds until `client` may act as `kind` again, `None` when it may now (spends
        nothing)."""
        return await self.ask(kind, client, spend=False)

    async def ask(self, kind: str, client: str, *, spend: bool) -> float | None:
        """`hit` (`spend`) or `retry_after`."""
        rate = self.rates.get(kind)
        if rate is None:
            return None
        try:
            limiter = self._limiter
            if limiter is None:
                # Built on first use, inside the server's event loop: the Redis client
                # binds to it.
                if self._storage is None:
                    self._storage = _storage(self._redis_url)
                limiter = self._limiter = SlidingWindowCounterRateLimiter(self._storage)
            ask = limiter.hit if spend else limiter.test
            if await ask(rate, kind, client):
                return None
            M.rate_limited[kind].inc()
            return await self._wait(limiter, rate, kind, client)
        except Exception as exc:
            self._log_outage(exc)
            return None

    async def headers(self, kind: str, client: str) -> list[tuple[bytes, bytes]]:
        """`RateLimit-Policy` and `RateLimit` (the IETF httpapi RateLimit header fields,
        draft 9: a named policy with its quota `q` per window `w` seconds; what is left `r`
        and the seconds `t` until the window has room again) for `client`'s `kind`, as an
        answer's headers; none for a kind that is off or when the storage fails."""
        rate, limiter = self.rates.get(kind), self._limiter
        if rate is None or limiter is None:
            return []
        try:
            stats = await limiter.get_window_stats(rate, kind, client)
        except Exception as exc:
            self._log_outage(exc)
            return []
        left = max(int(stats.remaining), 0)
        reset = max(math.ceil(stats.reset_time - time.time()), 0) if left < rate.amount else 0
        return [
            (b"ratelimit-policy", f'"{kind}";q={rate.amount};w={rate.get_expiry()}'.encode()),
            (b"ratelimit", f'"{kind}";r={left};t={reset}'.encode()),
        ]

    @staticmethod
    async def _wait(
        limiter: SlidingWindowCounterRateLimiter, rate: RateLimitItem, kind: str, client: str
    ) -> float:
        stats = await limiter.get_window_stats(rate, kind, client)
        return max(stats.reset_time - time.time(), 0.0)

    def _log_outage(self, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._outage_logged >= _OUTAGE_LOG_SECONDS:
            self._outage_logged = now
            # The exception's type only: a driver's message may name the host and password.
            log.warning("rate limits not checked, their storage failed: %s", type(exc).__name__)


def _storage(redis_url: str | None) -> Storage:
    if not redis_url:
        return MemoryStorage()
    # `limits` names its async Redis storage `async+redis://`; redis-py is already ours.
    uri = redis_url if redis_url.startswith("async+") else "async+" + redis_url
    return RedisStorage(uri, implementation="redispy", key_prefix="rummy:rate")
