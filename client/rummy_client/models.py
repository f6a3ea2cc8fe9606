"""The server's models, shared rather than copied: what /openapi.json and /asyncapi.json
describe is made from these very classes."""

from __future__ import annotations

from pydantic import TypeAdapter

from app.api.frames import (
    AuthFrame,
    ChatFrame,
    ChatMessage,
    ChatPost,
    ClientFrame,
    ErrorFrame,
    MoveFrame,
    PingFrame,
    PongFrame,
    PresenceFrame,
    RematchFrame,
    ServerFrame,
    StateFrame,
    VoteFrame,
)
from app.api.hints import HintView, ReviewView
from app.api.schemas import CreateRoomRequest, MoveRequest, VoteRequest
from app.choices import BotLevel, BotName, Mode
from app.views import (
    CreatedRoom,
    ErrorBody,
    JoinedRoom,
    RecentMoves,
    RoomLog,
    RoomSummary,
    RoomView,
    SeatInfo,
    WatchView,
)
from rules import (
    Discard,
    Draw,
    End,
    LayOff,
    Meld,
    Move,
    RuleSet,
    ShownMove,
    Swap,
    VariantName,
    VoteKind,
)

SERVER_FRAME: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)
VARIANTS: TypeAdapter[list[RuleSet]] = TypeAdapter(list[RuleSet])

__all__ = [
    "SERVER_FRAME",
    "VARIANTS",
    "AuthFrame",
    "BotLevel",
    "BotName",
    "ChatFrame",
    "ChatMessage",
    "ChatPost",
    "ClientFrame",
    "CreateRoomRequest",
    "CreatedRoom",
    "Discard",
    "Draw",
    "End",
    "ErrorBody",
    "ErrorFrame",
    "HintView",
    "JoinedRoom",
    "LayOff",
    "Meld",
    "Mode",
    "Move",
    "MoveFrame",
    "MoveRequest",
    "PingFrame",
    "PongFrame",
    "PresenceFrame",
    "RecentMoves",
    "RematchFrame",
    "ReviewView",
    "RoomLog",
    "RoomSummary",
    "RoomView",
    "RuleSet",
    "SeatInfo",
    "ServerFrame",
    "ShownMove",
    "StateFrame",
    "Swap",
    "VariantName",
    "VoteFrame",
    "VoteKind",
    "VoteRequest",
    "WatchView",
]
