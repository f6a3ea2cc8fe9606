"""Seats that stay alive (docs/api.md, "Routes"): a stand-in for a seat whose owner left."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import RoomId, SeatDep, ServiceDep, TurnsDep
from app.api.responses import BODY, SEAT, errors, view_response
from app.views import RoomView
from rummy_wire.requests import StandInRequest

router = APIRouter(prefix="/api/rooms/{room}", tags=["play"])

_PRESENT = "The seat is at the table, or left less than `away_seconds` ago (`seat_present`)"


@router.post(
    "/stand-in",
    response_model=RoomView,
    responses=errors(*SEAT, 409, *BODY, e409=_PRESENT),
)
async def stand_in(
    room: RoomId, body: StandInRequest, seat: SeatDep, service: ServiceDep, turns: TurnsDep
) -> Response:
    """Let a bot of the room's level play seat `seat` (not your own) until its owner comes
    back (a socket with its token opens, or it sends a move). 409 `seat_present` while the
    seat is connected or has been away for less than `away_seconds`. Returns your view."""
    await turns.stand_in(room, seat, body.seat)
    return view_response(await service.view_text(room, seat))
