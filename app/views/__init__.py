"""What the API shows, built from the rooms' snapshots: a seat's view and the spectator's
(`seat`), a room's public summary (`rooms`). The models themselves are the wire's
(rummy_wire: one definition, shared with the typed client), named here too for the app."""

from app.views.rooms import build_summary, room_options
from app.views.seat import (
    PLAYING,
    StandInLevel,
    build_spectator_view,
    build_view,
    carry_seat_infos,
    seat_infos,
    view_text,
)
from rummy_wire.errors import ErrorBody, ErrorDetail
from rummy_wire.log import LogHand, LogMove, LogStandIn, LogVote, RecentMoves, RoomLog
from rummy_wire.rooms import CreatedRoom, JoinedRoom, RoomOptions, RoomSummary, SummarySeat
from rummy_wire.views import RoomView, SeatInfo, WatchView

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
