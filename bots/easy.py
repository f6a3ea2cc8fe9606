"""`easy`: a greedy player with slips, for beginners in the browser.

It always melds and lays off like `greedy` (leaving melds in hand would only look broken),
but draws at random and discards a random card in `slip` of its turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

from bots.greedy import GreedyStrategy
from bots.strategy import by_type, require_moves

if TYPE_CHECKING:
    from rules import Move, SeatView


class EasyStrategy:
    name = "easy"

    def __init__(self, slip: float = 0.4) -> None:
        self.slip = slip
        self._greedy = GreedyStrategy()

    def choose(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        require_moves(legal)
        move = self._greedy.choose(view, legal, rng)
        if move.type in ("draw", "discard") and rng.random() < self.slip:
            same = by_type(legal, type(move))
            return same[rng.randrange(len(same))]
        return move
