"""Named pickups (API.md v1.2): a draw from the discard pile names the card it took in every
record a seat or a spectator sees, since that card lay face up. The log stores the move as
it was sent (`{"type": "draw", "source": "discard"}`); the card is the pile's top at that
moment: the hand's upcard, or else the card the turn before discarded (a turn ends with a
discard, and a reshuffle of the stock leaves the pile's top where it was)."""

from __future__ import annotations

from collections.abc import Iterable

from rules.moves import Discard, Draw, Move
from rules.state import GameState


def discard_pickups(start: GameState, moves: Iterable[tuple[int, Move]]) -> dict[int, str]:
    """The card each discard draw took, by its index in `moves` (a hand's moves in order,
    from `start`, the hand as dealt)."""
    top = start.discard[-1] if start.discard else None
    named: dict[int, str] = {}
    for i, (_, move) in enumerate(moves):
        if isinstance(move, Discard):
            top = move.card
        elif isinstance(move, Draw) and move.source == "discard":
            if top is not None:
                named[i] = top
            top = None  # the card beneath is not known here, and nobody draws it before a discard
    return named
