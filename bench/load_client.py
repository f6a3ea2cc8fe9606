"""One load client process: makes its share of the rooms, starts their seats' bots
(bench/load_seats.py) together with the other processes, measures over the window, lets the
hands in play finish, audits its rooms (bench/load_audit.py) and writes what it counted to a
file for the parent (bench/load.py)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from load_audit import audit_room
from load_seats import Room, Seats
from rawhttp import RawHTTP


class Child(Seats):
    """A client process's share of the rooms, from their making to their audit."""

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

    # -- run -----------------------------------------------------------------------------
    async def run(self, share: list[tuple[int, int]], start_at: float) -> dict[str, Any]:
        self.window_start = self.window_end = float("inf")
        sampler = await self._start_seats(share, start_at)
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
            for part in await asyncio.gather(
                *(audit_room(self, r) for r in self.rooms[i : i + 20])
            ):
                audit.update(part)
        return self._results(audit, no_state, cpu_window, seats)

    async def _start_seats(
        self, share: list[tuple[int, int]], start_at: float
    ) -> asyncio.Task[None]:
        """Make the rooms of `share` and start their seats at `start_at` (wall clock: every
        client process starts together); the sampler of open sockets, started."""
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
        return sampler

    def _results(
        self, audit: Counter[str], no_state: int, cpu_window: float, seats: int
    ) -> dict[str, Any]:
        """What this process counted, for the parent."""
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
