"""Chat routes (docs/api.md, "Friends"): post a message as a seat, read the room's messages.
The websocket takes `{"type": "chat", "text"}` frames too (app/api/ws.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.deps import RoomId, SeatDep, ServiceDep
from app.api.responses import BODY, SEAT, TOKEN_OR_SPECTATOR, errors
from app.errors import Unauthorized
from app.social.registry import friends_of
from rummy_wire.friends import ChatHistory, ChatPosted, ChatRequest

router = APIRouter(prefix="/api", tags=["chat"])

_bearer = HTTPBearer(auto_error=False, description="the seat token")
_POST_403 = 'A token of another room, or a room with `"chat": false` (`forbidden`)'


async def _reader(
    room: RoomId,
    service: ServiceDep,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> int | None:
    """The seat of the bearer token, or None for a reader who sent no credentials at all
    (credentials of another kind are refused, not taken for none)."""
    if credentials is None:
        if request.headers.get("authorization") is not None:
            raise Unauthorized("send the seat token as Authorization: Bearer <token>")
        return None
    return await service.authorize(room, credentials.credentials)


@router.api_route(
    "/rooms/{room}/chat",
    methods=["PUT", "PATCH", "DELETE", "OPTIONS"],
    include_in_schema=False,
)
async def chat_other_methods() -> None:
    """A path with two routes: Starlette's 405 would name only the first one's method."""
    raise HTTPException(405, headers={"Allow": "GET, POST"})


@router.post(
    "/rooms/{room}/chat",
    status_code=201,
    response_model=ChatPosted,
    responses=errors(*SEAT, *BODY, e403=_POST_403),
)
async def post_chat(
    room: RoomId, body: ChatRequest, seat: SeatDep, service: ServiceDep
) -> ChatPosted:
    """Send a message to everyone at the table (seats and spectators). 422 `invalid_text`
    for empty or over-long text or a control character; 429 `rate_limited` past 10
    messages per seat in 10 s."""
    return ChatPosted(message=await friends_of(service).chat.post(room, seat, body.text))


@router.get(
    "/rooms/{room}/chat",
    response_model=ChatHistory,
    responses=errors(*SEAT),
    openapi_extra=TOKEN_OR_SPECTATOR,
)
async def get_chat(
    room: RoomId,
    service: ServiceDep,
    seat: Annotated[int | None, Depends(_reader)],
    since: Annotated[int | None, Query(ge=0, le=2**31 - 1, description="after this id")] = None,
) -> ChatHistory:
    """The messages after id `since` (default: the last 100), oldest first. A seat's token,
    or none for a room with spectators."""
    chat = friends_of(service).chat
    await chat.readable(room, seat)
    return ChatHistory(messages=await chat.history(room, since))
