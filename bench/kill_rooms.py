"""The kill benches' rooms and seats (bench/killbench.py, bench/hostkill.py,
bench/rolling.py): rooms made over the servers, one websocket bot per seat that plays, votes
and reconnects (to the other server first) whenever its socket dies, a watch for rooms that
stop making progress, and the audit of every acknowledged move against the room's log."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from choosers import Chooser
from roomlog import PLAYING, log_gaps, log_moves, same_move
from servers import Server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

DONE = ("hand_over", "match_over")


@dataclass
class Room:
    id: str
    tokens: list[str]
    top: int = 0  # the newest version any seat saw
    phase: str = ""  # and its phase
    progress_at: float = field(default_factory=time.monotonic)
    longest_pause: float = 0.0
    stalled: str | None = None
    # What each seat last saw: (version, phase, turn, server index, moves awaiting an answer),
    # printed with a stall so that its cause can be told (server or client) afterwards.
    seen: dict[int, tuple[int, str, int, int, int]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)  # seats whose latest view is a hand's end
    # (version made, seat, move) of every move whose mover saw the version it made
    acked: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)  # when each was acknowledged

    def saw(self, version: int, phase: str) -> None:
        if version > self.top:
            self.phase = phase
            now = time.monotonic()
            self.longest_pause = max(self.longest_pause, now - self.progress_at)
            self.top, self.progress_at = version, now


@dataclass
class Run:
    servers: list[Server]
    stopping: bool = False  # no new hands: finish the one in play
    home_after: tuple[float, float] | None = (3.0, 10.0)  # seconds away before going home
    reconnects: int = 0
    # (when a seat's socket was lost, seconds until a new socket of it had its first state)
    returns: list[tuple[float, float]] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)


async def seat_loop(run: Run, room: Room, seat: int, home: int, think: float, seed: int) -> None:
    """One seat's websocket bot: plays its turns, votes for the next hand until the run
    stops, and reconnects (to the other server first) whenever its socket dies."""
    bot = _Seat(run, room, seat, think, Chooser("greedy", seed=seed))
    at = home
    while True:
        server = run.servers[at]
        url = server.url.replace("http://", "ws://") + f"/api/rooms/{room.id}/ws"
        # Away from home: go back a few seconds after home is up again.
        away = run.home_after
        leave_at = None if at == home or not away else time.monotonic() + random.uniform(*away)
        try:
            async with connect(f"{url}?token={room.tokens[seat]}", open_timeout=5) as ws:
                await bot.connected(ws, at, home, leave_at)
            at = home  # left on purpose
        except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
            run.reconnects += 1
            bot.lost_at = bot.lost_at or time.monotonic()
            at = 1 - at
            await asyncio.sleep(random.uniform(0.05, 0.3))


def seat_all(
    run: Run, rooms: list[Room], think: float, home: Callable[[int, int], int]
) -> list[asyncio.Task[None]]:
    """Every seat's bot started: seat s of the i-th room at server `home(i, s)`."""
    return [
        asyncio.create_task(seat_loop(run, room, s, home(i, s), think, i * 8 + s))
        for i, room in enumerate(rooms)
        for s in range(len(room.tokens))
    ]


@dataclass
class _Seat:
    """One seat's bot across its sockets: the moves it awaits an answer to, its vote on the
    socket it has, and since when it has had no socket with a state."""

    run: Run
    room: Room
    seat: int
    think: float
    chooser: Chooser
    sent: dict[int, dict[str, Any]] = field(default_factory=dict)  # version sent on -> move
    voted: int | None = None  # the hand this seat voted after
    fresh: bool = True  # no state yet on this socket
    lost_at: float | None = None

    async def connected(self, ws: Any, at: int, home: int, leave_at: float | None) -> None:
        """Play on `ws` (to server `at`) until it dies or, away from home, it is time to go
        back (home is up and no move awaits an answer)."""
        self.fresh = True
        self.voted = None  # a vote sent on a socket that died may never have arrived
        while True:
            if leave_at is not None and time.monotonic() > leave_at:
                if self.run.servers[home].up_since and not self.sent:
                    return
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            if frame["type"] == "error":
                self.run.refusals[frame["error"]["code"]] += 1
                self.sent.clear()  # refused: decide again on the view that follows
                self.voted = None
            elif frame["type"] == "state":
                await self._on_state(ws, frame["state"], at)

    async def _on_state(self, ws: Any, state: dict[str, Any], at: int) -> None:
        run, room, seat, sent = self.run, self.room, self.seat, self.sent
        version = state["version"]
        if self.lost_at is not None:
            run.returns.append((self.lost_at, time.monotonic() - self.lost_at))
            self.lost_at = None
        room.saw(version, state["phase"])
        room.seen[seat] = (version, state["phase"], state["turn"], at, len(sent))
        last = state.get("last_move") or {}
        if version - 1 in sent and last.get("seat") == seat:
            room.acked.append((version, seat, sent.pop(version - 1)))
            room.acked_at.append(time.monotonic())
        if self.fresh:
            sent.pop(version, None)  # sent on a socket that died: maybe lost
            self.fresh = False
        phase = state["phase"]
        if phase in DONE:
            room.finished.add(seat)
        else:
            room.finished.discard(seat)
        if phase in PLAYING and state["turn"] == seat and version not in sent:
            if self.think:
                await asyncio.sleep(random.uniform(0, 2 * self.think))
            move = self.chooser.choose(state)
            sent[version] = move
            await ws.send(json.dumps({"type": "move", "move": move, "version": version}))
        elif phase in DONE and not run.stopping and self.voted != state["hand_number"]:
            self.voted = state["hand_number"]  # once: every vote's view comes back
            vote = "next_hand" if phase == "hand_over" else "new_match"
            await ws.send(json.dumps({"type": "vote", "vote": vote}))


async def watch_stalls(run: Run, rooms: list[Room], stall: float) -> None:
    began = time.monotonic()
    while True:
        await asyncio.sleep(1.0)
        now = time.monotonic()
        for room in rooms:
            done = run.stopping and len(room.finished) == len(room.tokens)
            if room.stalled is None and not done and now - room.progress_at > stall:
                room.stalled = (
                    f"at {now - began:.0f} s: no progress for {stall:.0f} s at version"
                    f" {room.top} ({room.phase}); seats saw {room.seen};"
                    f" cached: {await cached_versions(run, room)}"
                )


async def cached_versions(run: Run, room: Room) -> list[str]:
    """What each server's cached room says (the public summary reads no database when the
    room is cached), to tell a server that missed news from a client that did."""
    found = []
    async with httpx.AsyncClient(timeout=5) as http:
        for server in run.servers:
            try:
                r = await http.get(f"{server.url}/api/rooms/{room.id}")
                summary = r.json()
                found.append(f"{server.name}: {summary['version']} {summary['status']}")
            except (httpx.HTTPError, ValueError, KeyError):
                found.append(f"{server.name}: down")
    return found


async def until_finished(rooms: list[Room], timeout: float) -> None:
    """Until every seat of every room has seen its hand end, for 3 s in a row (a vote sent
    before the stop may still deal one more hand), or `timeout`."""
    deadline = time.monotonic() + timeout
    since = None
    while time.monotonic() < deadline:
        if all(len(room.finished) == len(room.tokens) for room in rooms):
            since = since or time.monotonic()
            if time.monotonic() - since >= 3.0:
                return
        else:
            since = None
        await asyncio.sleep(0.5)


async def finish(rooms: list[Room], timeout: float) -> None:
    """Until every room's hand in play has ended (`until_finished`); a room whose hand has
    not is stalled."""
    await until_finished(rooms, timeout)
    for room in rooms:
        if room.stalled is None and len(room.finished) < len(room.tokens):
            room.stalled = f"hand not finished at version {room.top} ({room.phase})"


async def create_rooms(urls: list[str], n: int, sizes: list[int]) -> list[Room]:
    """`n` rooms of `sizes` seats (cycled), room i made on `urls[i]` and its seat s joined
    on `urls[i + s]` (cycled), so that with two URLs every room spans both servers."""
    rooms = []
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(n):
            players = sizes[i % len(sizes)]
            r = await http.post(
                urls[i % len(urls)] + "/api/rooms", json={"variant": "basic", "players": players}
            )
            r.raise_for_status()
            room, tokens = r.json()["room"], [r.json()["token"]]
            for seat in range(1, players):
                r = await http.post(
                    f"{urls[(i + seat) % len(urls)]}/api/rooms/{room}/join",
                    json={"name": f"p{seat}"},
                )
                r.raise_for_status()
                tokens.append(r.json()["token"])
            rooms.append(Room(room, tokens))
    return rooms


async def audit(url: str, rooms: list[Room], missing: list[float] | None = None) -> tuple[int, int]:
    """(acknowledged moves missing from the logs, rooms whose log has gaps); each miss is
    printed with what the log holds at its version, and its acknowledgement's time added to
    `missing`."""
    lost = gaps = 0
    async with httpx.AsyncClient(timeout=30) as http:
        for room in rooms:
            r = await http.get(
                f"{url}/api/rooms/{room.id}/log",
                headers={"Authorization": f"Bearer {room.tokens[0]}"},
            )
            r.raise_for_status()
            log = r.json()
            logged = {v: (seat, move) for v, seat, move in log_moves(log)}
            for i, (version, seat, move) in enumerate(room.acked):
                entry = logged.get(version)
                if entry is None or entry[0] != seat or not same_move(entry[1], move):
                    lost += 1
                    if missing is not None:
                        missing.append(room.acked_at[i])
                    print(f"  lost? {room.id} v{version} seat {seat} {move}; log has {entry}")
            gaps += log_gaps(log) > 0
    return lost, gaps
