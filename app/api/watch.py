"""Watching a room without a seat (docs/api.md, "A seat's view"): the table as everyone sees it.
The live form is the websocket's `?watch=1` (app/api/ws.py)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import RoomId, ServiceDep
from app.api.responses import ROOM, errors, view_response
from app.views import WatchView

router = APIRouter(prefix="/api", tags=["rooms"])

_NO_SPECTATORS = 'The room was created with `"spectators": false` (`forbidden`)'


@router.get(
    "/rooms/{room}/watch",
    response_model=WatchView,
    responses=errors(403, *ROOM, e403=_NO_SPECTATORS),
)
async def watch(room: RoomId, service: ServiceDep) -> Response:
    """The table as a spectator sees it: `seat` null, `hand` empty, `legal` null, hand sizes
    but no cards. No token."""
    snap = await service.current(room)  # a spectator resyncing must get news the cache may lack
    return view_response(await service.view_text(room, None, snap))
