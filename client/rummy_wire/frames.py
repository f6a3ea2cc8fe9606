"""The websocket's frames (API.md "Websocket", v1.1 auth, v1.2 chat and rematch) as models:
the AsyncAPI document (app/api/asyncapi.py) and the typed client (rummy_client/) are made
from these, and they share their parts (`RoomView`, `Move`, `SeatInfo`, ...) with the REST
API's OpenAPI document.

The server writes its frames without these models on the hot path (app/api/fanout.py makes
each view's text once for every socket); tests/app/test_asyncapi.py checks every frame of
whole hands against the schemas made from them."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import MoveRequest, VoteRequest
from app.views import ErrorDetail, RoomView, SeatInfo, WatchView


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Server to client.


class StateFrame(Frame):
    """The socket's view: on connect, and after every change (only the newest, when a client
    reads slower than the room changes). A spectator's has `seat` null."""

    type: Literal["state"]
    state: RoomView | WatchView


class PresenceFrame(Frame):
    """The seats as every view shows them: who is connected, away, stood in for."""

    type: Literal["presence"]
    seats: tuple[SeatInfo, ...]


class ErrorFrame(Frame):
    """A frame the server refused (API.md's error codes), or why the socket closes next; a
    refused move or vote is followed by the current `state`."""

    type: Literal["error"]
    error: ErrorDetail


class PongFrame(Frame):
    """The answer to a `ping`."""

    type: Literal["pong"]


class ChatMessage(BaseModel):
    """API.md v1.2 chat: one message of a room; `id` grows by one per room."""

    id: int
    seat: int
    name: str
    text: str
    at: datetime


class ChatFrame(Frame):
    """A chat message, to every socket of the room (seats and spectators)."""

    type: Literal["chat"]
    message: ChatMessage


class RematchFrame(Frame):
    """The match's rematch room was created (API.md v1.2): join it with
    `POST /api/rooms/{old room}/rematch`."""

    type: Literal["rematch"]
    room: str


ServerFrame = Annotated[
    StateFrame | PresenceFrame | ErrorFrame | PongFrame | ChatFrame | RematchFrame,
    Field(discriminator="type"),
]


# Client to server.


class AuthFrame(Frame):
    """The seat's token as the first frame, when the URL carries no `?token=` (within 10 s)."""

    type: Literal["auth"]
    token: str


class MoveFrame(MoveRequest):
    """A move, as the body of POST /moves; answered by the views that follow (or an error)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=None)

    type: Literal["move"]


class VoteFrame(VoteRequest):
    """A vote, as the body of POST /votes."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=None)

    type: Literal["vote"]


class PingFrame(Frame):
    """Keeps the socket open (the server closes one silent for `ws_idle_seconds`: 4408)."""

    type: Literal["ping"]


class ChatPost(Frame):
    """API.md v1.2: a chat message from a seat, as the body of POST /chat."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=200)


ClientFrame = Annotated[
    AuthFrame | MoveFrame | VoteFrame | PingFrame | ChatPost, Field(discriminator="type")
]

SERVER_FRAMES: tuple[type[Frame], ...] = (
    StateFrame,
    PresenceFrame,
    ErrorFrame,
    PongFrame,
    ChatFrame,
    RematchFrame,
)
CLIENT_FRAMES: tuple[type[BaseModel], ...] = (AuthFrame, MoveFrame, VoteFrame, PingFrame, ChatPost)
