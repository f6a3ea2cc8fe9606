"""Moves and votes over REST; both take the one move path in app.service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from app.api.responses import BODY, SEAT, errors, view_response
from app.api.schemas import MoveRequest, VoteRequest
from app.deps import RoomId, SeatDep, ServiceDep
from app.views import RecentMoves, RoomView

router = APIRouter(prefix="/api/rooms/{room}", tags=["play"])


@router.post("/moves", response_model=RoomView, responses=errors(*SEAT, 409, *BODY))
async def post_move(
    room: RoomId, body: MoveRequest, seat: SeatDep, service: ServiceDep
) -> Response:
    """Apply a move made on view `version`; returns the new view (after any bot turns).

    409 `stale_version` carries the current view under `state` so the client can resync."""
    await service.play(room, seat, body.move, body.version)
    return view_response(await service.view_text(room, seat))


@router.post("/votes", response_model=RoomView, responses=errors(*SEAT, 409, *BODY))
async def post_vote(
    room: RoomId, body: VoteRequest, seat: SeatDep, service: ServiceDep
) -> Response:
    """Vote `next_hand` or `new_match`; it acts once every human seat voted the same."""
    await service.cast(room, seat, body.vote, body.version)
    return view_response(await service.view_text(room, seat))


@router.get("/recent", response_model=RecentMoves, responses=errors(*SEAT))
async def recent_moves(
    room: RoomId,
    seat: SeatDep,
    service: ServiceDep,
    since: Annotated[int, Query(ge=0, le=2**31 - 1, description="a version the client saw")],
) -> RecentMoves:
    """The moves of the hand in play after version `since` (a path of its own: beside
    POST /moves it would make a 405 name one method only): what happened while this
    seat was away (API.md v1.1 additions, "Seats that stay alive")."""
    return await service.moves_since(room, since)
