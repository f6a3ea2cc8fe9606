"""Load test: many rooms of websocket bots against a running server, then an audit.

It starts no game server: point it at one or more base URLs on loopback (several URLs spread
each room's seats over them, so a room spans processes). It opens R rooms of 2 to 4 seats,
one websocket bot client per seat (greedy strategy), plays complete hands for a bounded time
and prints:

- moves/s: moves acknowledged by their broadcast state, over the measured window;
- move-to-broadcast p50/p95/p99: from sending a move to the mover receiving the state of the
  version it made ("ack"), and to the last seat of the room receiving it ("fan-out");
- websocket connections held (lowest and highest during the window) and errors by code.

Then it audits every room through REST: every acknowledged move is in the room's log
exactly once at the version it made, versions have no gaps, and every state seen on any
websocket and the final state pass the card-conservation check (the seat's hand, the other
hands' counts, the stock, the discard pile and the melds add up to the deck).

The bots pace themselves (`--rate`, the offered moves/s over all rooms) so the latency is the
server's, not a closed loop's queue. Several client processes (`--procs`) keep the clients'
CPU from being the bottleneck; run them on the other core.

It also counts as problems (and exits 1 on any): server errors (5xx answers, error frames
`unavailable` or `internal_error`, close code 1011, and with `--server-log` the server's log
lines at ERROR or with a traceback), rooms it could not make, sockets that got no state
within `--state-timeout` of their first try, and rooms stalled (no new version for
`--stall-seconds` while a hand is in play).

`--storm` is the connect storm: `--rooms` (2,000) rooms made and connected as fast as the
bench can, no warm-up, then a short play to see that no room stalled; it prints the sockets
that got their state, the time until all had, the server errors and stalled rooms. Run the
server with RUMMY_RATE_LIMIT_ENABLED=false (2,000 creates from one address are above the
default rates), e.g.:

    .venv/bin/rummy serve --port 8000 2> server.log &
    .venv/bin/python bench/load.py --storm --server-log server.log

`--server-pid PID` (repeat for several processes) reads the server's CPU time and resident
memory from /proc during the run and prints its CPU per acknowledged move over the measured
window, its RSS before the rooms and at the window's end, and the growth per room and per
socket (the cost curve: run it at 100, 500 and 2,000 rooms at the same per-room rate). It
also prints that CPU over the clients' own per move: the clients' work per move does not
change with the server's code, so the ratio compares trees measured in different hours of
this machine, whose speed swings by 1.5-2x.

`--floor` also measures, in the same run, the cheapest endpoint that writes one SQLite row
per request (bench/floor_app.py, started here in its own process) and prints our ratio to it.

    .venv/bin/rummy serve --port 8000 &
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --rooms 200 --duration 60 --floor
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic_core import from_json

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from rawhttp import RawHTTP  # noqa: E402

PLAYING = ("draw", "play")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# Error frame codes that are the server's fault, not the bench's.
SERVER_ERROR_CODES = ("unavailable", "internal_error")
# A server log line that is an error: an ERROR level line or a traceback.
SERVER_LOG_ERROR = re.compile(r"^(ERROR\b|Traceback \(most recent call last\))")


# ---------------------------------------------------------------------------------------
# Strategy: bots.get_strategy("greedy") over rules.legal_moves(view)


class Chooser:
    """Turns a wire `state` into the bot's next move (wire JSON), with the greedy strategy."""

    def __init__(self, name: str, seed: int) -> None:
        import rules
        from bots import get_strategy

        self._rules = rules
        self._strategy = get_strategy(name)
        self._rng = random.Random(seed)
        self._fields = set(rules.SeatView.model_fields)

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        rules = self._rules
        view = rules.SeatView.model_validate({k: v for k, v in state.items() if k in self._fields})
        legal = list(rules.legal_moves(view))
        move = self._strategy.choose(view, legal, self._rng)
        wire: dict[str, Any] = rules.move_to_json(move)
        return wire


class LegalChooser:
    """A cheap policy read straight off the view's `legal` (docs/api.md v1.1), so that the clients'
    CPU goes to their sockets rather than to a strategy and the server is what saturates:
    draw from the stock, lay the first meld or lay-off open, else discard the highest card.
    Where that finds nothing (a joker that must be played, say) the greedy `Chooser` decides."""

    def __init__(self, fallback: Chooser, seed: int) -> None:
        import rules

        self._fallback = fallback
        self._rng = random.Random(seed)
        self._rules = rules

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        legal = state.get("legal")
        if not legal or legal.get("must_play") or legal.get("swaps"):
            return self._fallback.choose(state)
        if state["phase"] == "draw":
            sources = legal["draw"]
            return {"type": "draw", "source": "stock" if "stock" in sources else sources[0]}
        if legal["melds"]:
            return {"type": "meld", "melds": [legal["melds"][0]]}
        if legal["layoffs"]:
            first = legal["layoffs"][0]
            return {
                "type": "layoff",
                "meld": first["meld"],
                "cards": [first["card"]],
                "end": first["end"],
            }
        cards = legal["discard"]
        if not cards:
            return self._fallback.choose(state)
        variant = self._rules.get_variant(state["variant"])
        points = {c: variant.points_of(c) for c in cards}
        top = max(points.values())
        return {"type": "discard", "card": self._rng.choice([c for c in cards if points[c] == top])}


def conserved(state: dict[str, Any]) -> int:
    """Cards accounted for in one seat's view; must equal the deck size at every version."""
    others = sum(n for i, n in enumerate(state["hand_counts"]) if i != state["seat"])
    cards: int = (
        len(state["hand"])
        + others
        + state["stock_count"]
        + state["discard_count"]
        + sum(len(m["cards"]) for m in state["melds"])
    )
    return cards


# ---------------------------------------------------------------------------------------
# One client process: its share of the rooms


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


class Child:
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

    # -- setup ---------------------------------------------------------------------------
    async def make_room(self, n: int, players: int) -> Room | None:
        http = RawHTTP(self.urls[n % len(self.urls)])
        try:
            status, body = await http.request(
                "POST",
                "/api/rooms",
                {
                    "variant": self.args.variant,
                    "players": players,
                    "mode": "online",
                    "name": f"load{n}",
                },
            )
            if status != 201:
                self.stats.errors[f"create_{status}"] += 1
                self._not_made(f"load{n}: create answered {status}", status)
                return None
            room_id, tokens = body["room"], [body["token"]]
            for seat in range(1, players):
                status, joined = await http.request(
                    "POST", f"/api/rooms/{room_id}/join", {"name": f"bot{seat}"}
                )
                if status != 201:
                    self.stats.errors[f"join_{status}"] += 1
                    self._not_made(f"{room_id}: join answered {status}", status)
                    return None
                tokens.append(joined["token"])
            # Seat i on URL n + i: with two URLs every room has seats on both processes.
            urls = [self.urls[(n + s) % len(self.urls)] for s in range(players)]
            return Room(room_id, players, self.args.variant, tokens, urls)
        finally:
            await http.close()

    def _not_made(self, text: str, status: int) -> None:
        self.rooms_not_made += 1
        if status >= 500:
            self.stats.server_error("http_5xx", text)
        else:
            self.stats.problem(text)

    # -- play ----------------------------------------------------------------------------
    def think(self) -> float:
        mean = self.args.rooms / self.args.rate if self.args.rate > 0 else 0.0
        return random.uniform(0.5 * mean, 1.5 * mean)

    def in_window(self, t: float) -> bool:
        return self.window_start <= t <= self.window_end

    async def seat_loop(self, room: Room, seat: int) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        url_index = self.urls.index(room.urls[seat])
        self.first_try.setdefault((room.id, seat), time.time())
        last_version = -1
        attempts = 0
        while True:
            base = self.urls[url_index % len(self.urls)]
            parts = urlsplit(base)
            ws_url = f"ws://{parts.netloc}/api/rooms/{room.id}/ws?token={room.tokens[seat]}"
            try:
                async with self.handshakes:
                    try:
                        ws = await connect(ws_url, max_size=2**22, open_timeout=30)
                    except InvalidStatus as refused:
                        # A storm the server cannot serve now (app/guards/handshake.py): wait
                        # what it asks, with jitter, outside the handshake slots.
                        if refused.response.status_code != 503:
                            raise
                        wait = float(refused.response.headers.get("Retry-After", "1"))
                        self.stats.errors["ws_refused_503"] += 1
                        delay = wait * random.uniform(0.5, 1.5)
                        ws = None
                if ws is None:
                    await asyncio.sleep(delay)
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
                if isinstance(exc, ConnectionClosed) and exc.sent and exc.sent.code == 1011:
                    self.stats.problem(f"{room.id} seat {seat}: client error {exc!r}")
                if isinstance(exc, ConnectionClosed) and exc.rcvd and exc.rcvd.code == 1011:
                    self.stats.server_error("close_1011", f"{room.id} seat {seat}: {exc!r}")
                attempts += 1
                self.stats.reconnects += 1
                self.stats.errors[f"ws_{type(exc).__name__}"] += 1
                if attempts > 20:
                    self.stats.problem(f"{room.id} seat {seat}: gave up reconnecting")
                    return
                url_index += 1  # fail over to the next URL
                # Exponential with jitter: retries after a failure must not arrive together.
                await asyncio.sleep(min(0.1 * 2**attempts, 5.0) * random.uniform(0.5, 1.5))

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
                error = msg.get("error", {})
                code = error.get("code", "unknown")
                self.stats.errors[code] += 1
                if code in SERVER_ERROR_CODES:
                    self.stats.server_error(f"frame_{code}", f"{room.id} seat {seat}: {error}")
                else:
                    self.stats.problem(f"{room.id} seat {seat}: {error}")
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
            self._check_state(room, seat, state)
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
                vote = "next_hand" if phase == "hand_over" else "new_match"
                if voted != (state["hand_number"], vote):
                    if seat == 0:
                        self.stats.hands_done += 1
                    voted = (state["hand_number"], vote)
                    await ws.send(json.dumps({"type": "vote", "vote": vote}))

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

    def no_state_seats(self) -> int:
        """Seats that never received a state, or not within `--state-timeout` of trying."""
        late = 0
        for room in self.rooms:
            for seat in range(room.players):
                tried = self.first_try.get((room.id, seat))
                got = self.first_state.get((room.id, seat))
                if got is None or tried is None or got - tried > self.args.state_timeout:
                    late += 1
                    if len(self.stats.problems) < 20:
                        self.stats.problems.append(f"{room.id} seat {seat}: no state in time")
        self.stats.problem_count += late
        return late

    def _check_state(self, room: Room, seat: int, state: dict[str, Any]) -> None:
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

    # -- audit ---------------------------------------------------------------------------
    async def audit(self, room: Room) -> dict[str, int]:
        result = Counter(rooms=1)
        http = RawHTTP(self.urls[0])
        try:
            status, log = await http.request(
                "GET", f"/api/rooms/{room.id}/log", token=room.tokens[0]
            )
            if status != 200:
                result["log_http_error"] += 1
                if status >= 500:
                    self.stats.server_errors["http_5xx"] += 1
                self.stats.problem(f"{room.id}: GET log {status}")
                return result
            entries = log_moves(log)
            versions = [v for v, _, _ in entries if v is not None]
            if versions and versions != sorted(set(versions)):
                result["log_version_order"] += 1
                self.stats.problem(f"{room.id}: log versions repeat or go back")
            for seat in range(room.players):
                status, state = await http.request(
                    "GET", f"/api/rooms/{room.id}/state", token=room.tokens[seat]
                )
                if status != 200:
                    result["state_http_error"] += 1
                    if status >= 500:
                        self.stats.server_error("http_5xx", f"{room.id}: GET state {status}")
                    continue
                self._check_state(room, seat, state)
                if seat == 0:
                    result["versions"] += state["version"]  # moves and votes applied
            by_version: dict[int, list[tuple[int, dict[str, Any]]]] = {}
            for version, seat, move in entries:
                if version is not None:
                    by_version.setdefault(version, []).append((seat, move))
            covered = log_covers(log)
            for sent in room.sent:
                made = sent.version + 1
                matches = [
                    1
                    for seat, move in by_version.get(made, ())
                    if seat == sent.seat and same_move(move, sent.move)
                ]
                if sent.acked and made > covered:
                    # In a hand still being played when the run ended: not in the log yet.
                    result["unfinished"] += 1
                elif sent.acked:
                    result["acked"] += 1
                    if len(matches) == 0:
                        result["lost"] += 1
                        self.stats.problem(
                            f"{room.id}: acked move v{made} seat {sent.seat} not in log"
                        )
                    elif len(matches) > 1:
                        result["duplicated"] += 1
                        self.stats.problem(
                            f"{room.id}: acked move v{made} seat {sent.seat} logged {len(matches)}x"
                        )
                elif len(matches) > 1:
                    result["duplicated"] += 1
            if entries:
                gaps = log_gaps(log)
                if gaps:
                    result["version_gaps"] += gaps
                    self.stats.problem(f"{room.id}: {gaps} version gaps in the log")
            return result
        finally:
            await http.close()

    # -- run -----------------------------------------------------------------------------
    async def run(self, share: list[tuple[int, int]], start_at: float) -> dict[str, Any]:
        # Setup is not measured; a bounded number at a time keeps it from being a stampede.
        # A storm makes its rooms as fast as it can and connects each as soon as it is made.
        gate = asyncio.Semaphore(64 if self.args.storm else 16)

        def launch(room: Room) -> None:
            self.rooms.append(room)
            self.seat_tasks[room.id] = [
                asyncio.create_task(self.seat_loop(room, seat)) for seat in range(room.players)
            ]

        async def make(n: int, players: int) -> Room | None:
            async with gate:
                room = await self.make_room(n, players)
            if room is not None and self.args.storm:
                launch(room)
            return room

        self.window_start = self.window_end = float("inf")
        # Everyone starts together: the parent passes a wall-clock start time.
        if self.args.storm:
            await asyncio.sleep(max(0.0, start_at - time.time()))
            sampler = asyncio.create_task(self.sample_ws())
            await asyncio.gather(*(make(n, p) for n, p in share))
        else:
            made = await asyncio.gather(*(make(n, p) for n, p in share))
            await asyncio.sleep(max(0.0, start_at - time.time()))
            sampler = asyncio.create_task(self.sample_ws())
            for room in made:
                if room is not None:
                    launch(room)
        # The window opens `warmup` seconds after every seat has its state (or the bound).
        seats = sum(room.players for room in self.rooms)
        deadline = time.perf_counter() + max(60.0, self.args.state_timeout)
        while len(self.first_state) < seats and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        self.window_start = time.perf_counter() + self.args.warmup
        self.window_end = self.window_start + self.args.duration
        # No collector while the bots play: this process's collections (20-115 ms, a dozen a
        # run, collecting nothing) held its sockets still, and that counted as the server's
        # latency. What the bots keep (every state they parse) is not garbage, and they make
        # next to no cycles.
        gc.collect()
        gc.freeze()
        gc.disable()
        await asyncio.sleep(self.window_start - time.perf_counter())
        cpu_start = time.process_time()
        await asyncio.sleep(self.window_end - time.perf_counter())
        cpu_window = time.process_time() - cpu_start
        self.stopping = True
        self._end_idle_seats()
        self.finish_deadline = time.perf_counter() + self.args.finish_timeout
        tasks = [task for seats in self.seat_tasks.values() for task in seats]
        await asyncio.wait(tasks, timeout=self.args.finish_timeout + 10)
        gc.enable()
        for task in tasks:
            task.cancel()
        sampler.cancel()
        no_state = self.no_state_seats()
        audit = Counter[str]()
        for i in range(0, len(self.rooms), 20):
            for part in await asyncio.gather(*(self.audit(r) for r in self.rooms[i : i + 20])):
                audit.update(part)
        return {
            "ack_ms": self.stats.ack_ms,
            "fanout_ms": self.stats.fanout_ms,
            "acked_in_window": self.stats.acked_in_window,
            "errors": dict(self.stats.errors),
            "ws_low": self.stats.ws_low or 0,
            "ws_high": self.stats.ws_high,
            "hands_done": self.stats.hands_done,
            "reconnects": self.stats.reconnects,
            "problems": self.stats.problems,
            "problem_count": self.stats.problem_count,
            "audit": dict(audit),
            "rooms": len(self.rooms),
            "seats": sum(r.players for r in self.rooms),
            "server_errors": dict(self.stats.server_errors),
            "no_state": no_state,
            "got_state": len(self.first_state),
            "all_state_at": max(self.first_state.values())
            if self.first_state and len(self.first_state) == seats
            else None,
            "stalled": len(self.stalled),
            "rooms_not_made": self.rooms_not_made,
            "cpu_window": cpu_window,
            # On the wall clock, so the parent can read the server's CPU over the same span.
            "window": [wall(self.window_start), wall(self.window_end)],
        }


def wall(perf: float) -> float:
    """A `time.perf_counter()` instant on the wall clock (`time.time()`)."""
    return time.time() - (time.perf_counter() - perf)


def log_moves(log: Any) -> list[tuple[int | None, int, dict[str, Any]]]:
    """(version made, seat, move) for every move in a room's log, whatever hand it is in."""
    hands = log.get("hands", []) if isinstance(log, dict) else log
    out: list[tuple[int | None, int, dict[str, Any]]] = []
    for hand in hands:
        for entry in hand.get("moves", []):
            out.append((entry.get("version"), entry["seat"], entry["move"]))
    return out


def log_gaps(log: Any) -> int:
    """Versions missing or repeated in the log: its moves and votes, over every finished
    hand, must be exactly 1, 2, ..., n (every accepted move or vote takes one version)."""
    hands = log.get("hands", []) if isinstance(log, dict) else log
    versions = sorted(
        e["version"] for hand in hands for e in (*hand.get("moves", ()), *hand.get("votes", ()))
    )
    missing = len(set(range(1, versions[-1] + 1)) - set(versions)) if versions else 0
    return missing + len(versions) - len(set(versions))


def log_covers(log: Any) -> int:
    """The last version the log holds: it shows finished hands only."""
    hands = log.get("hands", []) if isinstance(log, dict) else log
    return max((hand.get("end_version") or 0 for hand in hands), default=0)


def same_move(logged: dict[str, Any], sent: dict[str, Any]) -> bool:
    if logged.get("type") != sent.get("type"):
        return False
    if sent["type"] == "draw":
        return logged.get("source") == sent.get("source")
    return all(json.dumps(logged.get(k)) == json.dumps(v) for k, v in sent.items() if v is not None)


def child_main(args: argparse.Namespace) -> None:
    share = json.loads(args.child_share)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(Child(args, args.child_index).run(share, args.child_start))
    # To a file, not stdout: the event loop may leave stdout non-blocking, and a big result
    # then loses its tail in a full pipe.
    Path(args.child_out).write_text(json.dumps(result))


# ---------------------------------------------------------------------------------------
# The floor: bench/floor_app.py driven by raw keep-alive connections


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _drive_floor(url: str, conns: int, duration: float) -> tuple[int, list[float], int]:
    lat: list[float] = []
    errors = 0
    done = 0
    end = time.perf_counter() + duration

    async def one(i: int) -> None:
        nonlocal errors, done
        http = RawHTTP(url)
        version = 0
        try:
            while time.perf_counter() < end:
                t = time.perf_counter()
                status, _ = await http.request(
                    "POST",
                    "/write",
                    {
                        "room": f"r{i}",
                        "version": version,
                        "move": {"type": "draw", "source": "stock"},
                    },
                )
                lat.append((time.perf_counter() - t) * 1000)
                if status == 200:
                    done += 1
                    version += 1
                else:
                    errors += 1
        finally:
            await http.close()

    await asyncio.gather(*(one(i) for i in range(conns)))
    return done, lat, errors


def run_floor(conns: int, duration: float) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "bench" / "floor_app.py"),
                "--port",
                str(port),
                "--db",
                os.path.join(tmp, "floor.db"),
            ],
        )
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    time.sleep(0.1)
            done, lat, errors = asyncio.run(_drive_floor(url, conns, duration))
        finally:
            proc.terminate()
            proc.wait(10)
    return {"rate": done / duration, "lat": lat, "errors": errors}


# ---------------------------------------------------------------------------------------
# The parent: spread rooms over client processes, collect, print


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def log_size(path: str | None) -> int:
    """Where the server's log ends now: only lines written during the run are scanned."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def server_log_errors(path: str | None, start: int) -> list[str]:
    """The error lines the server logged since `start`."""
    if not path:
        return []
    with open(path, "rb") as log:
        log.seek(start)
        text = log.read().decode(errors="replace")
    return [line for line in text.splitlines() if SERVER_LOG_ERROR.match(line)]


def _with_descendants(pids: list[int]) -> list[int]:
    """`pids` and every process they started, from /proc (gone ones are skipped)."""
    found: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    todo += [int(child) for child in f.read().split()]
            except OSError:
                continue
    return found


class ServerMeter:
    """Samples the server processes' CPU time and resident memory from /proc, in a thread,
    so the bench can say what each acknowledged move cost the server over its window."""

    def __init__(self, pids: list[int], every: float = 0.25) -> None:
        self.pids = pids
        self.every = every
        # (wall time, CPU s, of which in the kernel: sends, receives, fsyncs; RSS bytes)
        self.samples: list[tuple[float, float, float, int]] = []
        _, self.baseline_cpu, _, self.baseline_rss = self.read()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def read(self) -> tuple[float, float, float, int]:
        """Now: the CPU seconds and RSS of the servers and their child processes (a SQLite
        server's writer is one: app/persist/sqlite_process.py)."""
        cpu = system = 0.0
        rss = 0
        for pid in _with_descendants(self.pids):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    # After the parenthesised name: utime and stime are the 12th and 13th.
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{pid}/status") as f:
                    rss += next(int(x.split()[1]) * 1024 for x in f if x.startswith("VmRSS:"))
            except OSError:
                if pid in self.pids:
                    raise
                continue  # a child that just ended
            cpu += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            system += int(fields[12]) / CLOCK_TICKS
        return time.time(), cpu, system, rss

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.samples.append(self.read())
            except OSError:
                return  # the server is gone: the run reports what it has

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def at(self, when: float) -> tuple[float, float, int]:
        """CPU seconds (all, and the kernel's) and RSS at wall time `when`, from the
        nearest sample."""
        _, cpu, system, rss = min(self.samples, key=lambda s: abs(s[0] - when))
        return cpu, system, rss

    def peak_rss(self) -> int:
        return max((s[3] for s in self.samples), default=self.baseline_rss)


def report_server(
    meter: ServerMeter,
    results: list[dict[str, Any]],
    acked: int,
    summary: dict[str, Any],
    warmup: float,
) -> None:
    """Print the server's CPU per acknowledged move over the window and its memory."""
    start = min(r["window"][0] for r in results)
    end = max(r["window"][1] for r in results)
    # Set-up: from the bench's start until the last seat had its first state (the window
    # opens `warmup` seconds later): creates, joins and connects.
    set_up = meter.at(start - warmup)[0] - meter.baseline_cpu
    cpu0, system0, _ = meter.at(start)
    cpu1, system1, rss_end = meter.at(end)
    cpu = cpu1 - cpu0
    system = system1 - system0
    peak = meter.peak_rss()
    grown = max(0, rss_end - meter.baseline_rss)
    rooms, seats = summary["rooms"], summary["websockets"]
    summary["server"] = {
        "cpu_s": round(cpu, 2),
        "cpu_us_per_move": round(cpu / acked * 1e6, 1) if acked else None,
        "cpu_share": round(cpu / (end - start), 3) if end > start else None,
        "system_us_per_move": round(system / acked * 1e6, 1) if acked else None,
        "setup_ms_per_room": round(set_up / rooms * 1e3, 2) if rooms else None,
        "rss_mb_start": round(meter.baseline_rss / 2**20, 1),
        "rss_mb_end": round(rss_end / 2**20, 1),
        "rss_mb_peak": round(peak / 2**20, 1),
        "kb_per_room": round(grown / 1024 / rooms, 1) if rooms else None,
        "kb_per_socket": round(grown / 1024 / seats, 1) if seats else None,
    }
    s = summary["server"]
    print(
        f"server CPU        {s['cpu_s']} s over the window: {s['cpu_us_per_move']} µs per "
        f"acknowledged move ({s['cpu_share']} of a core), of which {s['system_us_per_move']} "
        "µs in the kernel (socket sends and receives, fsyncs)"
    )
    print(
        f"server set-up     {s['setup_ms_per_room']} ms of CPU per room (create, joins and "
        "every seat's first connect, until the last seat had its state)"
    )
    print(
        f"server memory     RSS {s['rss_mb_start']} MB before the rooms, {s['rss_mb_end']} MB "
        f"at the window's end (peak {s['rss_mb_peak']}): {s['kb_per_room']} kB per room, "
        f"{s['kb_per_socket']} kB per socket"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="Rummy load test: websocket bots + audit.")
    parser.add_argument("--url", action="append", help="server base URL (repeat to spread seats)")
    parser.add_argument("--rooms", type=int, help="rooms (200; with --storm 2,000)")
    parser.add_argument("--players", default="2-4", help="seats per room: N or LO-HI (cycled)")
    parser.add_argument("--variant", default="basic")
    parser.add_argument(
        "--strategy",
        default="legal",
        help="the seats' bot: legal (cheap, from the view's legal; the default) or a strategy",
    )
    parser.add_argument("--duration", type=float, help="measured seconds (60; storm 20)")
    parser.add_argument("--warmup", type=float, help="unmeasured seconds first (3; storm 0)")
    parser.add_argument(
        "--storm", action="store_true", help="make and connect every room at once, no warm-up"
    )
    parser.add_argument(
        "--state-timeout",
        type=float,
        default=30.0,
        help="a socket with no state this long after its first try is a problem",
    )
    parser.add_argument(
        "--stall-seconds",
        type=float,
        default=20.0,
        help="a room in a hand with no new version this long is stalled",
    )
    parser.add_argument("--server-log", help="the server's log file: its errors count")
    parser.add_argument("--rate", type=float, default=600.0, help="offered moves/s, all rooms")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--finish-timeout",
        type=float,
        default=90.0,
        help="after the window, seconds to finish the hands in play (unmeasured)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--floor", action="store_true", help="also measure bench/floor_app.py")
    parser.add_argument("--floor-conns", type=int, default=32)
    parser.add_argument("--floor-duration", type=float, default=10.0)
    parser.add_argument("--json", help="also write the summary here")
    parser.add_argument(
        "--server-pid",
        type=int,
        action="append",
        help="a server process (repeat for several): print its CPU per move and its memory",
    )
    parser.add_argument("--child-index", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-share", help=argparse.SUPPRESS)
    parser.add_argument("--child-start", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.url = args.url or ["http://127.0.0.1:8000"]
    if args.rooms is None:
        args.rooms = 2000 if args.storm else 200
    if args.duration is None:
        args.duration = 20.0 if args.storm else 60.0
    if args.warmup is None:
        args.warmup = 0.0 if args.storm else 3.0
    for url in args.url:
        if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error(f"{url}: load goes to loopback only")
    if args.child_index is not None:
        child_main(args)
        return 0

    lo, _, hi = args.players.partition("-")
    sizes = list(range(int(lo), int(hi or lo) + 1))
    plan = [(n, sizes[n % len(sizes)]) for n in range(args.rooms)]
    procs = max(1, min(args.procs, args.rooms))
    # A storm's rooms are made after the start: the clients only need to be up by then.
    start_at = time.time() + 3.0 + (0 if args.storm else args.rooms / 100)
    log_from = log_size(args.server_log)
    meter = ServerMeter(args.server_pid) if args.server_pid else None
    children = []
    outdir = tempfile.TemporaryDirectory(prefix="rummy-load-")
    for i in range(procs):
        share = plan[i::procs]
        cmd = [
            sys.executable,
            __file__,
            "--child-index",
            str(i),
            "--child-share",
            json.dumps(share),
            "--child-start",
            str(start_at),
            "--variant",
            args.variant,
            "--strategy",
            args.strategy,
            "--duration",
            str(args.duration),
            "--warmup",
            str(args.warmup),
            "--rate",
            str(args.rate),
            "--rooms",
            str(args.rooms),
            "--seed",
            str(args.seed),
            "--finish-timeout",
            str(args.finish_timeout),
            "--state-timeout",
            str(args.state_timeout),
            "--stall-seconds",
            str(args.stall_seconds),
        ]
        if args.storm:
            cmd.append("--storm")
        for url in args.url:
            cmd += ["--url", url]
        cmd += ["--child-out", str(Path(outdir.name) / f"client{i}.json")]
        children.append(subprocess.Popen(cmd))
    results = []
    for i, child in enumerate(children):
        child.wait(timeout=args.warmup + args.duration + args.finish_timeout + 600)
        out = Path(outdir.name) / f"client{i}.json"
        if child.returncode != 0 or not out.exists():
            print(f"client process failed with {child.returncode}", file=sys.stderr)
            return 2
        results.append(json.loads(out.read_text()))
    outdir.cleanup()
    if meter is not None:
        meter.stop()

    ack = [x for r in results for x in r["ack_ms"]]
    fan = [x for r in results for x in r["fanout_ms"]]
    acked = sum(r["acked_in_window"] for r in results)
    errors: Counter[str] = Counter()
    audit: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
        audit.update(r["audit"])
    errors = Counter({k: v for k, v in errors.items() if v})
    rate = acked / args.duration
    summary: dict[str, Any] = {
        "urls": args.url,
        "rooms": sum(r["rooms"] for r in results),
        "websockets": sum(r["seats"] for r in results),
        "duration_s": args.duration,
        "moves_per_s": round(rate, 1),
        "ack_ms": {
            q: round(pct(ack, p), 1) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        },
        "fanout_ms": {
            q: round(pct(fan, p), 1) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        },
        "ws_held_low": sum(r["ws_low"] for r in results),
        "ws_held_high": sum(r["ws_high"] for r in results),
        "hands_completed": sum(r["hands_done"] for r in results),
        "reconnects": sum(r["reconnects"] for r in results),
        "errors": dict(errors),
        "audit": dict(audit),
    }
    print(f"target            {' '.join(args.url)}")
    print(
        f"rooms/websockets  {summary['rooms']} rooms, {summary['websockets']} websockets "
        f"(held {summary['ws_held_low']}..{summary['ws_held_high']} during the window)"
    )
    print(
        f"moves/s           {summary['moves_per_s']} acknowledged over {args.duration:.0f} s "
        f"({acked} moves, {summary['hands_completed']} hands completed)"
    )
    a, f = summary["ack_ms"], summary["fanout_ms"]
    print(f"move->ack ms      p50 {a['p50']}  p95 {a['p95']}  p99 {a['p99']}")
    print(f"move->fan-out ms  p50 {f['p50']}  p95 {f['p95']}  p99 {f['p99']}")
    print(f"errors            {dict(errors) or 0}  (reconnects {summary['reconnects']})")
    lost, dup, gaps = audit.get("lost", 0), audit.get("duplicated", 0), audit.get("version_gaps", 0)
    bad = errors.get("conservation", 0)
    print(
        f"audit             {audit.get('rooms', 0)} rooms, {audit.get('acked', 0)} acked moves: "
        f"{lost} lost, {dup} duplicated, {gaps} version gaps, {bad} conservation failures"
        + (
            f" ({audit['unfinished']} more in hands unfinished at the end, not auditable)"
            if audit.get("unfinished")
            else ""
        )
    )
    print(
        f"applied           {audit.get('versions', 0)} versions in all (moves and votes, "
        "setup and finishing included)"
    )
    server_errors: Counter[str] = Counter()
    for r in results:
        server_errors.update(r["server_errors"])
    log_errors = server_log_errors(args.server_log, log_from)
    if log_errors:
        server_errors["log_lines"] = len(log_errors)
    seats = summary["websockets"]
    got_state = sum(r["got_state"] for r in results)
    no_state = sum(r["no_state"] for r in results)
    stalled = sum(r["stalled"] for r in results)
    not_made = sum(r["rooms_not_made"] for r in results)
    summary.update(
        server_errors=dict(server_errors),
        got_state=got_state,
        no_state=no_state,
        stalled_rooms=stalled,
        rooms_not_made=not_made,
    )
    print(
        f"server errors     {sum(server_errors.values())} {dict(server_errors) or ''}"
        + ("" if args.server_log else "(no --server-log: its lines not scanned)")
    )
    print(
        f"sockets' state    {got_state} of {seats} got a state; {no_state} none within "
        f"{args.state_timeout:g} s of their first try"
    )
    print(f"stalled rooms     {stalled} (no new version for {args.stall_seconds:g} s in a hand)")
    print(f"rooms not made    {not_made}")
    if args.storm:
        last = [r["all_state_at"] for r in results]
        if all(t is not None for t in last) and got_state == seats:
            summary["all_connected_s"] = round(max(last) - start_at, 2)
            print(f"all connected in  {summary['all_connected_s']} s ({seats} sockets had a state)")
        else:
            print("all connected in  never: some sockets got no state")
    if meter is not None:
        report_server(meter, results, acked, summary, args.warmup)
    clients_cpu = sum(r["cpu_window"] for r in results)
    summary["clients_cpu_us_per_move"] = round(clients_cpu / acked * 1e6, 1) if acked else None
    print(
        f"clients CPU       {clients_cpu:.2f} s over the window in {len(results)} processes: "
        f"{summary['clients_cpu_us_per_move']} µs per acknowledged move "
        f"({clients_cpu / args.duration:.3f} of a core, taken from the machine the server runs on)"
    )
    server_us = summary.get("server", {}).get("cpu_us_per_move")
    if server_us and summary["clients_cpu_us_per_move"]:
        # The clients do the same work per move whatever the server's code: the ratio reads
        # the server's cost in units of this hour's machine, which swings by 1.5-2x.
        summary["server_over_clients"] = round(server_us / summary["clients_cpu_us_per_move"], 3)
        print(
            f"server/clients    {summary['server_over_clients']} (server CPU per move over the "
            "clients'; drifts less with the machine than either)"
        )
    for line in log_errors[:5]:
        print(f"  server log: {line}")
    # A room a socket saw go back, a client error, a log that repeats, a server error, a
    # socket left without state, a stalled room: each fails the run.
    problem_count = sum(r["problem_count"] for r in results) + len(log_errors)
    summary["problems"] = problem_count
    print(f"problems          {problem_count}")
    for p in [p for r in results for p in r["problems"]][:10]:
        print(f"  problem: {p}")
    if args.floor:
        floor = run_floor(args.floor_conns, args.floor_duration)
        summary["floor"] = {
            "rate": round(floor["rate"], 1),
            "p50": round(pct(floor["lat"], 0.5), 1),
            "p99": round(pct(floor["lat"], 0.99), 1),
            "errors": floor["errors"],
            "ratio": round(rate / floor["rate"], 3) if floor["rate"] else None,
        }
        fl = summary["floor"]
        print(
            f"floor             {fl['rate']} one-row SQLite writes/s ({args.floor_conns} conns, "
            f"p50 {fl['p50']} ms, p99 {fl['p99']} ms, {fl['errors']} errors)"
        )
        print(f"ratio             {fl['ratio']} of the floor")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))
    failed = lost or dup or gaps or bad or audit.get("log_http_error", 0) or problem_count
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
