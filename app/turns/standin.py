"""Stand-ins (docs/api.md v1.1, "Seats that stay alive"): a bot plays a seat whose owner left.

A human seat whose sockets have all closed is away (the hub's `away_since`). Once it has
been away for `away_seconds`, another seat may ask for a stand-in: a bot of the room's
level (`level_of`) then plays that seat's turns from that seat's view only, through the
room service's one move path, until the owner comes back: a socket with the seat's token
opens, or the seat sends a move. The seat, its token, its score and its hand stay the
owner's; a stand-in agrees to the next hand as bots do (`app.rooms.votes.voters`).

Why a stand-in's start and end are entries of the room's log, each taking a version:
only the compare-and-swap on `rooms.version` orders things across processes. An end
bumps the version, so a stand-in move another process was still choosing can no longer
land: the owner's return ends the stand-in before any further bot move (the end is the
owner's, on the move path: `RoomService.play`, `RoomService.owner_back`). Inside one process
`RoomPort.owner_returning` stops a bot move already queued behind the room's lock.
Of several processes only one even tries a stand-in turn: each turn is claimed in the hub
(`Hub.claim`, a Redis SET NX across processes).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from app.errors import InvalidRequest, SeatPresent, StaleVersion
from app.persist.rows import Snapshot
from app.rooms.port import RoomPort, TurnSteps, stand_in_entry
from bots import LEVELS

log = logging.getLogger("rummy.standin")

DEFAULT_LEVEL = "hard"
CLAIM_SECONDS = 30.0  # longer than one bot move takes; a killed claimer delays one turn
MAX_RETRIES = 5  # another process wrote the room meanwhile: decide again on the new room


def level_of(snap: Snapshot) -> str:
    """The room's level: its first computer seat's, when that is a level; else hard."""
    for row in snap.seats:
        if row.bot in LEVELS:
            return row.bot
    return DEFAULT_LEVEL


async def start(port: RoomPort, steps: TurnSteps, room_id: str, by: int, seat: int) -> None:
    """Let a bot play `seat`, at the request of seat `by`; then play the turns now due.

    Raises InvalidRequest (its own seat, no such seat, a free or computer seat) and
    SeatPresent (connected, or away for less than `away_seconds`)."""
    if seat == by:
        raise InvalidRequest("a seat cannot ask for a stand-in for itself")
    snap = await port.current(room_id)
    if not 0 <= seat < len(snap.seats):
        raise InvalidRequest(f"seat: this room has seats 0 to {len(snap.seats) - 1}")
    row = snap.seats[seat]
    if row.bot is not None:
        raise InvalidRequest(f"seat {seat} is played by the computer already")
    if not row.taken:
        raise InvalidRequest(f"seat {seat} is free: nobody left it")
    level = level_of(snap)
    async with port.lock(room_id):
        # Presence is checked under the lock: an owner back meanwhile gets no stand-in,
        # and one coming back now waits for this lock and then ends it.
        await steps.after_commit(await _write(port, room_id, seat, level))


async def _write(port: RoomPort, room_id: str, seat: int, level: str) -> Snapshot:
    """Start the seat's stand-in (the caller holds the room's lock); returns the room after
    it, or as it was when the seat had one already (asked twice, or by two seats at once)."""
    for attempt in range(MAX_RETRIES + 1):
        snap = await port.snapshot(room_id, fresh=attempt > 0)
        if snap.seats[seat].stand_in is not None:
            return snap
        await _refuse_if_present(port, room_id, seat)
        try:
            after = await port.commit(snap, stand_in_entry(snap, seat, level))
        except StaleVersion:
            if attempt == MAX_RETRIES:
                raise
            continue
        log.info("a %s bot stands in for seat %d", level, seat)
        return after
    raise AssertionError("unreachable")


async def _refuse_if_present(port: RoomPort, room_id: str, seat: int) -> None:
    connected, away = await port.presence(room_id)
    since = away.get(seat)
    wait = port.settings.away_seconds
    if seat in connected:
        raise SeatPresent(f"seat {seat} is at the table")
    if since is None:
        # Joined but never connected (as far as the hub knows): away since the room last
        # moved, so a seat that took its place and vanished cannot hold the table for ever.
        since = never_seen_since(await port.snapshot(room_id))
    gone = (port.clock() - since).total_seconds()
    if gone < wait:
        raise SeatPresent(
            f"seat {seat} left {gone:.0f} s ago: a stand-in may start after {wait:g} s"
        )


def never_seen_since(snap: Snapshot) -> datetime:
    """When a seat without any socket ever seen counts as away from: the room's last join,
    move or vote (`active_at`; SQLite gives it back without its time zone, which is UTC)."""
    since = snap.active_at
    return since if since.tzinfo is not None else since.replace(tzinfo=UTC)


def turn_claim(kind: str, snap: Snapshot) -> str:
    """The hub key of the turn now played in `snap`: the same for each of its moves, so a
    process that took the turn's first move takes the rest, and another never cuts in."""
    state = snap.state
    return f"{kind}:{snap.id}:{state.match_number}:{state.hand_number}:{state.turns_completed}"


async def may_play(port: RoomPort, snap: Snapshot, seat: int) -> bool:
    """Whether this process plays the stand-in's turn of `snap` now: not while its owner is
    coming back, and only the process that claims the turn first."""
    if port.owner_returning(snap.id, seat):
        return False
    return await port.claim(turn_claim("stand-in", snap), CLAIM_SECONDS)
