"""The websocket's frames (docs/api.md, "The websocket") as models: the server's AsyncAPI
document and the typed client are made from these, and they share their parts
(`RoomView`, `Move`, `SeatInfo`, ...) with the REST API's OpenAPI document.

The server writes its frames without these models on its hot path (it makes each view's
text once for every socket); its tests check every frame of whole hands against the
schemas made from them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rummy_wire.errors import ErrorDetail
from rummy_wire.friends import ChatMessage
from rummy_wire.requests import MoveRequest, VoteRequest
from rummy_wire.views import RoomView, SeatInfo, WatchView


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
    """A frame the server refused (docs/api.md, "Errors"), or why the socket closes next; a
    refused move or vote is followed by the current `state`."""

    type: Literal["error"]
    error: ErrorDetail


class PongFrame(Frame):
    """The answer to a `ping`."""

    type: Literal["pong"]


class ChatFrame(Frame):
    """A chat message, to every socket of the room (seats and spectators)."""

    type: Literal["chat"]
    message: ChatMessage


class RematchFrame(Frame):
    """The match's rematch room was created (docs/api.md, "Friends"): join it with
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
    """A chat message from a seat, as the body of POST /chat (docs/api.md, "Friends")."""

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
