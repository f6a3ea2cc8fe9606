"""Moves and votes over REST; both take the one move path (app/rooms/service.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Response

from app.api.deps import RoomId, SeatDep, SeatedDep, ServiceDep
from app.api.responses import BODY, RATE_HEADERS, SEAT, errors, limited, view_response
from app.views import RecentMoves, RoomView
from rummy_wire.requests import MoveRequest, VoteRequest

router = APIRouter(prefix="/api/rooms/{room}", tags=["play"])


# RFC 7240: a client whose socket brings it every view asks for none in the answer.
MINIMAL = "return=minimal"
_ACCEPTED: dict[int | str, dict[str, Any]] = {
    204: {
        "description": (
            "With `Prefer: return=minimal`: the move was accepted and the view comes over "
            "the websocket; `Rummy-Version` is the room's version after it (and any bot turns)"
        ),
        "headers": {
            "Rummy-Version": {"description": "the room's version", "schema": {"type": "integer"}},
            "Preference-Applied": {"schema": {"type": "string"}},
            **RATE_HEADERS,
        },
        # No body, yet declared as the empty text it is: generators type an answer without
        # content as `Any` (openapi-python-client), which a typed client cannot use.
        "content": {"text/plain": {"schema": {"type": "string", "maxLength": 0}}},
    }
}


@router.post(
    "/moves",
    response_model=RoomView,
    responses={**limited(200), **_ACCEPTED, **errors(*SEAT, 409, *BODY)},
)
async def post_move(
    room: RoomId,
    body: MoveRequest,
    seated: SeatedDep,
    prefer: Annotated[str | None, Header(description="`return=minimal`: answer 204")] = None,
) -> Response:
    """Apply a move made on view `version`; returns the new view, or with
    `Prefer: return=minimal` 204 and the version only: a client whose socket is open gets
    the same view there and need not receive it twice.

    The answer comes after every computer, stand-in or timer turn that followed the move at
    once (docs/api.md, "Conventions"): `version` may grow by more than one. A client that
    needs each step reads the websocket's frames or `GET .../recent`.

    409 `stale_version` carries the current view under `state` so the client can resync."""
    service, seat = seated.service, seated.seat
    after = await service.play(room, seat, body.move, body.version, seated.room)
    if prefer is not None and MINIMAL in prefer.replace(" ", "").lower().split(","):
        headers = {"Rummy-Version": str(after.version), "Preference-Applied": MINIMAL}
        return Response(status_code=204, headers=headers, media_type="text/plain")
    return view_response(await service.view_text(room, seat, after))


@router.post(
    "/votes", response_model=RoomView, responses={**limited(200), **errors(*SEAT, 409, *BODY)}
)
async def cast_vote(room: RoomId, body: VoteRequest, seated: SeatedDep) -> Response:
    """Vote `next_hand` or `new_match`; it acts once every human seat voted the same."""
    service, seat = seated.service, seated.seat
    after = await service.cast(room, seat, body.vote, body.version, seated.room)
    return view_response(await service.view_text(room, seat, after))


@router.get("/recent", response_model=RecentMoves, responses=errors(*SEAT))
async def get_recent(
    room: RoomId,
    seat: SeatDep,
    service: ServiceDep,
    since: Annotated[int, Query(ge=0, le=2**31 - 1, description="a version the client saw")],
) -> RecentMoves:
    """The moves of the hand in play after version `since` (a path of its own: beside
    POST /moves it would make a 405 name one method only): what happened while this
    seat was away (docs/api.md, "Routes")."""
    return await service.moves_since(room, since)
