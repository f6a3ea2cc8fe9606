"""The server's move path in one process, without sockets: what a move costs the server
besides its transport.

It runs the app's lifespan on a fresh SQLite file (migrated, as `rummy serve` does), opens
`--rooms` local rooms with a fan-out outbox per seat (every seat's view is then built after
every move, as for a room whose seats all have a socket), and plays rounds: each round
chooses one move per room (greedy from the seat view, not timed) and then plays them all
at once with `RoomService.play`, so that the group commit batches them as under load.
Prints the process's CPU time (every thread: the loop, the SQLite writer) per move over
the timed rounds, and the shares of it spent building the rooms' views and collecting
garbage (only while the moves are played: choosing them is not timed).

    .venv/bin/python bench/movepath.py [--rooms 200] [--players 3] [--rounds 15] [--profile]

Compare with `bench/load.py`'s server CPU per move on the same machine: the difference is
the transport (websocket frames in and out, their tasks and system calls). CPU figures
drift with the machine; compare trees in alternating runs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import pstats
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _collector_clock(spent: list[float]) -> Callable[[str, dict[str, Any]], None]:
    """A `gc.callbacks` entry that adds the collector's time (every generation) to
    `spent[0]`."""
    started = [0.0]

    def clock(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.thread_time()
        else:
            spent[0] += time.thread_time() - started[0]

    return clock


def _timed(owner: Any, name: str, spent: list[float]) -> None:
    """Wrap `owner.name` so that the CPU time its thread spends in it adds to `spent[0]`
    (thread time: the writer thread's work meanwhile is not this call's)."""
    inner: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[0] += time.thread_time() - started

    setattr(owner, name, timed)


async def run(args: argparse.Namespace) -> dict[str, float]:
    folder = tempfile.mkdtemp(prefix="movepath-")
    try:
        return await _measure(args, f"sqlite+aiosqlite:///{folder}/rummy.db")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _measure(args: argparse.Namespace, url: str) -> dict[str, float]:
    from app import migrate
    from app.api.fanout import Audience
    from app.api.outbox import Outbox
    from app.config import Settings
    from app.db import create_engine
    from app.main import create_app
    from bots import get_strategy

    engine = create_engine(url)
    await migrate.upgrade(engine)
    await engine.dispose()
    views, collector = [0.0], [0.0]
    _timed(Audience, "_send", views)  # a move's fan-out: each seat's view, made and queued
    gc.callbacks.append(_collector_clock(collector))
    app = create_app(Settings(database_url=url, rate_limit_enabled=False))
    async with app.router.lifespan_context(app):
        service, fanout = app.state.service, app.state.fanout
        rooms = []
        outboxes = []  # held: an audience keeps only what is still referenced
        for _ in range(args.rooms):
            room, _tokens = await service.create(
                variant=args.variant,
                players=args.players,
                mode="local",
                name="bench",
                bots={},
                seed=None,
                deal=None,
            )
            rooms.append(room)
            for seat in range(args.players):
                outbox = Outbox()
                outboxes.append(outbox)
                fanout.join(room, seat, outbox)
        strategy, rng = get_strategy("greedy"), random.Random(args.seed)
        table = _Table(service, rooms, strategy, rng, views, collector)
        for _ in range(3):  # warm: caches, the first commits
            await _play_round(table)
        moves, cpu, in_views, in_collector = await _timed_rounds(args, table)
    return {
        "moves": moves,
        "cpu_us_per_move": cpu / moves * 1e6,
        "views_share": in_views / cpu,
        "collector_share": in_collector / cpu,
    }


@dataclass
class _Table:
    """What a round plays: the rooms, the room service, the players' strategy and its
    random source, and the clocks of the views and of the collector."""

    service: Any
    rooms: list[str]
    strategy: Any
    rng: random.Random
    views: list[float]
    collector: list[float]


async def _timed_rounds(args: argparse.Namespace, table: _Table) -> tuple[int, float, float, float]:
    """`args.rounds` rounds (profiled with `--profile`): the moves, their CPU, the views'
    and the collector's."""
    profile = cProfile.Profile() if args.profile else None
    moves, cpu, in_views, in_collector = 0, 0.0, 0.0, 0.0
    if profile:
        profile.enable()
    for _ in range(args.rounds):
        n, spent, viewing, collecting = await _play_round(table)
        moves, cpu = moves + n, cpu + spent
        in_views, in_collector = in_views + viewing, in_collector + collecting
    if profile:
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
    return moves, cpu, in_views, in_collector


async def _play_round(table: _Table) -> tuple[int, float, float, float]:
    """Play a move in every room; returns the moves and, for the moves alone (not the
    choosing, nor a vote that deals), the CPU, the views' and the collector's."""
    import rules

    service, views, collector = table.service, table.views, table.collector
    todo = []
    for room in table.rooms:
        snap = await service.snapshot(room)
        state = snap.state
        if state.phase not in ("draw", "play"):
            vote = "new_match" if state.phase == "match_over" else "next_hand"
            await service.cast(room, 0, vote, None)
            continue
        view = rules.seat_view(state, state.turn)
        move = table.strategy.choose(view, list(rules.legal_moves(view)), table.rng)
        todo.append(service.play(room, state.turn, move, snap.version))
    started, in_views, in_collector = time.process_time(), views[0], collector[0]
    await asyncio.gather(*todo)
    return (
        len(todo),
        time.process_time() - started,
        views[0] - in_views,
        collector[0] - in_collector,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds (one move a room)")
    parser.add_argument("--seed", type=int, default=1, help="the greedy players' choices")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile summary")
    args = parser.parse_args(argv)
    r = asyncio.run(run(args))
    print(
        f"{args.variant}-{args.players}, {args.rooms} rooms: {r['moves']} moves, "
        f"{r['cpu_us_per_move']:.1f} us of CPU per move, "
        f"{100 * r['views_share']:.0f}% of it in the fan-out (every seat's view), "
        f"{100 * r['collector_share']:.0f}% in the garbage collector"
    )


if __name__ == "__main__":
    main()
