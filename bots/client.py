"""A bot as a websocket client, like any browser: join, receive states, move, vote.

`play(...)` takes a seat (`POST /api/rooms/{room}/join`, or the token in a seat URL
`.../r/<room>#seat=<token>`), opens `/api/rooms/{room}/ws`, sends its token as the first
frame `{"type": "auth", "token": ...}` (so no URL carries it), and answers every `state`
frame: on its turn it sends `{"type": "move", "move": ..., "version": n}`, after a hand it
votes `next_hand`, and it returns when the match is over (or after `max_hands`).
Reconnecting is websockets' own `async for ws in connect(...)` loop, which backs off
between failed attempts; the server sends the current state on every connect, so the bot
resyncs from it and never acts on a stale version twice. A close with 4409 (the server
found the bot too far behind) is reconnected the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from random import Random
from typing import Any, cast
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

import rules
from bots import get_strategy
from bots.strategy import Strategy

log = logging.getLogger("rummy.bot")

KEEPALIVE_SECONDS = 25.0
FATAL_CODES = {"unauthorized", "forbidden", "room_not_found", "room_expired"}
# The same refusals as close codes, and as HTTP statuses of a refused handshake.
FATAL_CLOSE_CODES = {4401, 4403, 4404, 4410}
FATAL_STATUSES = {401, 403, 404, 410}


class SeatLost(RuntimeError):
    """The server refuses this seat for good (bad token, room gone)."""


@dataclass
class Seat:
    server: str  # http(s)://host:port
    room: str
    token: str
    seat: int | None = None


def parse_seat_url(url: str) -> tuple[str, str, str]:
    """(server base, room, token) from `http://host/r/<room>#seat=<token>`.

    >>> parse_seat_url("http://h:8/r/abc#seat=tok")
    ('http://h:8', 'abc', 'tok')
    """
    parts = urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    if len(path) < 2 or path[-2] != "r" or not parts.fragment.startswith("seat="):
        raise ValueError(f"not a seat URL (…/r/<room>#seat=<token>): {url}")
    return f"{parts.scheme}://{parts.netloc}", path[-1], parts.fragment[len("seat=") :]


async def join(server: str, room: str, name: str) -> Seat:
    """Take the lowest free seat of `room`."""
    async with httpx.AsyncClient(base_url=server, timeout=10) as http:
        r = await http.post(f"/api/rooms/{room}/join", json={"name": name})
    if r.status_code != 201:
        raise SeatLost(f"join {room}: {r.status_code} {r.text}")
    data = r.json()
    return Seat(server, data["room"], data["token"], data.get("seat"))


def ws_url(seat: Seat) -> str:
    base = seat.server.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base[len("https://") :]
    elif base.startswith("http://"):
        base = "ws://" + base[len("http://") :]
    return f"{base}/api/rooms/{seat.room}/ws"


def to_view(state: dict[str, Any]) -> rules.SeatView:
    """The rules' SeatView from the server's view (which adds room, version and seats)."""
    fields = rules.SeatView.model_fields
    return rules.SeatView.model_validate({k: v for k, v in state.items() if k in fields})


class BotSession:
    """Decides what to send for each state frame; knows nothing about sockets."""

    def __init__(self, strategy: Strategy, rng: Random, max_hands: int | None = None) -> None:
        self.strategy = strategy
        self.rng = rng
        self.max_hands = max_hands
        self.hands_seen: set[int] = set()
        self._acted_version: int | None = None
        self._voted: tuple[int, int] | None = None
        self.finished = False
        self.last_state: dict[str, Any] | None = None

    def resync(self) -> None:
        """Forget what was sent: the next state frame is the truth."""
        self._acted_version = None

    def on_state(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The frame to send for this state, if any."""
        self.last_state = state
        phase = state.get("phase")
        version = int(state.get("version", 0))
        view = to_view(state)
        observe = getattr(self.strategy, "observe", None)
        if observe is not None:
            observe(view)
        if phase == "match_over":
            self.finished = True
            return None
        if phase == "hand_over":
            self.hands_seen.add(view.hand_number)
            if self.max_hands is not None and len(self.hands_seen) >= self.max_hands:
                self.finished = True
                return None
            votes = state.get("votes") or {}
            if view.seat in (votes.get("next_hand") or ()):
                return None
            if self._voted == (view.hand_number, version):
                return None
            self._voted = (view.hand_number, version)
            return {"type": "vote", "vote": "next_hand"}
        if phase not in ("draw", "play") or view.turn != view.seat:
            return None
        if self._acted_version == version:
            return None  # already answered this state; wait for the next one
        legal = list(rules.legal_moves(view))
        if not legal:
            return None
        move = self.strategy.choose(view, legal, self.rng)
        self._acted_version = version
        return {"type": "move", "move": rules.move_to_json(move), "version": version}


@asynccontextmanager
async def _pinging(ws: Any) -> AsyncIterator[None]:
    """The server closes sockets silent for too long (4408): a bot waiting on a slow human
    pings now and then, as the browser does."""

    async def ping_forever() -> None:
        while True:
            await asyncio.sleep(KEEPALIVE_SECONDS)
            await ws.send(json.dumps({"type": "ping"}))

    task = asyncio.create_task(ping_forever())
    try:
        yield
    finally:
        task.cancel()


async def play(
    seat: Seat,
    strategy: Strategy | str = "expert",
    *,
    seed: int | None = None,
    max_hands: int | None = None,
    max_retries: int = 30,
    on_state: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any] | None:
    """Play `seat` until the match ends (or `max_hands` hands); returns the last state.

    Raises SeatLost when the server refuses the seat for good, ConnectionError after
    `max_retries` connections in a row that failed or closed before a single frame.
    """
    bot = get_strategy(strategy) if isinstance(strategy, str) else strategy
    session = BotSession(bot, Random(seed), max_hands)
    failures = 0

    def retry_or_raise(exc: Exception) -> Exception | None:
        """websockets' `process_exception`: None retries (after its backoff)."""
        nonlocal failures
        if isinstance(exc, InvalidStatus) and exc.response.status_code in FATAL_STATUSES:
            return SeatLost(f"websocket refused: {exc.response.status_code}")
        if not isinstance(exc, (TimeoutError, OSError, InvalidHandshake)):
            return exc
        failures += 1
        if failures > max_retries:
            return ConnectionError(f"gave up after {max_retries} reconnects")
        log.info("connection failed (%s); reconnecting", exc)
        return None

    reconnecting = connect(
        ws_url(seat), open_timeout=10, max_size=2**22, process_exception=retry_or_raise
    )
    # aclosing: leaving the loop (match over, seat lost) closes the socket now, not at GC.
    # (connect.__aiter__ is an async generator; its annotation says only AsyncIterator.)
    connections = cast("AsyncGenerator[ClientConnection]", aiter(reconnecting))
    async with contextlib.aclosing(connections):
        async for ws in connections:
            session.resync()
            try:
                async with _pinging(ws):
                    await ws.send(json.dumps({"type": "auth", "token": seat.token}))
                    async for raw in ws:
                        failures = 0
                        await _answer(ws, session, json.loads(raw), on_state)
                        if session.finished:
                            return session.last_state
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code in FATAL_CLOSE_CODES:
                    raise SeatLost(f"websocket closed: {code}") from exc
                log.info("connection lost (%s); reconnecting", exc)
            failures += 1  # the server closed the socket: the loop opens the next one
            if failures > max_retries:
                raise ConnectionError(f"gave up after {max_retries} reconnects")
    return session.last_state


async def _answer(
    ws: Any,
    session: BotSession,
    frame: dict[str, Any],
    on_state: Callable[[dict[str, Any]], None] | None,
) -> None:
    kind = frame.get("type")
    if kind == "error":
        err = frame.get("error") or {}
        log.info("server error %s: %s", err.get("code"), err.get("message"))
        if err.get("code") in FATAL_CODES:
            raise SeatLost(str(err))
        session.resync()  # the server follows up with the current state
        return
    if kind != "state":
        return
    state = frame["state"]
    if on_state is not None:
        on_state(state)
    reply = session.on_state(state)
    if reply is not None:
        await ws.send(json.dumps(reply))
