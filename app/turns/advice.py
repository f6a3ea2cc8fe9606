"""Advice for a seat from the hard bot, from that seat's views only (docs/api.md v1.1): a hint
for the move to make now, and the review of a finished hand's decisions (computed in the
background: app/turns/reviews.py). Both think in the room's bot worker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules
from app.rooms.entries import PLAYING
from app.rooms.port import RoomPort
from app.turns.botpool import BotPool
from app.turns.reviews import Reviews
from bots.explain import explain

# The level whose move a hint suggests (docs/api.md v1.1: the hard bot).
HINT_LEVEL = "hard"


class Advice:
    def __init__(self, port: RoomPort, pool: BotPool) -> None:
        self.port = port
        self.pool = pool
        self.reviews = Reviews()

    async def hint(self, room_id: str, seat: int) -> tuple[rules.Move, dict[str, str]]:
        """The hard bot's move for `seat` from its own view, and why (`bots.explain`).

        Raises NotYourTurn on another seat's turn, WrongPhase when no hand is being played."""
        snap = await self.port.snapshot(room_id)
        view = rules.seat_view(snap.state, seat)
        if view.phase not in PLAYING:
            raise rules.WrongPhase("there is no move to suggest: the hand is not being played")
        if view.turn != seat:
            raise rules.NotYourTurn(f"it is seat {view.turn}'s turn, not seat {seat}'s")
        move = await self.pool.choose(room_id, HINT_LEVEL, view, played=False)
        return move, explain(view, move)

    async def review(self, room_id: str, seat: int, hand: int) -> dict[str, Any] | None:
        """`seat`'s review of finished hand `hand`, {"net", "won", "decisions"} (None while
        it is being computed: app/turns/reviews.py).

        Raises WrongPhase when that hand is not finished (or not in the log)."""
        key = (room_id, hand, seat)
        done = self.reviews.get(key)
        if done is not None:
            return done
        found = [h for h in await self.port.hand_log(room_id) if h.hand == hand]
        if not found:
            raise rules.WrongPhase(f"hand {hand} is not a finished hand of this room")

        async def run(fn: Callable[[str], list[dict[str, Any]]], arg: str) -> Any:
            return await self.pool.run(room_id, fn, arg)

        self.reviews.start(key, found[0], run)
        return None

    def close(self) -> None:
        self.reviews.close()
