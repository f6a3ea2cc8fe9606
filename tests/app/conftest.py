"""Fixtures of the server tests: a client on each database backend, and an engine on a
migrated database of each."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from rummytest import Api, LiveServer
from sqlalchemy.ext.asyncio import AsyncEngine

from app import migrate
from app.db import create_engine


@pytest.fixture
async def client(server: LiveServer) -> AsyncIterator[Api]:
    """A client of the server on the current database backend."""
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        yield Api(http)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on the current database backend, its schema migrated."""
    engine = create_engine(database_url)
    await migrate.upgrade(engine)
    yield engine
    await engine.dispose()
