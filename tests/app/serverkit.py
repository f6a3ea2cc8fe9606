"""Helpers of the server tests: response checks, full online rooms and websocket seats."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
from rummytest import Api
from websockets.asyncio.client import ClientConnection, connect


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def error_code(response: httpx.Response, status: int) -> str:
    """The error code of a 4xx in API.md's shape, after checking the status."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body["error"]) == {"code", "message"}
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


class Socket:
    """A websocket client of one seat that keeps every frame it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []

    async def recv(self) -> dict[str, Any]:
        async with asyncio.timeout(30):  # a hang fails the test instead of stalling it
            frame: dict[str, Any] = json.loads(await self.ws.recv())
        self.frames.append(frame)
        return frame

    async def until(self, predicate: Any) -> dict[str, Any]:
        """The first frame (from now on) that satisfies `predicate`."""
        while True:
            frame = await self.recv()
            if predicate(frame):
                return frame

    async def state(self, version: int | None = None) -> dict[str, Any]:
        """The next state frame, or the first at `version` or later."""
        frame = await self.until(
            lambda f: f["type"] == "state" and (version is None or f["state"]["version"] >= version)
        )
        return dict(frame["state"])

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))


async def open_socket(server: str, room: str, token: str) -> AsyncIterator[Socket]:
    url = "ws" + server[len("http") :] + f"/api/rooms/{room}/ws?token={token}"
    async with connect(url) as ws:
        yield Socket(ws)
