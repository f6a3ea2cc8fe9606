"""Fixtures of the server tests: a client on each database backend."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.rummytest import Api, LiveServer


@pytest.fixture
async def client(server: LiveServer) -> AsyncIterator[Api]:
    """A client of the server on the current database backend."""
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        yield Api(http)
