"""schemathesis against the live server's own /openapi.json, every operation: no 5xx, and
every answer (status, content type, body, headers) is one the schema documents. It runs on
each database backend (the `server` fixture): PostgreSQL refuses what SQLite stores (NUL).

Half the generated requests are aimed at a real room with a real seat token, so they get
past 401/404 into the body validation, the rules and the version check."""

from __future__ import annotations

import hashlib

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.kit.openapi import app_schema
from tests.kit.responses import ok
from tests.kit.rooms import online_room
from tests.kit.servers import LiveServer

# The app's schema, built without serving; `test_the_live_schema_is_the_apps` checks that
# the running server publishes this very document.
APP_SCHEMA = app_schema()
schema = schemathesis.openapi.from_dict(APP_SCHEMA)


@pytest.fixture(scope="module")
def real_room(server: LiveServer) -> tuple[str, str]:
    import asyncio

    async def make() -> tuple[str, str]:
        async with httpx.AsyncClient(base_url=server, timeout=60) as http:
            room, tokens = await online_room(http, "rummy51", 2)
            return room, tokens[0]

    return asyncio.run(make())


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(
    case, server: LiveServer, real_room: tuple[str, str]
) -> None:
    room, token = real_room
    # A well-formed move can still be illegal: the API answers 422 (docs/api.md), which this
    # check would count as "valid data rejected".
    excluded = [schemathesis.checks.positive_data_acceptance]
    # Only well-formed cases go to the real room: a deliberately malformed one (schemathesis's
    # negative mode) must keep its own bad room id or token, or it would be "accepted".
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive and case.path_parameters and "room" in case.path_parameters and _coin(case, 2):
        case.path_parameters["room"] = room
        if case.headers and "Authorization" in case.headers and _coin(case, 3):
            # A real seat token: the request reaches the rules. schemathesis's own
            # "invalid auth ignored" check assumes it generated the token, so skip it here.
            case.headers["Authorization"] = f"Bearer {token}"
            excluded.append(schemathesis.checks.ignored_auth)
    response = case.call(base_url=server)
    if not positive and response.status_code == 413:
        # A malformed body too big to read (a match record's list of hands, say) is refused
        # before it is read (app/guards.py): that is a rejection too.
        return
    case.validate_response(response, excluded_checks=excluded)


def _coin(case: schemathesis.Case, sides: int) -> bool:
    """A choice that follows the generated case (reproducible under derandomize)."""
    text = repr((case.body, case.query, case.path_parameters))
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % sides != 0


def test_the_live_schema_is_the_apps(server: LiveServer) -> None:
    assert ok(httpx.get(server + "/openapi.json")) == APP_SCHEMA


def test_the_real_room_still_answers(server: LiveServer, real_room: tuple[str, str]) -> None:
    room, token = real_room
    state = ok(
        httpx.get(f"{server}/api/rooms/{room}/state", headers={"Authorization": f"Bearer {token}"})
    )
    assert state["room"] == room
