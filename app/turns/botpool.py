"""Bot decisions off the event loop.

A bot's search spends its whole time budget (`RUMMY_BOT_BUDGET_MS`, 150 ms by default) in
pure Python. In a thread it would hold the GIL and slow every other room's moves, so with
`RUMMY_BOT_PROCESSES` >= 1 (the default) decisions run in worker processes. Each room is
pinned to one worker (by a hash of its id): the expert remembers a hand between its turns
(`bots.memory`), and that memory lives in the process that plays the room. With 0 workers
decisions run in threads (tests, and machines where processes are not wanted).

Views and moves cross the process boundary as JSON, the API's own wire form.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import random
import secrets
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

import rules
from app import logsetup
from app.turns import strategies

T = TypeVar("T")


def _start_worker(budget_ms: float) -> None:
    logsetup.configure_child()  # a strategy's warning logs as the server's lines do
    strategies.set_budget(budget_ms)


def _choose_in_worker(name: str, view_json: str, played: bool) -> str:
    view = rules.SeatView.model_validate_json(view_json)
    rng = random.Random(secrets.randbits(64))
    if played:
        move = strategies.choose_move(name, view, rng)
    else:
        move = strategies.suggest_move(name, view, rng)
    return json.dumps(rules.move_to_json(move))


class BotPool:
    """Where computer seats think: `processes` pinned workers, or threads when 0."""

    def __init__(self, processes: int, budget_ms: float) -> None:
        self.processes = max(0, processes)
        self.budget_ms = budget_ms
        self._workers: list[Executor | None] = [None] * self.processes
        self._rng = random.Random(secrets.randbits(64))
        if not self.processes:
            strategies.set_budget(budget_ms)

    def _worker(self, room_id: str) -> Executor:
        digest = hashlib.blake2b(room_id.encode(), digest_size=4).digest()
        i = int.from_bytes(digest, "big") % self.processes
        worker = self._workers[i]
        if worker is None:
            # spawn, not fork: the server has threads (the database driver's, to_thread's),
            # and a forked child could inherit one of their locks held.
            worker = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.budget_ms,),
            )
            self._workers[i] = worker
        return worker

    async def choose(
        self, room_id: str, name: str, view: rules.SeatView, *, played: bool = True
    ) -> rules.Move:
        """The bot `name`'s move from `view`, computed off the event loop.

        `played=False` asks for a suggestion (a hint): the bot does not remember it as its
        own move, since the seat may play something else."""
        if not self.processes:
            pick = strategies.choose_move if played else strategies.suggest_move
            return await asyncio.to_thread(pick, name, view, self._rng)
        text = await self.run(room_id, _choose_in_worker, name, view.model_dump_json(), played)
        return rules.parse_move(json.loads(text))

    async def run(self, room_id: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` off the event loop, in the room's worker (a module-level function
        and picklable arguments) or in a thread."""
        if not self.processes:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker(room_id), fn, *args)

    def close(self) -> None:
        """Stop the workers (the app's lifespan calls this on shutdown).

        Queued work is dropped; a decision or review already running finishes first (its
        budget or sample count bounds it), so each worker's queues are released before the
        server exits. Not waiting left their semaphores to Python's resource tracker, which
        warned of them as leaked on every shutdown."""
        for worker in self._workers:
            if worker is not None:
                worker.shutdown(wait=True, cancel_futures=True)
        self._workers = [None] * self.processes
