"""Fixtures of the hostile-input tests. The shared `live_server` runs with the rate limits
off; the tests of the limits themselves start servers with small limits (`make_server`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.rummytest import LiveServer


@pytest.fixture
async def http(live_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as client:
        yield client
