"""A room made from a plan rather than from POST /api/rooms: the seats already named and
held (a rematch), or the deals drawn from a given match seed (a challenge).

It writes the room through `RoomService.open`, as `RoomService.create` does, so the move
path cannot tell these rooms from any other.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

import rules
from app.persist import NewSeat
from app.persist.rows import new_snapshot
from app.rooms.service import RoomService


async def open_room(
    service: RoomService,
    *,
    variant: str,
    mode: str,
    seats: list[NewSeat],
    match_seed: bytes,
    limit: int | None = None,
    spectators: bool = True,
    turn_seconds: int | None = None,
    room_id: str | None = None,
) -> str:
    """A new room with every seat as `seats` says (all taken); returns its id."""
    state = rules.new_game(variant, len(seats), seed=match_seed, limit=limit)
    room_id = room_id or secrets.token_urlsafe(9)  # 72 bits, as every room
    now = service.clock()
    # Every seat is taken: the first turn's timer starts now, unless a bot plays it.
    human_first = seats[state.turn].bot is None
    deadline = now + timedelta(seconds=turn_seconds) if turn_seconds and human_first else None
    room = new_snapshot(
        room_id,
        variant=variant,
        players=len(seats),
        mode=mode,
        state=state,
        seats=seats,
        now=now,
        spectators=spectators,
        turn_seconds=turn_seconds,
        turn_deadline=deadline,
    )
    await service.open(room)
    return room_id
