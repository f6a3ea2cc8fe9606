"""`random`: a uniform choice among the legal moves (boardgame.io's RandomBot)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

from bots.strategy import require_moves

if TYPE_CHECKING:
    from rules import Move, SeatView


class RandomStrategy:
    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        require_moves(legal)
        return legal[rng.randrange(len(legal))]
