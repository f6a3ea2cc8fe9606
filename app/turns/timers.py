"""The turn timer (docs/api.md v1.1 `turn_seconds`, `turn_deadline`, `seats[i].timeouts`).

The deadline is data, not a task: every commit writes the room's `turn_deadline` with its
compare-and-swap (app/rooms/entries.py `completed`), so it is in the database before
anyone sees the move, and a restarted server finds it there. One scheduler per process
(`TurnTimer.run`) asks the database every `timer_interval_seconds` for the rooms whose
deadline passed (one indexed query, however many rooms have timers) and plays each overdue
turn to its end with the stand-in's strategy, counting one timeout for the seat. Several
processes may find the same room: a claim in the hub (a Redis SET NX with several
processes) lets one of them try, and the version CAS lets at most one move land whatever
happens.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import rules
from app.errors import AppError, StaleVersion
from app.persist.rows import Commit, Snapshot
from app.rooms.entries import PLAYING, turn_key
from app.rooms.port import RoomPort
from app.turns import standin
from app.turns.computer import ComputerTurns

log = logging.getLogger("rummy.timers")

# Rooms read per scan, and overdue turns played at once (each runs a bot off the loop).
DUE_PER_SCAN = 500
PARALLEL_TURNS = 8
# How long a process's claim on an overdue turn keeps the others from trying it: longer
# than a turn takes to play, short enough that a process killed meanwhile delays it little.
CLAIM_SECONDS = 30.0
# A bound on the moves of one timed-out turn (draw, melds, lay-offs, discard).
MAX_TURN_MOVES = 64


class TurnTimer:
    """The process's scheduler of turn timers."""

    def __init__(self, port: RoomPort, computer: ComputerTurns) -> None:
        self.port = port
        self.computer = computer

    async def run(self, interval: float) -> None:
        """Play the overdue turns every `interval` seconds, until cancelled."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.fire_due()
            except Exception:  # the database may be briefly away; try again next round
                log.exception("checking turn deadlines failed")

    async def fire_due(self) -> int:
        """Play every turn whose deadline passed; returns how many this process played."""
        due = await self.port.due_rooms(DUE_PER_SCAN)
        if not due:
            return 0
        gate = asyncio.Semaphore(PARALLEL_TURNS)

        async def one(room_id: str) -> bool:
            async with gate:
                try:
                    return await self.play_overdue(room_id)
                except Exception:  # one room's failure must not stop the others' timers
                    log.exception("playing an overdue turn failed")
                    return False

        played = await asyncio.gather(*(one(room) for room in due))
        return sum(played)

    async def play_overdue(self, room_id: str) -> bool:
        """Play the room's turn if its deadline passed; returns whether this process played
        it. Reads the room as the database has it, so a turn another process already played
        is not played again; of several processes only the claim's winner tries."""
        port = self.port
        async with port.lock(room_id):
            try:
                snap = await port.current(room_id)
            except AppError:
                return False  # gone or expired: its deadline goes with it
            deadline = snap.turn_deadline
            if deadline is None or deadline > port.clock():
                return False
            if snap.state.phase not in PLAYING or snap.is_waiting:
                return False
            if not await port.claim(standin.turn_claim("timer", snap), CLAIM_SECONDS):
                return False
            seat = snap.state.turn
            if seat not in snap.bot_seats and not snap.seats[seat].stand_in:
                after, played = await self._time_out(snap, seat)
                if after is None:
                    return played > 0  # a move lost its compare-and-swap: no more now
                snap = after
            # A computer's turn its process did not finish (it stopped): played, no timeout.
            await self.computer.after_commit(snap)
            return True

    async def _time_out(self, snap: Snapshot, seat: int) -> tuple[Snapshot | None, int]:
        """Play the seat's turn to its end with the stand-in's strategy, counting one
        timeout; returns the room after it (None when a move lost its compare-and-swap)
        and how many moves were played."""
        key = turn_key(snap.state)
        level = standin.level_of(snap)
        for move_number in range(MAX_TURN_MOVES):
            move, state = await self.computer.bot_turn(snap.id, level, snap.state, seat)
            seats = None
            if move_number == 0:  # one timeout per turn, counted with its first move
                seats = tuple(
                    replace(s, timeouts=s.timeouts + 1) if s.seat == seat else s for s in snap.seats
                )
            entry = Commit(
                seat=seat, kind="move", payload=rules.move_to_json(move), state=state, seats=seats
            )
            try:
                snap = await self.port.commit(snap, entry)
            except StaleVersion:
                # The owner moved first, or another process despite the claim.
                log.info("a timed-out turn lost its compare-and-swap to another writer")
                return None, move_number
            if move_number == 0:
                log.info("the turn timer played a turn (seat %d)", seat)
            if snap.state.phase not in PLAYING or turn_key(snap.state) != key:
                return snap, move_number + 1
        return snap, MAX_TURN_MOVES
