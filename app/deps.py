"""Named dependencies: the game service, the room id in the path, and the acting seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.game import Game

RoomId = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="the room id"),
]

_bearer = HTTPBearer(auto_error=False, description="the seat token")


def get_game(request: Request) -> Game:
    game: Game = request.app.state.game
    return game


GameDep = Annotated[Game, Depends(get_game)]


async def get_seat(
    room: RoomId,
    game: GameDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> int:
    """The seat whose token is in `Authorization: Bearer`; it must belong to `room`."""
    return await game.authorize(room, credentials.credentials if credentials else None)


SeatDep = Annotated[int, Depends(get_seat)]
