"""Rematch (docs/api.md, "Friends"): a seat of a finished match asks for the next one."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.deps import RoomId, SeatDep, ServiceDep
from app.api.responses import BODY, SEAT, errors
from app.social.registry import friends_of
from app.views import CreatedRoom

router = APIRouter(prefix="/api", tags=["rooms"])

_409 = "The match is still on (`wrong_phase`)"


@router.post(
    "/rooms/{room}/rematch",
    status_code=201,
    response_model=CreatedRoom,
    responses={
        200: {"model": CreatedRoom, "description": "The rematch made earlier"},
        **errors(*SEAT, 409, *BODY, e409=_409),
    },
)
async def rematch(
    room: RoomId, seat: SeatDep, service: ServiceDep, request: Request, response: Response
) -> CreatedRoom:
    """Once the match is over: the caller's seat in a new room of the same variant, mode,
    players, names, options and bot levels, seats moved on by one (old seat i sits in
    (i + 1) mod n). The first call makes the room (201); every later call, by any seat,
    answers 200 with that room and the caller's own seat and token, the same each time.
    Every socket of the old room gets `{"type": "rematch", "room"}`."""
    got = await friends_of(service).rematches.rematch(room, seat)
    if not got.created:
        response.status_code = 200
    base = str(request.base_url).rstrip("/")
    return CreatedRoom(
        room=got.room,
        seat=got.seat,
        token=got.token,
        invite_url=f"{base}/r/{got.room}",
        seat_url=f"{base}/r/{got.room}#seat={got.token}",
        tokens=got.tokens,
    )
