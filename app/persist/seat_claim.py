"""A join's writes, defined once: the room's free seats, the claim of one, the room made
active, and the first turn's timer started when that claim filled the room.

`sql.SqlStore.take_seat` runs them through the engine, each claim its own conditional
UPDATE (a claim another process won first matches no row); SQLite's writer process runs
their text (app/persist/sqlite_setup.py) under its write lock. Both bind `params`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select, update

from app.models import Room, Seat

_FREE = (Seat.room_id == bindparam("room"), Seat.token_hash.is_(None), Seat.bot.is_(None))

# The room's free seats, lowest first.
FREE_SEATS = select(Seat.seat).where(*_FREE).order_by(Seat.seat)
# One of them, named and given the joiner's token, if it is still free.
CLAIM = (
    update(Seat)
    .where(*_FREE, Seat.seat == bindparam("seat_no"))
    .values(name=bindparam("seat_name"), token_hash=bindparam("token"))
)
TOUCH_ROOM = (
    update(Room)
    .where(Room.id == bindparam("room"))
    .values(active_at=bindparam("now", type_=Room.active_at.type))
)
# Only for a room with a turn timer, once the claim before it filled the room.
START_TIMER = (
    update(Room)
    .where(
        Room.id == bindparam("room"),
        Room.turn_seconds.is_not(None),
        ~select(Seat.seat).where(*_FREE).exists(),
    )
    .values(turn_deadline=bindparam("deadline", type_=Room.turn_deadline.type))
)


def params(room_id: str, token_hash: str, now: Any, deadline: Any) -> dict[str, Any]:
    """What the statements bind but the seat (`seat_no`) and its name (`seat_name`)."""
    return {"room": room_id, "token": token_hash, "now": now, "deadline": deadline}
