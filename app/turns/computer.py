"""The computer's turns: a bot's seat, or a stand-in's while its owner is away, played right
after the commit that made them due (`after_commit`, the move path's step after each
commit), or soon when news or a restart finds one due (`wake`). Each move is chosen from
that seat's view only, off the event loop (app/turns/botpool.py), and committed through the
room service's port like any other."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets

import rules
from app.errors import StaleVersion
from app.metrics import M
from app.persist.rows import Commit, Snapshot
from app.rooms.entries import PLAYING
from app.rooms.port import RoomPort
from app.turns import standin, strategies
from app.turns.botpool import BotPool

log = logging.getLogger("rummy.computer")

# A bound on consecutive bot turns in one go, so a rules bug cannot spin forever.
MAX_BOT_TURNS = 2000


def bot_to_move(snap: Snapshot) -> int | None:
    """The seat a computer plays now: a bot's, or a stand-in's (app/turns/standin.py)."""
    # Read straight from the state (the seat view shows the same phase and turn): this
    # runs after every move.
    state = snap.state
    if state.phase not in PLAYING or snap.is_waiting:
        return None
    if state.turn in snap.bot_seats or snap.seats[state.turn].stand_in:
        return state.turn
    return None


class ComputerTurns:
    """The move path's step after each commit (`app.rooms.port.TurnSteps`)."""

    def __init__(self, port: RoomPort, pool: BotPool) -> None:
        self.port = port
        self.pool = pool
        self._rng = random.Random(secrets.randbits(64))
        self._tasks: set[asyncio.Task[None]] = set()

    async def after_commit(self, snap: Snapshot) -> Snapshot:
        """Play every consecutive computer turn now due, each as its own committed move (the
        room's lock is held); returns the room after them."""
        for _ in range(MAX_BOT_TURNS):
            seat = bot_to_move(snap)
            if seat is None:
                break
            name = snap.bot_seats.get(seat)
            if name is None:  # a stand-in: only while its owner is away, one process only
                if not await standin.may_play(self.port, snap, seat):
                    break
                name = snap.stand_ins[seat]
            move, state = await self.bot_turn(snap.id, name, snap.state, seat)
            entry = Commit(seat=seat, kind="move", payload=rules.move_to_json(move), state=state)
            try:
                snap = await self.port.commit(snap, entry)
            except StaleVersion:
                # Another process played this turn (the claim keeps stand-ins from this).
                log.info("a computer turn lost its compare-and-swap to another writer")
                return await self.port.snapshot(snap.id)
        return snap

    async def bot_turn(
        self, room_id: str, name: str, state: rules.GameState, seat: int
    ) -> tuple[rules.Move, rules.GameState]:
        """The move bot `name` makes for `seat`, chosen from that seat's view only and off
        the event loop, and the state after it: a computer seat, a stand-in and the turn
        timer all play through here."""
        view = rules.seat_view(state, seat)
        with M.bot_seconds[name].time():
            move = await self.pool.choose(room_id, name, view)
        try:
            return move, rules.apply(state, seat, move)
        except rules.IllegalMove:
            log.warning("bot %s chose an illegal move; playing the fallback", name)
            move = strategies.fallback_move(view, self._rng)
            return move, rules.apply(state, seat, move)

    def wake(self, snap: Snapshot) -> None:
        """If a bot is to move (say after a restart cut its turn short), play it soon."""
        if bot_to_move(snap) is None:
            return
        task = asyncio.create_task(self._play_due(snap.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play_due(self, room_id: str) -> None:
        async with self.port.lock(room_id):
            await self.after_commit(await self.port.snapshot(room_id))
