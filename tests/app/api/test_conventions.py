"""The conventions of the field that an outsider's client relies on (docs/api.md, "Errors"
and "Conventions"): a 422 names every invalid field, a 401 says `WWW-Authenticate:
Bearer`, a body that is not JSON is 415, rate-limited routes say what is left of their rate
(`RateLimit-Policy`, `RateLimit`), and CORS is off unless `RUMMY_CORS_ORIGINS` allows an
origin. One server with rates and one allowed origin serves the whole module."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from tests.kit.clients import http_client
from tests.kit.servers import LiveServer, start_server

FRIEND = "https://friends.example"
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path: Path = tmp_path_factory.mktemp("conventions") / "rummy.db"
    live = start_server(
        f"sqlite+aiosqlite:///{path}",
        rate_limit_enabled=True,
        rate_create="4/minute",
        rate_move="1000/minute",
        cors_origins=f"{FRIEND}, https://other.example/",
    )
    yield live
    live.stop()


@pytest.fixture
async def http(rated: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(rated) as client:
        yield client


async def test_a_422_names_every_invalid_field(live_server: LiveServer) -> None:
    body = {"variant": "poker", "players": "two", "mode": "telepathy", "chat": "yes"}
    async with httpx.AsyncClient(base_url=live_server) as http:
        answer = await http.post("/api/rooms", json=body)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "invalid_request"
    named = {tuple(d["loc"]) for d in error["details"]}
    assert named == {("body", "variant"), ("body", "players"), ("body", "mode"), ("body", "chat")}
    assert all(d["message"] for d in error["details"])


async def test_a_401_names_its_scheme(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server) as http:
        room = (await http.post("/api/rooms", json={})).json()["room"]
        for headers in ({}, {"Authorization": "Bearer not-a-token"}):
            answer = await http.get(f"/api/rooms/{room}/state", headers=headers)
            assert answer.status_code == 401
            assert answer.headers["www-authenticate"].startswith("Bearer")
            assert answer.json()["error"]["code"] == "unauthorized"


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "text/json"]
)
async def test_a_body_that_is_not_json_is_415(live_server: LiveServer, content_type: str) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    async with httpx.AsyncClient(base_url=live_server) as http:
        answer = await http.post("/api/rooms", content=b'{"variant": "basic"}', headers=headers)
        assert answer.status_code == 415, answer.text
        assert answer.json()["error"]["code"] == "unsupported_media_type"
        # JSON by any of its names is read, with or without a charset.
        for kind in ("application/json; charset=utf-8", "application/vnd.rummy+json"):
            answer = await http.post("/api/rooms", content=b"{}", headers={"Content-Type": kind})
            assert answer.status_code == 201, answer.text


async def test_rated_routes_say_what_is_left(http: httpx.AsyncClient) -> None:
    left = []
    for _ in range(4):
        answer = await http.post("/api/rooms", json={"mode": "computer"})
        assert answer.status_code == 201
        assert answer.headers["ratelimit-policy"] == '"create";q=4;w=60'
        name, remaining, reset = answer.headers["ratelimit"].split(";")
        assert name == '"create"' and 0 < int(reset.removeprefix("t=")) <= 60
        left.append(int(remaining.removeprefix("r=")))
    assert left == [3, 2, 1, 0]
    refused = await http.post("/api/rooms", json={})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.headers["ratelimit"].startswith('"create";r=0;t=')
    # A move spends its own rate; a read spends none and says nothing.
    created = answer.json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    moved = await http.post(
        f"/api/rooms/{created['room']}/moves",
        json={"move": {"type": "draw", "source": "stock"}, "version": 0},
        headers=auth,
    )
    assert moved.status_code == 200, moved.text
    assert moved.headers["ratelimit"].startswith('"move";r=999;t=')
    read = await http.get(f"/api/rooms/{created['room']}/state", headers=auth)
    assert "ratelimit" not in read.headers


async def test_cors_answers_only_allowed_origins(
    http: httpx.AsyncClient, live_server: LiveServer
) -> None:
    preflight = {
        "Origin": FRIEND,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    answer = await http.options("/api/rooms/abc/moves", headers=preflight)
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == FRIEND
    assert "authorization" in answer.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in answer.headers
    seen = await http.get("/api/variants", headers={"Origin": FRIEND})
    assert seen.headers["access-control-allow-origin"] == FRIEND
    assert "RateLimit" in seen.headers["access-control-expose-headers"]
    stranger = {**preflight, "Origin": "https://stranger.example"}
    assert (await http.options("/api/rooms", headers=stranger)).status_code == 400
    assert (
        "access-control-allow-origin"
        not in (
            await http.get("/api/variants", headers={"Origin": "https://stranger.example"})
        ).headers
    )
    # Off by default: a preflight is an OPTIONS like any other.
    async with httpx.AsyncClient(base_url=live_server) as plain:
        answer = await plain.options("/api/rooms", headers=preflight)
        assert answer.status_code == 405
        assert "access-control-allow-origin" not in answer.headers
