"""A typed Python client of the rummy server, for scripts and bots: REST on httpx, the
websocket on websockets, and the wire's pydantic models (rummy_wire), so a view, a move or
a frame is the very type the server documents in /openapi.json and /asyncapi.json.

    async with Rummy("http://127.0.0.1:8000") as rummy:
        seat = await rummy.create_room("classic", mode="computer", bots={"1": "easy"})
        view = await seat.get_state()                     # a RoomView
        while view.phase != "match_over":
            view = await seat.take_turn(view, simple_player)   # post_move, or cast_vote

Every method is named for its operation id (`create_room`, `post_move`, `cast_vote`, ...);
a refusal raises `ApiError` with docs/api.md's `code`. docs/client.md has a whole match.
It imports nothing of the server: `pip install ./client` is all it needs.
"""

from rummy_client.errors import ApiError, SeatLost
from rummy_client.models import (
    ClientFrame,
    CreatedRoom,
    Discard,
    Draw,
    LayOff,
    Meld,
    Move,
    RoomView,
    ServerFrame,
    Swap,
    WatchView,
)
from rummy_client.players import simple_player
from rummy_client.rest import Rummy, SeatClient
from rummy_client.socket import SeatSocket, sockets
from rummy_client.urls import Seat, parse_seat_url, ws_url

__all__ = [
    "ApiError",
    "ClientFrame",
    "CreatedRoom",
    "Discard",
    "Draw",
    "LayOff",
    "Meld",
    "Move",
    "RoomView",
    "Rummy",
    "Seat",
    "SeatClient",
    "SeatLost",
    "SeatSocket",
    "ServerFrame",
    "Swap",
    "WatchView",
    "simple_player",
    "parse_seat_url",
    "sockets",
    "ws_url",
]
