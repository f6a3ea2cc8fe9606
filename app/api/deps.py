"""Named dependencies: the room service and the turn drivers, the room id in the path, and
the acting seat (with the room it was authorized on, for the move path)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.persist.rows import Snapshot
from app.rooms.service import RoomService
from app.turns.drivers import Turns

RoomId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the room id"),
]
# RoomId's shape, for the websocket's path (app/api/ws.py checks it itself: FastAPI would
# refuse a socket's bad parameter with 1008, a close code the API does not document).
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

_bearer = HTTPBearer(auto_error=False, description="the seat token")


# Dependencies are coroutines: FastAPI runs a plain function in a worker thread.
async def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.service
    return service


ServiceDep = Annotated[RoomService, Depends(get_service)]


async def get_turns(request: Request) -> Turns:
    turns: Turns = request.app.state.turns
    return turns


TurnsDep = Annotated[Turns, Depends(get_turns)]


async def get_seat(
    room: RoomId,
    service: ServiceDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> int:
    """The seat whose token is in `Authorization: Bearer`; it must belong to `room`."""
    return await service.authorize(room, credentials.credentials if credentials else None)


SeatDep = Annotated[int, Depends(get_seat)]


@dataclass(frozen=True)
class Seated:
    """The acting seat, the room as it was authorized on (the move path loads it no
    second time), and the room service."""

    service: RoomService
    room: Snapshot
    seat: int


async def get_seated(
    room: RoomId,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Seated:
    """`get_seat`, with the room it was authorized on."""
    service: RoomService = request.app.state.service
    snap, seat = await service.seated(room, credentials.credentials if credentials else None)
    return Seated(service, snap, seat)


SeatedDep = Annotated[Seated, Depends(get_seated)]
