"""Everything that crosses the wire between a rummy server and its clients, defined once in
pure pydantic (docs/api.md): moves, views, the log, records, requests, websocket frames,
advice, chat, challenges, the error body and the closed sets of names. The server's
`/openapi.json` and `/asyncapi.json` are made from these very models, and the server's
rules build their moves and views on them; nothing here imports the server.

    base       frozen models, card codes, the slot a model may carry a derived form in
    moves      the five moves, a move as the table shows it, votes
    game       a whole match (a log's deal) and its parts: melds, results, votes
    variants   the rule sets and the variants' names
    views      a seat's view (with `legal`), the seats' infos, a spectator's view
    rooms      a room's public summary and options, the answers to creating and joining
    requests   the bodies of the rooms' and the moves' routes
    names      what a player may be called
    log        the hand log and the recent moves
    records    match records, a log sent back, replays
    friends    chat and challenges
    advice     hints and reviews
    frames     the websocket's frames, both ways
    errors     the error body
    choices    modes, bot levels, room statuses, error codes
    server     what a server says about itself
"""

from rummy_wire.advice import HintView, Reasons, ReviewDecision, ReviewView
from rummy_wire.choices import BotLevel, BotName, ErrorCode, Mode, RoomStatus
from rummy_wire.errors import ErrorBody, ErrorDetail, FieldError
from rummy_wire.frames import (
    CLIENT_FRAMES,
    SERVER_FRAMES,
    AuthFrame,
    ChatFrame,
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
from rummy_wire.friends import (
    ChallengeRequest,
    ChallengeResult,
    ChallengeSeat,
    ChatHistory,
    ChatMessage,
    ChatPosted,
    ChatRequest,
    Entry,
    EntryHand,
    Invite,
    InviteRequest,
    PlayRequest,
)
from rummy_wire.game import Deal, GameState, HandResult, LastMove, Phase, TableMeld, Votes
from rummy_wire.log import LogHand, LogMove, LogStandIn, LogVote, RecentMoves, RoomLog
from rummy_wire.moves import (
    Discard,
    Draw,
    DrawSource,
    End,
    LayOff,
    Meld,
    Move,
    ShownDraw,
    ShownMove,
    Swap,
    VoteKind,
    move_to_json,
)
from rummy_wire.records import LogBody, MatchRecord, RecordHand, RecordMove, Replay, ReplayStep
from rummy_wire.requests import (
    CreateRoomRequest,
    JoinRequest,
    MoveRequest,
    StandInRequest,
    VoteRequest,
)
from rummy_wire.rooms import CreatedRoom, JoinedRoom, RoomOptions, RoomSummary, SummarySeat
from rummy_wire.server import Health, ServerKey
from rummy_wire.variants import RuleSet, VariantName
from rummy_wire.views import (
    Legal,
    LegalLayoff,
    LegalSwap,
    Opening,
    OpeningMeld,
    RoomView,
    SeatInfo,
    SeatView,
    SpectatorView,
    WatchView,
)

__all__ = [
    "CLIENT_FRAMES",
    "SERVER_FRAMES",
    "AuthFrame",
    "BotLevel",
    "BotName",
    "ChallengeRequest",
    "ChallengeResult",
    "ChallengeSeat",
    "ChatFrame",
    "ChatHistory",
    "ChatMessage",
    "ChatPost",
    "ChatPosted",
    "ChatRequest",
    "ClientFrame",
    "CreateRoomRequest",
    "CreatedRoom",
    "Deal",
    "Discard",
    "Draw",
    "DrawSource",
    "End",
    "Entry",
    "EntryHand",
    "ErrorBody",
    "ErrorCode",
    "ErrorDetail",
    "ErrorFrame",
    "FieldError",
    "GameState",
    "HandResult",
    "Health",
    "Invite",
    "InviteRequest",
    "HintView",
    "JoinRequest",
    "JoinedRoom",
    "LastMove",
    "LayOff",
    "Legal",
    "LegalLayoff",
    "LegalSwap",
    "LogBody",
    "LogHand",
    "LogMove",
    "LogStandIn",
    "LogVote",
    "MatchRecord",
    "Meld",
    "Mode",
    "Move",
    "MoveFrame",
    "MoveRequest",
    "Opening",
    "OpeningMeld",
    "Phase",
    "PingFrame",
    "PlayRequest",
    "PongFrame",
    "PresenceFrame",
    "Reasons",
    "RecentMoves",
    "RecordHand",
    "RecordMove",
    "RematchFrame",
    "Replay",
    "ReplayStep",
    "ReviewDecision",
    "ReviewView",
    "RoomLog",
    "RoomOptions",
    "RoomStatus",
    "RoomSummary",
    "RoomView",
    "RuleSet",
    "SeatInfo",
    "SeatView",
    "ServerFrame",
    "ServerKey",
    "ShownDraw",
    "ShownMove",
    "SpectatorView",
    "StandInRequest",
    "StateFrame",
    "SummarySeat",
    "Swap",
    "TableMeld",
    "VariantName",
    "VoteFrame",
    "VoteKind",
    "VoteRequest",
    "Votes",
    "WatchView",
    "move_to_json",
]
