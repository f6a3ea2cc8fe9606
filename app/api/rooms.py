"""Rooms: variants, create, join, public summary, a seat's view and the hand log."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

import rules
from app.api.deps import RoomId, SeatDep, ServiceDep
from app.api.responses import BODY, ROOM, SEAT, errors, limited, view_response
from app.social.registry import friends_of
from app.views import (
    CreatedRoom,
    JoinedRoom,
    RoomLog,
    RoomSummary,
    RoomView,
    build_summary,
)
from rummy_wire.requests import CreateRoomRequest, JoinRequest

router = APIRouter(prefix="/api", tags=["rooms"])


def _url(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


@router.get("/variants", response_model=list[rules.RuleSet])
async def list_variants() -> list[rules.RuleSet]:
    """The rule sets: players range, hand size, target or limit and every rule switch."""
    return list(rules.VARIANTS.values())


_FIXED_DEAL = "A fixed seed or deal without RUMMY_ALLOW_FIXED_DEALS (`forbidden`)"


@router.post(
    "/rooms",
    status_code=201,
    response_model=CreatedRoom,
    responses={**limited(201), **errors(403, *BODY, e403=_FIXED_DEAL)},
)
async def create_room(
    body: CreateRoomRequest, service: ServiceDep, request: Request
) -> CreatedRoom:
    """Create a room; the creator takes seat 0. In `local` mode `tokens` holds every seat."""
    room, tokens = await service.create(
        variant=body.variant,
        players=body.players,
        mode=body.mode,
        name=body.name.strip() or "Player 1",
        bots=dict[str, str](body.bots),
        seed=body.seed,
        deal=body.deal,
        limit=body.limit,
        spectators=body.spectators,
        turn_seconds=body.turn_seconds,
    )
    if not body.chat:
        await friends_of(service).rows.set_chat(room, False)
    token = tokens[0]
    assert token is not None
    return CreatedRoom(
        room=room,
        seat=0,
        token=token,
        invite_url=_url(request, f"/r/{room}"),
        seat_url=_url(request, f"/r/{room}#seat={token}"),
        tokens=tokens if body.mode == "local" else None,
    )


@router.post(
    "/rooms/{room}/join",
    status_code=201,
    response_model=JoinedRoom,
    responses={**limited(201), **errors(*ROOM, 409, *BODY)},
)
async def join_room(
    room: RoomId, service: ServiceDep, request: Request, body: JoinRequest | None = None
) -> JoinedRoom:
    """Take the lowest free seat; 409 `room_full` when there is none."""
    name = body.name.strip() if body else ""
    seat, token = await service.join(room, name or None)
    return JoinedRoom(
        room=room, seat=seat, token=token, seat_url=_url(request, f"/r/{room}#seat={token}")
    )


@router.get("/rooms/{room}", response_model=RoomSummary, responses=errors(*ROOM))
async def get_room(room: RoomId, service: ServiceDep) -> RoomSummary:
    """Public summary: variant, players, seats (name, taken, connected, bot), status."""
    snap = await service.snapshot(room)
    presence = await service.hub.presence(room)
    summary = build_summary(snap, presence, service.settings.away_seconds)
    return await friends_of(service).rows.summary(summary)


@router.get("/rooms/{room}/state", response_model=RoomView, responses=errors(*SEAT))
async def get_state(room: RoomId, seat: SeatDep, service: ServiceDep) -> Response:
    """This seat's view of the room."""
    snap = await service.current(room)  # a client resyncing must get news the cache may lack
    service.wake_bots(room, snap)
    return view_response(await service.view_text(room, seat, snap))


@router.get("/rooms/{room}/log", response_model=RoomLog, responses=errors(*SEAT))
async def get_log(room: RoomId, seat: SeatDep, service: ServiceDep) -> RoomLog:
    """Every finished hand: its deal (rules.hand_start, seed included) and every move, in
    order. `rules.replay(start, [(seat, move), ...])` rebuilds the hand's end."""
    return RoomLog(room=room, hands=await service.hand_log(room))
