"""The turn timer (API.md v1.1 `turn_seconds`, `turn_deadline`, `seats[i].timeouts`).

The deadline is data, not a task: every commit writes the room's `turn_deadline` with its
compare-and-swap (`with_deadline`), so it is in the database before anyone sees the move,
and a restarted server finds it there. One scheduler per process (`run_timers`) asks the
database every `timer_interval_seconds` for the rooms whose deadline passed (one indexed
query, however many rooms have timers) and plays each overdue turn to its end with the
stand-in's strategy, counting one timeout for the seat. Several processes may find the same
room: a claim in the hub (a Redis SET NX with several processes) lets one of them try, and
the version CAS lets at most one move land whatever happens.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import rules
from app import standin
from app.errors import AppError, StaleVersion
from app.persist.records import Commit, Snapshot

if TYPE_CHECKING:
    from app.service import RoomService

log = logging.getLogger("rummy.timers")

PLAYING = ("draw", "play")
# Rooms read per scan, and overdue turns played at once (each runs a bot off the loop).
DUE_PER_SCAN = 500
PARALLEL_TURNS = 8
# How long a process's claim on an overdue turn keeps the others from trying it: longer
# than a turn takes to play, short enough that a process killed meanwhile delays it little.
CLAIM_SECONDS = 30.0
# A bound on the moves of one timed-out turn (draw, melds, lay-offs, discard).
MAX_TURN_MOVES = 64


def _turn_key(state: rules.GameState) -> tuple[int, int, int, int]:
    return state.match_number, state.hand_number, state.turns_completed, state.turn


def deadline_after(snap: Snapshot, state: rules.GameState, now: datetime) -> datetime | None:
    """When the turn in `state` (reached from `snap`) runs out: None without a timer, between
    hands, while seats are free, and on a computer seat's turn (bots never keep a table
    waiting); the deadline already running while the same seat's turn goes on."""
    if not snap.turn_seconds or state.phase not in PLAYING or snap.is_waiting:
        return None
    if state.turn in snap.bot_seats:
        return None
    same_turn = snap.state.phase in PLAYING and _turn_key(snap.state) == _turn_key(state)
    if same_turn and snap.turn_deadline is not None:
        return snap.turn_deadline
    return now + timedelta(seconds=snap.turn_seconds)


def with_deadline(snap: Snapshot, entry: Commit, now: datetime) -> Commit:
    """`entry` with the deadline of the turn it leaves the room in."""
    deadline = deadline_after(snap, entry.state, now)
    return entry if deadline == entry.turn_deadline else replace(entry, turn_deadline=deadline)


def first_deadline(snap: Snapshot, now: datetime) -> datetime | None:
    """The deadline a join writes should it fill the room (its first turn starts then)."""
    return now + timedelta(seconds=snap.turn_seconds) if snap.turn_seconds else None


async def play_overdue(service: RoomService, room_id: str) -> bool:
    """Play the room's turn if its deadline passed; returns whether this process played it.

    Reads the room as the database has it, so a turn another process already played is
    not played again; of several processes only the claim's winner tries."""
    async with service.hub.lock(room_id):
        try:
            snap = await service.current(room_id)
        except AppError:
            return False  # gone or expired: its deadline goes with it
        deadline = snap.turn_deadline
        if deadline is None or deadline > service.clock():
            return False
        if snap.state.phase not in PLAYING or snap.is_waiting:
            return False
        if not await service.hub.claim(standin.turn_claim("timer", snap), CLAIM_SECONDS):
            return False
        seat = snap.state.turn
        if seat in snap.bot_seats or snap.seats[seat].stand_in:
            # A computer's turn its process did not finish (it stopped): play it, no timeout.
            await service.play_computer_turns(room_id)
            return True
        key = _turn_key(snap.state)
        level = standin.level_of(snap)
        for move_number in range(MAX_TURN_MOVES):
            move, state = await service.bot_turn(room_id, level, snap.state, seat)
            seats = None
            if move_number == 0:  # one timeout per turn, counted with its first move
                seats = tuple(
                    replace(s, timeouts=s.timeouts + 1) if s.seat == seat else s for s in snap.seats
                )
            entry = Commit(
                seat=seat, kind="move", payload=rules.move_to_json(move), state=state, seats=seats
            )
            try:
                await service.commit(snap, entry)
            except StaleVersion:
                # The owner moved first, or another process despite the claim.
                log.info("a timed-out turn lost its compare-and-swap to another writer")
                return move_number > 0
            if move_number == 0:
                log.info("the turn timer played a turn (seat %d)", seat)
            snap = await service.snapshot(room_id)
            if snap.state.phase not in PLAYING or _turn_key(snap.state) != key:
                break
        await service.play_computer_turns(room_id)
        return True


async def fire_due(service: RoomService) -> int:
    """Play every turn whose deadline passed; returns how many this process played."""
    due = await service.store.due_turns(service.clock(), DUE_PER_SCAN)
    if not due:
        return 0
    gate = asyncio.Semaphore(PARALLEL_TURNS)

    async def one(room_id: str) -> bool:
        async with gate:
            try:
                return await play_overdue(service, room_id)
            except Exception:  # one room's failure must not stop the others' timers
                log.exception("playing an overdue turn failed")
                return False

    played = await asyncio.gather(*(one(room) for room in due))
    return sum(played)


async def run_timers(service: RoomService, interval: float) -> None:
    """The process's one scheduler of turn timers."""
    while True:
        await asyncio.sleep(interval)
        try:
            await fire_due(service)
        except Exception:  # the database may be briefly away; try again next round
            log.exception("checking turn deadlines failed")
