"""Clients of a real server: an HTTP client, `Api` (docs/api.md's routes by name) and
websocket seats that keep every frame they receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


@contextlib.asynccontextmanager
async def http_client(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the server at `base_url` (what every client fixture opens)."""
    async with httpx.AsyncClient(base_url=str(base_url), timeout=60) as http:
        yield http


def bearer(token: str | None) -> dict[str, str]:
    """The Authorization header of a seat token (none for None)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


class Api:
    """The routes of docs/api.md over real HTTP; every method returns the httpx.Response."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    auth = staticmethod(bearer)

    async def create(self, **body: Any) -> httpx.Response:
        return await self.http.post("/api/rooms", json=body)

    async def join(self, room: str, name: str = "Guest") -> httpx.Response:
        return await self.http.post(f"/api/rooms/{room}/join", json={"name": name})

    async def summary(self, room: str) -> httpx.Response:
        return await self.http.get(f"/api/rooms/{room}")

    async def state(self, room: str, token: str | None) -> httpx.Response:
        return await self.http.get(f"/api/rooms/{room}/state", headers=self.auth(token))

    async def move(
        self, room: str, token: str | None, move: dict[str, Any], version: int
    ) -> httpx.Response:
        return await self.http.post(
            f"/api/rooms/{room}/moves",
            json={"move": move, "version": version},
            headers=self.auth(token),
        )

    async def vote(self, room: str, token: str | None, vote: str) -> httpx.Response:
        return await self.http.post(
            f"/api/rooms/{room}/votes", json={"vote": vote}, headers=self.auth(token)
        )

    async def log(self, room: str, token: str | None) -> httpx.Response:
        return await self.http.get(f"/api/rooms/{room}/log", headers=self.auth(token))


def _frame_label(frame: dict[str, Any]) -> str:
    """A frame's type, and its version for a state: enough to see what came instead."""
    state = frame.get("state")
    if frame.get("type") == "state" and isinstance(state, dict):
        return f"state v{state.get('version')}"
    return str(frame.get("type"))


class Socket:
    """A websocket client of one seat that keeps every frame it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        async with asyncio.timeout(timeout):  # a hang fails the test instead of stalling it
            raw = await self.ws.recv()
        frame: dict[str, Any] = json.loads(raw)
        self.frames.append(frame)
        return frame

    async def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        """The first frame (from now on) that satisfies `predicate`, within `timeout` s in all.

        A stream of frames that never match fails here, naming them, rather than at the
        suite's hang timeout.
        """
        start = len(self.frames)
        try:
            async with asyncio.timeout(timeout):
                while True:
                    frame = await self.recv(timeout)
                    if predicate(frame):
                        return frame
        except TimeoutError:
            seen = [_frame_label(f) for f in self.frames[start:]]
            raise AssertionError(
                f"no matching frame within {timeout} s; {len(seen)} others came: {seen[-12:]}"
            ) from None

    async def state(self, version: int | None = None) -> dict[str, Any]:
        """The next state frame, or the first at `version` or later."""
        frame = await self.until(
            lambda f: f["type"] == "state" and (version is None or f["state"]["version"] >= version)
        )
        return dict(frame["state"])

    async def send(self, frame: Any) -> None:
        """Send a frame: a JSON value, or a raw text or bytes as it is."""
        await self.ws.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))


class Seat(Socket):
    """A seat's socket that also tells how the server closed it."""

    async def closed(self) -> int | None:
        """Wait for the server to close the socket; its close code (None: no close frame)."""
        try:
            async with asyncio.timeout(30):
                while True:
                    self.frames.append(json.loads(await self.ws.recv()))
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None


@contextlib.asynccontextmanager
async def seat_socket(base: str, room: str, token: str, **options: Any) -> AsyncIterator[Seat]:
    """The websocket of `token`'s seat in `room` on the server at `base` (`options` go to
    websockets' `connect`)."""
    url = "ws" + base[len("http") :] + f"/api/rooms/{room}/ws?token={token}"
    async with connect(url, max_size=None, **options) as ws:
        yield Seat(ws)
