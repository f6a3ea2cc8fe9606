"""The strategy interface and the small view helpers every strategy shares.

A strategy sees one seat's `rules.SeatView` (never hidden cards) and the legal moves
`rules.legal_moves(view)` produced for it, and returns one of those moves. Strategies may keep
memory across calls only keyed by the hand they are playing (see `bots.memory`), so one object
can serve many rooms at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bots import cards
from bots.cards import Variant

if TYPE_CHECKING:
    from rules import Move, SeatView


@runtime_checkable
class Strategy(Protocol):
    def choose(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        """One of `legal`, for the seat `view.seat` whose turn it is."""
        ...


def by_type(legal: Sequence[Move], kind: str) -> list[Move]:
    return [m for m in legal if m.type == kind]


def move_cards(move: Move) -> list[str]:
    """The card codes a meld, lay-off or discard takes from the hand."""
    if move.type == "meld":
        return [c for meld in move.melds for c in meld]
    if move.type == "layoff":
        return list(move.cards)
    if move.type in ("discard", "swap"):
        return [move.card]
    return []


def require_moves(legal: Sequence[Move]) -> None:
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn to move")


def variant_of(view: SeatView) -> Variant:
    return cards.variant(view.variant)


def can_lay_off(view: SeatView, v: Variant) -> bool:
    """RULES.md: rummy51 lays off only after opening; the others any time."""
    return not v.opening or view.opened[view.seat]


def table_targets(view: SeatView, v: Variant) -> dict[int, list[str]]:
    """Natural card -> ids of the table melds it would extend (an estimate, not legality)."""
    from bots.melds import layoff_cards

    out: dict[int, list[str]] = {}
    for meld in view.melds:
        for c in layoff_cards(cards.parse_all(meld.stands_for), meld.kind, v):
            out.setdefault(c, []).append(meld.id)
    return out


def has_partner(card: int, others: Sequence[int], ace_high: bool = False) -> bool:
    """Whether another card could one day form a meld with `card` (same rank, near in suit)."""
    if card == cards.JOKER:
        return True
    r, s = cards.rank(card), cards.suit(card)
    for o in others:
        if o == card or o == cards.JOKER:
            continue
        if cards.rank(o) == r:
            return True
        if cards.suit(o) == s and abs(cards.rank(o) - r) <= 2:
            return True
        if ace_high and cards.suit(o) == s and {cards.rank(o), r} in ({1, 12}, {1, 13}):
            return True
    return False
