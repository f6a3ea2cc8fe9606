"""Helpers shared by the test packages (imported by tests/conftest.py and by tests):
`start_server`/`LiveServer` (a real server in a thread), `Api` (a client of docs/api.md's
routes) and `fixed_deal`/`pack` (complete deal bodies). Import: `from rummytest import Api`.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import httpx

RANKS = "A23456789TJQK"
SUITS = "CDHS"


class LiveServer(str):
    """The base URL of a running server, plus handles to reach inside it."""

    app: Any
    loop: asyncio.AbstractEventLoop
    database_url: str
    _server: Any
    _thread: threading.Thread

    @property
    def ws_url(self) -> str:
        return "ws" + self[len("http") :]

    def set_clock(self, clock: Callable[[], datetime]) -> None:
        """Make the server read time from `clock` (expiry tests)."""
        self.app.state.service.clock = clock

    async def call(self, make: Callable[[], Awaitable[Any]]) -> Any:
        """Run `make()` on the server's event loop (its engine lives there) and await it."""

        async def run() -> Any:
            return await make()

        future = asyncio.run_coroutine_threadsafe(run(), self.loop)
        return await asyncio.wrap_future(future)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)


def start_server(database_url: str, **settings: Any) -> LiveServer:
    """Migrate `database_url` to head and serve the app on a free loopback port."""
    import uvicorn

    from app import migrate
    from app.config import Settings
    from app.db import create_engine
    from app.guards.connections import server_config
    from app.main import create_app

    options: dict[str, Any] = {
        "database_url": database_url,
        "allow_fixed_deals": True,
        "rate_limit_enabled": False,
    }
    options.update(settings)
    app_settings = Settings(**options)
    app = create_app(app_settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    config = server_config(app, app_settings, ws="websockets-sansio", log_level="warning")
    server = uvicorn.Server(config)
    live = LiveServer(f"http://127.0.0.1:{port}")
    live.app, live.database_url, live._server = app, database_url, server
    failure: list[BaseException] = []

    async def main() -> None:
        live.loop = asyncio.get_running_loop()
        engine = create_engine(database_url)
        try:
            await migrate.upgrade(engine)
        finally:
            await engine.dispose()
        await server.serve(sockets=[sock])

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # reported to the test below
            failure.append(exc)
        finally:
            sock.close()

    live._thread = threading.Thread(target=target, name=f"rummy-{port}", daemon=True)
    live._thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if failure or not live._thread.is_alive():
            raise RuntimeError(f"server did not start: {failure!r}")
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start within 60 s")
        time.sleep(0.02)
    return live


class Api:
    """The routes of docs/api.md over real HTTP; every method returns the httpx.Response."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

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


# --- fixed deals --------------------------------------------------------------------------


def pack(variant: str) -> list[str]:
    """Every card of the variant's pack, in a fixed order."""
    import rules

    ruleset = rules.get_variant(variant)
    codes = [rank + suit for suit in SUITS for rank in RANKS] * ruleset.decks
    return codes + ["JK"] * ruleset.jokers


def fixed_deal(
    variant: str,
    players: int,
    hands: list[list[str]] | None = None,
    stock_top: list[str] | None = None,
    discard: list[str] | None = None,
) -> dict[str, Any]:
    """A complete `deal` body: the given cards where asked, the rest of the pack filled in
    pack order (hands first, then one discard if none is given, then the stock)."""
    import rules

    size = rules.get_variant(variant).hand_size[players]
    left = pack(variant)
    wanted = [c for h in hands or [] for c in h] + (stock_top or []) + (discard or [])
    for card in wanted:
        left.remove(card)
    full_hands = []
    for seat in range(players):
        hand = list((hands or [])[seat]) if hands and seat < len(hands) else []
        while len(hand) < size:
            hand.append(left.pop(0))
        full_hands.append(hand)
    if discard is None:
        discard = [left.pop(0)]
    return {"hands": full_hands, "discard": discard, "stock": (stock_top or []) + left}


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


# Debian's Chromium for the browser tests; without the background-networking flags it
# keeps dialling out and is refused by this machine's closed network.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
