"""One load client process's seats: the rooms it plays and what it counts, and each seat's
websocket bot, which connects (and fails over to the next URL), plays its turns after a
think time drawn for the offered rate, votes for the next hand, and times every move from
its send to the state that acknowledges it and to the last seat's copy of that state."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from choosers import Chooser, LegalChooser
from pydantic_core import from_json
from roomlog import PLAYING, conserved

# Error frame codes that are the server's fault, not the bench's.
SERVER_ERROR_CODES = ("unavailable", "internal_error")


@dataclass
class Sent:
    room: str
    seat: int
    version: int  # the version the move was sent against; it makes version + 1
    move: dict[str, Any]
    t: float
    acked: bool = False


@dataclass
class Room:
    id: str
    players: int
    variant: str
    tokens: list[str]
    urls: list[str]
    sent: list[Sent] = field(default_factory=list)
    by_version: dict[int, Sent] = field(default_factory=dict)  # in flight, by sent version
    seen: dict[int, int] = field(default_factory=dict)  # version -> seats that received it
    deck: int | None = None


@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)
    fanout_ms: list[float] = field(default_factory=list)
    acked_in_window: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    open_ws: int = 0
    ws_low: int | None = None
    ws_high: int = 0
    hands_done: int = 0
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)  # the first 20, to print
    problem_count: int = 0
    server_errors: Counter[str] = field(default_factory=Counter)

    def server_error(self, what: str, text: str) -> None:
        self.server_errors[what] += 1
        self.problem(text)

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < 20:
            self.problems.append(text)


class Seats:
    """The seats of one client process and what they count; `Child` (bench/load_client.py)
    adds making the rooms, the run's timeline and the audit."""

    def __init__(self, args: argparse.Namespace, index: int) -> None:
        self.args = args
        self.index = index
        self.urls: list[str] = args.url
        self.stats = Stats()
        self.rooms: list[Room] = []
        self.window_start = 0.0
        self.window_end = 0.0
        self.connected: set[tuple[str, int]] = set()
        # Websocket opens in flight at once (a storm opens as many as the bench can).
        self.handshakes = asyncio.Semaphore(512 if args.storm else 32)
        # Per seat: when it first tried to connect and first received a state (wall clock,
        # so the parent can compare the client processes).
        self.first_try: dict[tuple[str, int], float] = {}
        self.first_state: dict[tuple[str, int], float] = {}
        # Per room: the newest version any seat saw, when, and the phase it showed.
        self.progress: dict[str, tuple[int, float, str]] = {}
        self.stalled: set[str] = set()
        self.rooms_not_made = 0
        self.seat_tasks: dict[str, list[asyncio.Task[None]]] = {}
        self.stopping = False
        self.finish_deadline = 0.0
        seed = args.seed * 1000 + index
        chooser = Chooser("greedy" if args.strategy == "legal" else args.strategy, seed=seed)
        self.chooser: Chooser | LegalChooser = (
            LegalChooser(chooser, seed) if args.strategy == "legal" else chooser
        )

    # -- play ----------------------------------------------------------------------------
    def think(self) -> float:
        mean = self.args.rooms / self.args.rate if self.args.rate > 0 else 0.0
        return random.uniform(0.5 * mean, 1.5 * mean)

    def in_window(self, t: float) -> bool:
        return self.window_start <= t <= self.window_end

    async def seat_loop(self, room: Room, seat: int) -> None:
        from websockets.exceptions import ConnectionClosed

        url_index = self.urls.index(room.urls[seat])
        self.first_try.setdefault((room.id, seat), time.time())
        last_version = -1
        attempts = 0
        while True:
            base = self.urls[url_index % len(self.urls)]
            parts = urlsplit(base)
            ws_url = f"ws://{parts.netloc}/api/rooms/{room.id}/ws?token={room.tokens[seat]}"
            try:
                ws = await self._open(ws_url)
                if isinstance(ws, float):
                    await asyncio.sleep(ws)
                    continue
                async with ws:
                    attempts = 0
                    self.stats.open_ws += 1
                    self.connected.add((room.id, seat))
                    self.stats.ws_high = max(self.stats.ws_high, self.stats.open_ws)
                    try:
                        last_version = await self._play(ws, room, seat, last_version)
                        return
                    except Exception as exc:
                        if isinstance(exc, ConnectionClosed | OSError | TimeoutError):
                            raise
                        # A bench bug: count it, say where, and keep the other seats going.
                        self.stats.errors[f"client_{type(exc).__name__}"] += 1
                        self.stats.problem(f"{room.id} seat {seat}: {exc!r}")
                        return
                    finally:
                        self.stats.open_ws -= 1
            except (TimeoutError, ConnectionClosed, OSError) as exc:
                if self.stopping:
                    return
                attempts += 1
                if not self._dropped(room, seat, exc, attempts):
                    return
                url_index += 1  # fail over to the next URL
                # Exponential with jitter: retries after a failure must not arrive together.
                await asyncio.sleep(min(0.1 * 2**attempts, 5.0) * random.uniform(0.5, 1.5))

    async def _open(self, ws_url: str) -> Any:
        """A websocket to `ws_url`, or the seconds to wait before trying again when the
        server refused it with 503."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        async with self.handshakes:
            try:
                return await connect(ws_url, max_size=2**22, open_timeout=30)
            except InvalidStatus as refused:
                # A storm the server cannot serve now (app/guards/handshake.py): wait what
                # it asks, with jitter, outside the handshake slots.
                if refused.response.status_code != 503:
                    raise
                wait = float(refused.response.headers.get("Retry-After", "1"))
                self.stats.errors["ws_refused_503"] += 1
                return wait * random.uniform(0.5, 1.5)

    def _dropped(self, room: Room, seat: int, exc: Exception, attempts: int) -> bool:
        """Count a socket lost or not opened; False once the seat has tried too often."""
        from websockets.exceptions import ConnectionClosed

        if isinstance(exc, ConnectionClosed) and exc.sent and exc.sent.code == 1011:
            self.stats.problem(f"{room.id} seat {seat}: client error {exc!r}")
        if isinstance(exc, ConnectionClosed) and exc.rcvd and exc.rcvd.code == 1011:
            self.stats.server_error("close_1011", f"{room.id} seat {seat}: {exc!r}")
        self.stats.reconnects += 1
        self.stats.errors[f"ws_{type(exc).__name__}"] += 1
        if attempts > 20:
            self.stats.problem(f"{room.id} seat {seat}: gave up reconnecting")
            return False
        return True

    async def _play(self, ws: Any, room: Room, seat: int, last_version: int) -> int:
        """Play this seat until the run ends; then finish the current hand (no think time,
        no votes) so that the log, which holds finished hands, covers every move made."""
        pending: asyncio.Task[None] | None = None
        moved_at = -1
        voted: tuple[int, str] | None = None
        phase = "waiting"
        while True:
            if self.stopping and phase not in PLAYING and phase != "waiting":
                return last_version
            if self.stopping and time.perf_counter() > self.finish_deadline:
                return last_version
            try:
                if self.stopping:
                    # Short waits once the run ends, to notice the finish deadline.
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                else:
                    # No timer while playing: a wait_for is a task per frame, and the
                    # clients' CPU comes off the server's on a two-core machine. A room in
                    # play sends a frame after every move; the stop ends the seats of the
                    # rooms that have none to send (`_end_idle_seats`).
                    raw = await ws.recv()
            except TimeoutError:
                continue
            now = time.perf_counter()
            msg = from_json(raw)
            kind = msg.get("type")
            if kind == "error":
                self._count_error(room, seat, msg.get("error", {}))
                moved_at = -1  # the resync view that follows may ask for this move again
                continue
            if kind != "state":
                continue
            state = msg["state"]
            version = state["version"]
            if version < last_version:
                self.stats.problem(
                    f"{room.id} seat {seat}: version went back {last_version}->{version}"
                )
            last_version = max(last_version, version)
            self.first_state.setdefault((room.id, seat), time.time())
            self._note_progress(room.id, state, now)
            self.check_state(room, seat, state)
            self._note_broadcast(room, seat, state, now)
            phase = state["phase"]
            if phase in PLAYING:
                # One move per version on one socket: a repeated view of a version already
                # answered (an error's resync) must not send a second move for it.
                if (
                    state["turn"] == seat
                    and version > moved_at
                    and (pending is None or pending.done())
                ):
                    moved_at = version
                    pending = asyncio.create_task(self._move_after_think(ws, room, seat, state))
            elif self.stopping:
                continue  # the hand is over: returns at the top
            elif phase in ("hand_over", "match_over"):
                voted = await self._vote(ws, seat, state, voted)

    def _count_error(self, room: Room, seat: int, error: dict[str, Any]) -> None:
        code = error.get("code", "unknown")
        self.stats.errors[code] += 1
        if code in SERVER_ERROR_CODES:
            self.stats.server_error(f"frame_{code}", f"{room.id} seat {seat}: {error}")
        else:
            self.stats.problem(f"{room.id} seat {seat}: {error}")

    async def _vote(
        self, ws: Any, seat: int, state: dict[str, Any], voted: tuple[int, str] | None
    ) -> tuple[int, str] | None:
        """At a hand's or match's end: vote for the next one, once per hand; what was voted."""
        vote = "next_hand" if state["phase"] == "hand_over" else "new_match"
        if voted == (state["hand_number"], vote):
            return voted
        if seat == 0:
            self.stats.hands_done += 1
        await ws.send(json.dumps({"type": "vote", "vote": vote}))
        return (state["hand_number"], vote)

    async def _move_after_think(
        self, ws: Any, room: Room, seat: int, state: dict[str, Any]
    ) -> None:
        if not self.stopping:
            await asyncio.sleep(self.think())
        try:
            move = self.chooser.choose(state)
        except Exception as exc:  # a bot bug must not stop the load
            self.stats.errors[f"bot_{type(exc).__name__}"] += 1
            return
        version = state["version"]
        sent = Sent(room.id, seat, version, move, time.perf_counter())
        room.sent.append(sent)
        room.by_version[version] = sent
        try:
            await ws.send(json.dumps({"type": "move", "move": move, "version": version}))
        except Exception:
            pass  # the socket died; the seat's loop reconnects and decides again

    def _note_progress(self, room_id: str, state: dict[str, Any], now: float) -> None:
        seen = self.progress.get(room_id)
        if seen is None or state["version"] > seen[0]:
            self.progress[room_id] = (state["version"], now, state["phase"])

    def _end_idle_seats(self) -> None:
        """At the stop: end the seats of the rooms between hands. They wait for a frame
        without a timer (`_play`) and their room sends none now that nobody votes."""
        for room_id, seats in self.seat_tasks.items():
            seen = self.progress.get(room_id)
            if seen is None or seen[2] not in PLAYING:
                for task in seats:
                    task.cancel()

    def find_stalls(self, now: float) -> None:
        """Rooms in a hand whose version has not moved for `--stall-seconds`: a room whose
        sockets wait for a move that never comes."""
        bound = self.args.stall_seconds
        for room_id, (version, since, phase) in self.progress.items():
            if phase in PLAYING and now - since > bound and room_id not in self.stalled:
                self.stalled.add(room_id)
                self.stats.problem(f"{room_id}: stalled at v{version} for more than {bound:g} s")

    def check_state(self, room: Room, seat: int, state: dict[str, Any]) -> None:
        total = conserved(state)
        if room.deck is None:
            import rules

            room.deck = rules.get_variant(state["variant"]).deck_size
        if total != room.deck:
            self.stats.errors["conservation"] += 1
            self.stats.problem(
                f"{room.id} v{state['version']} seat {seat}: {total} cards, deck {room.deck}"
            )

    def _note_broadcast(self, room: Room, seat: int, state: dict[str, Any], now: float) -> None:
        version = state["version"]
        sent = room.by_version.get(version - 1)
        if sent is None:
            return
        last = state.get("last_move") or {}
        if last.get("seat") != sent.seat:
            # Another change took that version: our move was not applied (an error frame
            # says why). It must not appear in the log at version + 1.
            room.by_version.pop(version - 1, None)
            return
        ms = (now - sent.t) * 1000
        if seat == sent.seat:
            sent.acked = True
            if self.in_window(sent.t):
                self.stats.ack_ms.append(ms)
                self.stats.acked_in_window += 1
        count = room.seen.get(version, 0) + 1
        room.seen[version] = count
        if count == room.players:
            room.seen.pop(version, None)
            room.by_version.pop(version - 1, None)
            if self.in_window(sent.t):
                self.stats.fanout_ms.append(ms)

    async def sample_ws(self) -> None:
        while not self.stopping:
            await asyncio.sleep(0.5)
            if not self.stopping:
                self.find_stalls(time.perf_counter())
            if self.in_window(time.perf_counter()):
                low = self.stats.ws_low
                self.stats.ws_low = (
                    self.stats.open_ws if low is None else min(low, self.stats.open_ws)
                )
