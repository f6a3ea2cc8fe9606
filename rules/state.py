"""The stored state of a whole match, as the rules read and make it: the wire's models
(rummy_wire.game, defined there once). It holds secrets (every hand, the stock's order, the
seeds): only `rules.view.seat_view` may turn it into something a player sees."""

from __future__ import annotations

from typing import TypeAlias

from rummy_wire.game import Deal, GameState, HandResult, LastMove, Phase, TableMeld, Votes

# The name rules/engine reads the phases by.
PhaseName: TypeAlias = Phase

__all__ = [
    "Deal",
    "GameState",
    "HandResult",
    "LastMove",
    "Phase",
    "PhaseName",
    "TableMeld",
    "Votes",
]
