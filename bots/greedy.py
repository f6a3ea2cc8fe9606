"""`greedy`: meld and lay off as soon as possible, discard the highest card that helps nothing.

It takes the top discard only when that card would sit in a meld of its best split (or extend
a table meld it may lay off on). It never swaps a joker out of a run on its own initiative.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

from bots.melds import Splitter
from bots.strategy import (
    by_type,
    can_lay_off,
    has_partner,
    move_cards,
    require_moves,
    table_targets,
    variant_of,
)
from rules import Discard, Draw, LayOff, Meld, playout

if TYPE_CHECKING:
    from rules import Move, SeatView

_SPLITTERS: dict[str, Splitter] = {}


def splitter_for(variant: str) -> Splitter:
    sp = _SPLITTERS.get(variant)
    if sp is None:
        sp = _SPLITTERS[variant] = Splitter(playout.fast_rules(variant))
    return sp


def _remove(hand: list[int], taken: Sequence[str]) -> list[int]:
    rest = list(hand)
    for c in taken:
        rest.remove(playout.code_to_int(c))
    return rest


class GreedyStrategy:
    name = "greedy"

    def choose(self, view: SeatView, legal: Sequence[Move], rng: Random) -> Move:
        require_moves(legal)
        draws = by_type(legal, Draw)
        if draws:
            return self.choose_draw(view, draws)
        return self.choose_play(view, legal)

    def choose_draw(self, view: SeatView, draws: Sequence[Draw]) -> Move:
        from_discard = [m for m in draws if m.source == "discard"]
        from_stock = [m for m in draws if m.source == "stock"]
        if from_discard and (not from_stock or self.wants_discard(view)):
            return from_discard[0]
        return (from_stock or list(draws))[0]

    def wants_discard(self, view: SeatView) -> bool:
        if view.discard_top is None:
            return False
        v = variant_of(view)
        top = playout.code_to_int(view.discard_top)
        if top == playout.JOKER:
            return True
        hand = list(playout.ints(view.hand)) + [top]
        if top not in splitter_for(view.variant).leftovers(hand):
            return True
        return can_lay_off(view, v) and top in table_targets(view, v)

    def choose_play(self, view: SeatView, legal: Sequence[Move]) -> Move:
        hand = list(playout.ints(view.hand))
        sp = splitter_for(view.variant)
        jokers_due = set(view.must_play)
        plays = [m for m in legal if m.type in ("meld", "layoff")]
        if jokers_due:
            with_joker = [m for m in plays if "JK" in move_cards(m)]
            if with_joker:
                plays = with_joker
        melds = by_type(plays, Meld)
        if melds:
            return min(
                melds,
                key=lambda m: (sp.deadwood(_remove(hand, move_cards(m))), -len(move_cards(m))),
            )
        layoffs = by_type(plays, LayOff)
        if layoffs:
            return max(layoffs, key=lambda m: len(m.cards))
        discards = by_type(legal, Discard)
        if not discards:
            return legal[0]
        return self.choose_discard(view, hand, discards)

    def choose_discard(self, view: SeatView, hand: list[int], discards: Sequence[Discard]) -> Move:
        v = variant_of(view)
        sp = splitter_for(view.variant)
        leftovers = sp.leftovers(hand)
        points = v.card_values

        def rank_of(m: Discard) -> tuple[bool, bool, bool, int]:
            c = playout.code_to_int(m.card)
            spare = c in leftovers
            useless = spare and not has_partner(c, leftovers, v.ace_high)
            return (c != playout.JOKER, useless, spare, points[c])

        return max(discards, key=rank_of)
