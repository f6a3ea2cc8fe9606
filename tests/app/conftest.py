"""Fixtures of the server tests: an engine on a migrated database of each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app import migrate
from app.db import create_engine


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on the current database backend, its schema migrated."""
    engine = create_engine(database_url)
    await migrate.upgrade(engine)
    yield engine
    await engine.dispose()
