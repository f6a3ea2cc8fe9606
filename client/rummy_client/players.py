"""Computer players for scripts: `computer(level)` turns a seat's view into a move with the
bots' own strategies (bots/), from that view only."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

import rules
from rummy_client.models import BotName, Move


def computer(name: BotName = "medium", seed: int | None = None) -> Callable[[rules.SeatView], Move]:
    """A chooser of moves: `choose(view)` is one of `rules.legal_moves(view)`, picked by the
    strategy or level `name` (bots.get_strategy)."""
    import bots  # the strategies load only for a script that asks for them

    strategy, rng = bots.get_strategy(name), Random(seed)

    def choose(view: rules.SeatView) -> Move:
        return strategy.choose(view, list(rules.legal_moves(view)), rng)

    return choose
