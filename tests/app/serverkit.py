"""Helpers of the server tests: response checks, full online rooms and websocket seats."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.rummytest import Api, Socket


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def error_code(response: httpx.Response, status: int) -> str:
    """The error code of a 4xx in docs/api.md's shape, after checking the status."""
    assert response.status_code == status, response.text
    body = response.json()
    # `details` names every invalid field of a 422 (docs/api.md, "Errors").
    assert set(body["error"]) - {"details"} == {"code", "message"}
    assert ("details" in body["error"]) <= (status == 422)
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return str(body["error"]["code"])


async def online_room(api: Api, players: int = 2, **body: Any) -> tuple[str, list[str]]:
    """An online room with every seat taken; returns its id and the tokens by seat."""
    created = ok(await api.create(players=players, mode="online", **body), 201)
    tokens = [created["token"]]
    for i in range(1, players):
        joined = ok(await api.join(created["room"], f"Guest {i}"), 201)
        assert joined["seat"] == i
        tokens.append(joined["token"])
    return created["room"], tokens


async def open_socket(server: str, room: str, token: str) -> AsyncIterator[Socket]:
    url = "ws" + server[len("http") :] + f"/api/rooms/{room}/ws?token={token}"
    async with connect(url) as ws:
        yield Socket(ws)
