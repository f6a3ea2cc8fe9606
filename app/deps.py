"""Named dependencies: the room service, the room id in the path, and the acting seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.service import RoomService

RoomId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the room id"),
]

_bearer = HTTPBearer(auto_error=False, description="the seat token")


def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.service
    return service


ServiceDep = Annotated[RoomService, Depends(get_service)]


async def get_seat(
    room: RoomId,
    service: ServiceDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> int:
    """The seat whose token is in `Authorization: Bearer`; it must belong to `room`."""
    return await service.authorize(room, credentials.credentials if credentials else None)


SeatDep = Annotated[int, Depends(get_seat)]
