"""Moves and votes over REST; both take the one move path in app.service."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.responses import BODY, SEAT, errors
from app.api.schemas import MoveRequest, VoteRequest
from app.deps import RoomId, SeatDep, ServiceDep
from app.views import RoomView

router = APIRouter(prefix="/api/rooms/{room}", tags=["play"])


@router.post("/moves", response_model=RoomView, responses=errors(*SEAT, 409, *BODY))
async def post_move(
    room: RoomId, body: MoveRequest, seat: SeatDep, service: ServiceDep
) -> RoomView:
    """Apply a move made on view `version`; returns the new view (after any bot turns).

    409 `stale_version` carries the current view under `state` so the client can resync."""
    return await service.move(room, seat, body.move, body.version)


@router.post("/votes", response_model=RoomView, responses=errors(*SEAT, 409, *BODY))
async def post_vote(
    room: RoomId, body: VoteRequest, seat: SeatDep, service: ServiceDep
) -> RoomView:
    """Vote `next_hand` or `new_match`; it acts once every human seat voted the same."""
    return await service.vote(room, seat, body.vote, body.version)
