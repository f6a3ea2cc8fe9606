"""The wire's models (rummy_wire), shared rather than copied: what the server's
/openapi.json and /asyncapi.json describe is made from these very classes. Read the
server's answers with `read` and `SERVER_FRAME`: fields a newer server adds are ignored
(docs/api.md: a client ignores what it does not know)."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, TypeAdapter

from rummy_wire import (
    AuthFrame,
    BotLevel,
    BotName,
    ChallengeRequest,
    ChallengeResult,
    ChallengeSeat,
    ChatFrame,
    ChatHistory,
    ChatMessage,
    ChatPost,
    ChatPosted,
    ChatRequest,
    ClientFrame,
    CreatedRoom,
    CreateRoomRequest,
    Discard,
    Draw,
    End,
    ErrorBody,
    ErrorCode,
    ErrorFrame,
    Health,
    HintView,
    Invite,
    InviteRequest,
    JoinedRoom,
    LayOff,
    LogBody,
    MatchRecord,
    Meld,
    Mode,
    Move,
    MoveFrame,
    MoveRequest,
    PingFrame,
    PlayRequest,
    PongFrame,
    PresenceFrame,
    RecentMoves,
    RematchFrame,
    Replay,
    ReviewView,
    RoomLog,
    RoomSummary,
    RoomView,
    RuleSet,
    SeatInfo,
    ServerFrame,
    ServerKey,
    ShownMove,
    StateFrame,
    Swap,
    VariantName,
    VoteFrame,
    VoteKind,
    VoteRequest,
    WatchView,
)

M = TypeVar("M", bound=BaseModel)
SERVER_FRAME: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)
VARIANTS: TypeAdapter[list[RuleSet]] = TypeAdapter(list[RuleSet])


def read(model: type[M], text: str | bytes) -> M:
    """`model` from the server's JSON, ignoring fields this client does not know yet."""
    return model.model_validate_json(text, extra="ignore")


def read_frame(text: str | bytes) -> ServerFrame:
    """A server frame from its JSON, ignoring fields this client does not know yet."""
    return SERVER_FRAME.validate_json(text, extra="ignore")


__all__ = [
    "ServerKey",
    "Replay",
    "PlayRequest",
    "MatchRecord",
    "LogBody",
    "InviteRequest",
    "Invite",
    "Health",
    "ChatRequest",
    "ChatPosted",
    "ChatHistory",
    "ChallengeSeat",
    "ChallengeResult",
    "ChallengeRequest",
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
    "ErrorCode",
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
    "read",
    "read_frame",
]
