"""What the API shows: a seat's view and the spectator's (`seat`), a room's public summary
and the answers to creating and joining it (`rooms`), the hand log (`log`), and the error
body (`errors`)."""

from app.views.errors import ErrorBody, ErrorDetail
from app.views.log import LogHand, LogMove, LogStandIn, LogVote, RecentMoves, RoomLog
from app.views.rooms import (
    CreatedRoom,
    JoinedRoom,
    RoomOptions,
    RoomSummary,
    SummarySeat,
    build_summary,
    room_options,
)
from app.views.seat import (
    PLAYING,
    RoomView,
    SeatInfo,
    StandInLevel,
    WatchView,
    build_spectator_view,
    build_view,
    carry_seat_infos,
    seat_infos,
    view_text,
)

__all__ = [
    "PLAYING",
    "CreatedRoom",
    "ErrorBody",
    "ErrorDetail",
    "JoinedRoom",
    "LogHand",
    "LogMove",
    "LogStandIn",
    "LogVote",
    "RecentMoves",
    "RoomLog",
    "RoomOptions",
    "RoomSummary",
    "RoomView",
    "SeatInfo",
    "StandInLevel",
    "SummarySeat",
    "WatchView",
    "build_spectator_view",
    "build_summary",
    "build_view",
    "carry_seat_infos",
    "room_options",
    "seat_infos",
    "view_text",
]
