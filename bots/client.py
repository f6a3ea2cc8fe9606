"""A bot as a websocket client, like any browser: join, receive states, move, vote; built
on the typed client (rummy_client), which speaks the protocol of /asyncapi.json.

`play(...)` takes a seat (`join`, or the token in a seat URL `.../r/<room>#seat=<token>`),
opens the room's socket with the token in its first frame (so no URL carries it), and
answers every `state` frame: on its turn it sends its move for that version, after a hand it
votes `next_hand`, and it returns when the match is over (or after `max_hands`).
Reconnecting is `rummy_client.sockets`: websockets' backoff between failed attempts, and
`SeatLost` for the refusals that lose the seat for good. The server sends the current state
on every connect, so the bot resyncs from it and never acts on a stale version twice. A close
with 4409 (the server found the bot too far behind) is reconnected the same way.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from random import Random
from typing import Any

from websockets.asyncio.client import connect

import rules
from bots import get_strategy
from bots.strategy import Strategy
from rummy_client import ApiError, Rummy, Seat, SeatLost, parse_seat_url, sockets
from rummy_client.models import ClientFrame, ErrorFrame, MoveFrame, StateFrame, VoteFrame
from rummy_client.socket import FATAL_CLOSE_CODES, FATAL_CODES, FATAL_STATUSES
from rummy_client.urls import ws_url as _ws_url

log = logging.getLogger("rummy.bot")

KEEPALIVE_SECONDS = 25.0

__all__ = [
    "FATAL_CLOSE_CODES",
    "FATAL_CODES",
    "FATAL_STATUSES",
    "BotSession",
    "Seat",
    "computer",
    "SeatLost",
    "join",
    "parse_seat_url",
    "play",
    "to_view",
    "ws_url",
]


def computer(
    name: str = "medium", seed: int | None = None
) -> Callable[[rules.SeatView], rules.Move]:
    """A chooser of moves for `rummy_client`'s `take_turn`: `choose(view)` is one of
    `rules.legal_moves(view)`, picked by the strategy or level `name` (bots.get_strategy),
    from that view only."""
    strategy, rng = get_strategy(name), Random(seed)

    def choose(view: rules.SeatView) -> rules.Move:
        return strategy.choose(view, list(rules.legal_moves(view)), rng)

    return choose


async def join(server: str, room: str, name: str) -> Seat:
    """Take the lowest free seat of `room`."""
    async with Rummy(server) as rummy:
        try:
            return (await rummy.join_room(room, name)).seat
        except ApiError as exc:
            raise SeatLost(f"join {room}: {exc}") from None


def ws_url(seat: Seat) -> str:
    return _ws_url(seat.server, seat.room)


def to_view(state: dict[str, Any]) -> rules.SeatView:
    """The rules' SeatView from the server's view (which adds room, version and seats)."""
    fields = rules.SeatView.model_fields
    return rules.SeatView.model_validate({k: v for k, v in state.items() if k in fields})


class BotSession:
    """Decides what to send for each state; knows nothing about sockets."""

    def __init__(self, strategy: Strategy, rng: Random, max_hands: int | None = None) -> None:
        self.strategy = strategy
        self.rng = rng
        self.max_hands = max_hands
        self.hands_seen: set[int] = set()
        self._acted_version: int | None = None
        self._voted: tuple[int, int] | None = None
        self.finished = False

    def resync(self) -> None:
        """Forget what was sent: the next state frame is the truth."""
        self._acted_version = None

    def on_state(self, view: rules.SeatView, version: int) -> ClientFrame | None:
        """The frame to send for this view (a server view: a RoomView), if any."""
        observe = getattr(self.strategy, "observe", None)
        if observe is not None:
            observe(view)
        if view.phase == "match_over":
            self.finished = True
            return None
        if view.phase == "hand_over":
            return self._vote(view, version)
        if view.phase not in ("draw", "play") or view.turn != view.seat:
            return None
        if self._acted_version == version:
            return None  # already answered this state; wait for the next one
        legal = list(rules.legal_moves(view))
        if not legal:
            return None
        move = self.strategy.choose(view, legal, self.rng)
        self._acted_version = version
        return MoveFrame(type="move", move=move, version=version)

    def _vote(self, view: rules.SeatView, version: int) -> ClientFrame | None:
        self.hands_seen.add(view.hand_number)
        if self.max_hands is not None and len(self.hands_seen) >= self.max_hands:
            self.finished = True
            return None
        if view.seat in view.votes.next_hand or self._voted == (view.hand_number, version):
            return None
        self._voted = (view.hand_number, version)
        return VoteFrame(type="vote", vote="next_hand")


async def play(
    seat: Seat,
    strategy: Strategy | str = "expert",
    *,
    seed: int | None = None,
    max_hands: int | None = None,
    max_retries: int = 30,
    on_state: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any] | None:
    """Play `seat` until the match ends (or `max_hands` hands); returns the last state as
    JSON data (`on_state` gets every one so).

    Raises SeatLost when the server refuses the seat for good, ConnectionError after
    `max_retries` connections in a row that failed or closed before a single frame.
    """
    bot = get_strategy(strategy) if isinstance(strategy, str) else strategy
    session = BotSession(bot, Random(seed), max_hands)
    last: dict[str, Any] | None = None
    # `connect` read here, at the call: a test may wrap this module's.
    reconnecting = sockets(seat, max_retries=max_retries, connect=connect)
    async with contextlib.aclosing(reconnecting):
        async for ws in reconnecting:
            session.resync()
            async with ws.keepalive(KEEPALIVE_SECONDS):
                async for frame in ws.frames():
                    if isinstance(frame, ErrorFrame):
                        log.info("server error %s: %s", frame.error.code, frame.error.message)
                        session.resync()  # the server follows up with the current state
                    elif isinstance(frame, StateFrame):
                        last = frame.state.model_dump(mode="json")
                        if on_state is not None:
                            on_state(last)
                        reply = session.on_state(frame.state, frame.state.version)
                        if reply is not None:
                            await ws.send(reply)
                        if session.finished:
                            return last
    return last
