"""Clients for the multi-process tests: REST helpers, a recording websocket seat, a bot."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.kit.tables import Greedy

PLAYING = ("draw", "play")
WAIT = 20.0  # seconds any single expected frame may take; a bound, not a speed assertion


Chooser = Greedy  # the greedy bot's move for a wire `state` (tests/kit/tables.py)


async def create_room(
    url: str, join_urls: list[str], *, variant: str = "basic", seed: int | None = None, **extra: Any
) -> tuple[str, list[str]]:
    """A room made on `url`, its other seats joined through `join_urls` (one per seat)."""
    body: dict[str, Any] = {"variant": variant, "players": len(join_urls) + 1, **extra}
    if seed is not None:
        body["seed"] = seed
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.post(f"{url}/api/rooms", json=body)
        assert r.status_code == 201, r.text
        room, tokens = r.json()["room"], [r.json()["token"]]
        for i, join_url in enumerate(join_urls, start=1):
            r = await http.post(f"{join_url}/api/rooms/{room}/join", json={"name": f"p{i}"})
            assert r.status_code == 201, r.text
            assert r.json()["seat"] == i
            tokens.append(r.json()["token"])
    return room, tokens


async def _seat_get(url: str, room: str, token: str, what: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.get(
            f"{url}/api/rooms/{room}/{what}", headers={"Authorization": f"Bearer {token}"}
        )
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body


async def get_log(url: str, room: str, token: str) -> dict[str, Any]:
    return await _seat_get(url, room, token, "log")


async def get_state(url: str, room: str, token: str) -> dict[str, Any]:
    """The seat's view through `GET /state`."""
    return await _seat_get(url, room, token, "state")


async def get_summary(url: str, room: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=WAIT) as http:
        r = await http.get(f"{url}/api/rooms/{room}")
        assert r.status_code == 200, r.text
        summary: dict[str, Any] = r.json()
        return summary


def ws_url(base: str, room: str, token: str) -> str:
    return base.replace("http://", "ws://") + f"/api/rooms/{room}/ws?token={token}"


class SeatSocket:
    """One seat's websocket; keeps every frame it receives."""

    def __init__(self, ws: ClientConnection, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.states: list[dict[str, Any]] = []
        self.presence: list[list[dict[str, Any]]] = []
        self.errors: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, base: str, room: str, seat: int, token: str) -> SeatSocket:
        return cls(await connect(ws_url(base, room, token), open_timeout=WAIT), seat)

    async def close(self) -> None:
        await self.ws.close()

    async def _frame(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
        if frame["type"] == "state":
            self.states.append(frame["state"])
        elif frame["type"] == "presence":
            self.presence.append(frame["seats"])
        elif frame["type"] == "error":
            self.errors.append(frame["error"])
        return frame

    async def latest(self) -> dict[str, Any]:
        """The first state this socket receives (sent on connect)."""
        while not self.states:
            await self._frame()
        return self.states[-1]

    async def state_at(self, version: int) -> dict[str, Any]:
        """The state of exactly `version`; fails if the socket skips past it."""
        for state in self.states:
            if state["version"] == version:
                return state
        while True:
            frame = await self._frame()
            if frame["type"] == "state":
                got = frame["state"]["version"]
                assert got <= version, f"seat {self.seat} skipped from <{version} to {got}"
                if got == version:
                    return dict(frame["state"])

    async def presence_until(self, check: Any) -> list[dict[str, Any]]:
        """Read frames until a presence frame satisfies `check(seats)`."""
        while True:
            frame = await self._frame()
            if frame["type"] == "presence" and check(frame["seats"]):
                seats: list[dict[str, Any]] = frame["seats"]
                return seats

    async def send_move(self, move: dict[str, Any], version: int) -> None:
        await self.ws.send(json.dumps({"type": "move", "move": move, "version": version}))


@dataclass
class Acked:
    version: int  # the version the move made
    seat: int
    move: dict[str, Any]


@dataclass
class Bot:
    """A free-running greedy seat that reconnects to the next URL when its socket dies.

    A move is acknowledged when this seat receives the state of the version it made, with
    itself as `last_move.seat`.
    """

    urls: list[str]
    room: str
    seat: int
    token: str
    acked: list[Acked] = field(default_factory=list)
    reconnects: int = 0
    final: dict[str, Any] | None = None

    async def run(self, stop_phases: tuple[str, ...] = ("hand_over", "match_over")) -> None:
        chooser = Chooser(seed=self.seat)
        sent: dict[int, dict[str, Any]] = {}
        attempt = 0
        while True:
            url = self.urls[attempt % len(self.urls)]
            try:
                async with connect(ws_url(url, self.room, self.token), open_timeout=5) as ws:
                    fresh = True
                    while True:
                        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                        if frame["type"] == "error":
                            # Our move was refused (one in flight at a time): decide again
                            # from the view that follows.
                            sent.clear()
                            continue
                        if frame["type"] != "state":
                            continue
                        state = frame["state"]
                        version = state["version"]
                        last = state.get("last_move") or {}
                        # A state loaded from the database acknowledges what it contains,
                        # the first one after a reconnect included.
                        if version - 1 in sent and last.get("seat") == self.seat:
                            self.acked.append(Acked(version, self.seat, sent.pop(version - 1)))
                        if fresh:
                            # A move sent on a socket that died may never have arrived.
                            sent.pop(version, None)
                            fresh = False
                        if state["phase"] in stop_phases:
                            self.final = state
                            return
                        if state["phase"] in PLAYING and state["turn"] == self.seat:
                            if version not in sent:
                                move = chooser.choose(state)
                                sent[version] = move
                                await ws.send(
                                    json.dumps({"type": "move", "move": move, "version": version})
                                )
            except (ConnectionClosed, OSError, TimeoutError):
                attempt += 1
                self.reconnects += 1
                if self.reconnects > 50:
                    raise
                await asyncio.sleep(0.2)


def log_entries(log: dict[str, Any]) -> list[tuple[int, int, str, Any]]:
    """(version, seat, "move" | "vote", payload) for every logged entry, in version order."""
    out: list[tuple[int, int, str, Any]] = []
    for hand in log["hands"]:
        out += [(m["version"], m["seat"], "move", m["move"]) for m in hand["moves"]]
        out += [(v["version"], v["seat"], "vote", v["vote"]) for v in hand["votes"]]
    return sorted(out, key=lambda e: e[0])


def same_move(logged: dict[str, Any], sent: dict[str, Any]) -> bool:
    """The logged form may add defaults (e.g. `"end": null`); every sent field must match."""
    return all(logged.get(k) == v for k, v in sent.items() if v is not None)
