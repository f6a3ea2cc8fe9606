"""Stand-ins (API.md v1.1, "Seats that stay alive"): a bot plays a seat whose owner left.

A human seat whose sockets have all closed is away (the hub's `away_since`). Once it has
been away for `away_seconds`, another seat may ask for a stand-in: a bot of the room's
level (`level_of`) then plays that seat's turns from that seat's view only, through the
room service's one move path, until the owner comes back: a socket with the seat's token
opens, or the seat sends a move. The seat, its token, its score and its hand stay the
owner's; a stand-in agrees to the next hand as bots do (`app.service._voters`).

Why a stand-in's start and end are entries of the room's log, each taking a version:
only the compare-and-swap on `rooms.version` orders things across processes. An end
bumps the version, so a stand-in move another process was still choosing can no longer
land: the owner's return ends the stand-in before any further bot move. Inside one process
`RoomService.returning` stops a bot move already queued behind the room's lock.
Of several processes only one even tries a stand-in turn: each turn is claimed in the hub
(`Hub.claim`, a Redis SET NX across processes).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from app.errors import InvalidRequest, SeatPresent, StaleVersion
from app.persist.records import Commit, Snapshot

if TYPE_CHECKING:
    from app.service import RoomService

log = logging.getLogger("rummy.standin")

KIND = "stand_in"  # the log entry of a start ({"stand_in": level}) or an end (null)
LEVELS = ("easy", "medium", "hard")
DEFAULT_LEVEL = "hard"
CLAIM_SECONDS = 30.0  # longer than one bot move takes; a killed claimer delays one turn
MAX_RETRIES = 5  # another process wrote the room meanwhile: decide again on the new room


def level_of(snap: Snapshot) -> str:
    """The room's level: its first computer seat's, when that is a level; else hard."""
    for row in snap.seats:
        if row.bot in LEVELS:
            return row.bot
    return DEFAULT_LEVEL


def _entry(snap: Snapshot, seat: int, level: str | None) -> Commit:
    seats = tuple(replace(s, stand_in=level) if s.seat == seat else s for s in snap.seats)
    return Commit(seat=seat, kind=KIND, payload={"stand_in": level}, state=snap.state, seats=seats)


async def start(service: RoomService, room_id: str, by: int, seat: int) -> None:
    """Let a bot play `seat`, at the request of seat `by`.

    Raises InvalidRequest (its own seat, no such seat, a free or computer seat) and
    SeatPresent (connected, or away for less than `away_seconds`)."""
    if seat == by:
        raise InvalidRequest("a seat cannot ask for a stand-in for itself")
    snap = await service.current(room_id)
    if not 0 <= seat < len(snap.seats):
        raise InvalidRequest(f"seat: this room has seats 0 to {len(snap.seats) - 1}")
    row = snap.seats[seat]
    if row.bot is not None:
        raise InvalidRequest(f"seat {seat} is played by the computer already")
    if not row.taken:
        raise InvalidRequest(f"seat {seat} is free: nobody left it")
    level = level_of(snap)
    async with service.hub.lock(room_id):
        # Presence is checked under the lock: an owner back meanwhile gets no stand-in,
        # and one coming back now waits for this lock and then ends it.
        if await _write(service, room_id, seat, level, _refuse_if_present) is not None:
            log.info("a %s bot stands in for seat %d", level, seat)
        await service.play_computer_turns(room_id)


async def _write(
    service: RoomService,
    room_id: str,
    seat: int,
    level: str | None,
    check: Callable[[RoomService, str, int], Awaitable[None]] | None = None,
) -> Snapshot | None:
    """Start (`level`) or end (None) the seat's stand-in; the caller holds the room's lock.
    Returns the room it was written on, None when the seat was so already. `check` runs
    before each try and may refuse."""
    for attempt in range(MAX_RETRIES + 1):
        snap = await service.snapshot(room_id, fresh=attempt > 0)
        if (snap.seats[seat].stand_in is None) == (level is None):
            return None  # asked twice, or by two seats at once: one stand-in, one end
        if check is not None:
            await check(service, room_id, seat)
        try:
            await service.commit(snap, _entry(snap, seat, level))
        except StaleVersion:
            if attempt == MAX_RETRIES:
                raise
            continue
        return snap
    return None


async def _refuse_if_present(service: RoomService, room_id: str, seat: int) -> None:
    connected, away = await service.presence(room_id)
    since = away.get(seat)
    wait = service.settings.away_seconds
    if seat in connected:
        raise SeatPresent(f"seat {seat} is at the table")
    if since is None:
        # Joined but never connected (as far as the hub knows): away since the room last
        # moved, so a seat that took its place and vanished cannot hold the table for ever.
        since = never_seen_since(await service.snapshot(room_id))
    gone = (service.clock() - since).total_seconds()
    if gone < wait:
        raise SeatPresent(
            f"seat {seat} left {gone:.0f} s ago: a stand-in may start after {wait:g} s"
        )


def never_seen_since(snap: Snapshot) -> datetime:
    """When a seat without any socket ever seen counts as away from: the room's last join,
    move or vote (`active_at`; SQLite gives it back without its time zone, which is UTC)."""
    since = snap.active_at
    return since if since.tzinfo is not None else since.replace(tzinfo=UTC)


async def end(
    service: RoomService, room_id: str, seat: int, version: int | None, *, check: bool = False
) -> int | None:
    """End the stand-in of `seat`, whose owner is back; returns `version` as it stands
    after the end (a move made on the view just before the end is not stale for it).

    `check`: look under the room's lock even when the cached room shows no stand-in (a
    socket opening: a stand-in starting right now must not outlive it). A move takes the
    cheap path; should a stand-in start meanwhile, the move is stale and resent."""
    if not check and not (await service.snapshot(room_id)).seats[seat].stand_in:
        return version
    key = (room_id, seat)
    service.returning.add(key)
    try:
        async with service.hub.lock(room_id):
            snap = await _write(service, room_id, seat, None)
    finally:
        service.returning.discard(key)
    if snap is None:
        return version
    log.info("seat %d is back: its stand-in ended", seat)
    return snap.version + 1 if version == snap.version else version


def turn_claim(kind: str, snap: Snapshot) -> str:
    """The hub key of the turn now played in `snap`: the same for each of its moves, so a
    process that took the turn's first move takes the rest, and another never cuts in."""
    state = snap.state
    return f"{kind}:{snap.id}:{state.match_number}:{state.hand_number}:{state.turns_completed}"


async def may_play(service: RoomService, snap: Snapshot, seat: int) -> bool:
    """Whether this process plays the stand-in's turn of `snap` now: not while its owner is
    coming back, and only the process that claims the turn first."""
    if (snap.id, seat) in service.returning:
        return False
    return await service.hub.claim(turn_claim("stand-in", snap), CLAIM_SECONDS)
