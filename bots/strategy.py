"""The strategy interface and the small view helpers every strategy shares.

A strategy sees one seat's `rules.SeatView` (never hidden cards) and the legal moves
`rules.legal_moves(view)` produced for it, and returns one of those moves. Strategies may keep
memory across calls only keyed by the hand they are playing (see `bots.memory`), so one object
can serve many rooms at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from rules import playout
from rules.playout import FastRules
from rules.runs import run_neighbours

if TYPE_CHECKING:
    from rules import Move, SeatView


@runtime_checkable
class Strategy(Protocol):
    def choose(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        """One of `legal`, for the seat `view.seat` whose turn it is."""
        ...


MoveT = TypeVar("MoveT")


def by_type(legal: Sequence[Move], kind: type[MoveT]) -> list[MoveT]:
    """The moves of `legal` of one kind, e.g. ``by_type(legal, rules.Draw)``."""
    return [m for m in legal if isinstance(m, kind)]


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


def variant_of(view: SeatView) -> FastRules:
    return playout.fast_rules(view.variant)


def can_lay_off(view: SeatView, v: FastRules) -> bool:
    """RULES.md: rummy51 lays off only after opening; the others any time."""
    return not v.opening_min or view.opened[view.seat]


def table_targets(view: SeatView, v: FastRules) -> dict[int, list[str]]:
    """Natural card -> ids of the table melds it would extend (an estimate, not legality)."""
    from bots.melds import layoff_cards

    out: dict[int, list[str]] = {}
    for meld in view.melds:
        for c in layoff_cards(meld, v):
            out.setdefault(c, []).append(meld.id)
    return out


def joker_stands(view: SeatView) -> list[int]:
    """The natural card each joker in a table run stands for, one entry a joker (rummy51
    lets a player who has opened swap that card for it)."""
    return [
        playout.code_to_int(stands)
        for m in view.melds
        if m.kind == "run"
        for card, stands in zip(m.cards, m.stands_for, strict=True)
        if card == "JK"
    ]


def has_partner(card: int, others: Sequence[int], ace_high: bool = False) -> bool:
    """Whether another card could one day form a meld with `card` (same rank, near in suit)."""
    if card == playout.JOKER:
        return True
    r = playout.rank_of(card)
    near = run_neighbours(card, ace_high)
    for o in others:
        if o == card or o == playout.JOKER:
            continue
        if playout.rank_of(o) == r or o in near:
            return True
    return False
