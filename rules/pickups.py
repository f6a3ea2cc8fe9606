"""Named pickups (docs/api.md, "One shape for a named pickup"): a draw from the discard pile
names the card it took, in the move itself (`{"type": "draw", "source": "discard", "card":
"7H"}`), in every record a seat or a spectator sees, since that card lay face up. The log
stores the move as it was sent (`{"type": "draw", "source": "discard"}`); the card is the
pile's top at that moment: the hand's upcard, or else the card the turn before discarded (a
turn ends with a discard, and a reshuffle of the stock leaves the pile's top where it was)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.errors import InvalidMove
from rules.moves import Discard, Draw, Move, ShownDraw, ShownMove
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


def name_pickups(
    start: GameState, moves: Sequence[tuple[int, Move]]
) -> list[tuple[int, ShownMove]]:
    """`moves` (a hand's, in order, from `start`) as every seat saw them: each draw from the
    discard pile names the card it took; a stock draw names none."""
    named = discard_pickups(start, moves)
    return [
        (seat, ShownDraw(source=move.source, card=named.get(i)) if isinstance(move, Draw) else move)
        for i, (seat, move) in enumerate(moves)
    ]


def as_played(move: Move) -> Move:
    """`move` as its seat sent it: a draw that names its card (a log's, a record's) without
    the name, which the table added; any other move as it is.

    >>> as_played(ShownDraw(source="discard", card="7H"))
    Draw(type='draw', source='discard')
    """
    return Draw(source=move.source) if isinstance(move, ShownDraw) else move


def check_pickups(start: GameState, moves: Sequence[tuple[int, Move]]) -> None:
    """That every card a draw of `moves` names (a log or a record sent back) is the one it
    took: a named pickup is part of what the record says happened.

    Raises:
        InvalidMove: a draw names another card, or a stock draw names one.
    """
    named = discard_pickups(start, moves)
    for i, (_, move) in enumerate(moves):
        card = move.card if isinstance(move, ShownDraw) else None
        if card is not None and card != named.get(i):
            took = named.get(i) or "a card of the stock"
            raise InvalidMove(f"move {i + 1}: the draw names {card}, but it took {took}")
