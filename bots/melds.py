"""Meld arithmetic for the bots: which melds a hand holds, its cheapest split, lay-off targets.

This is the bots' estimate of a hand, tuned for speed (small ints, memo on count vectors).
Legality is never decided here: a strategy only ever picks among `rules.legal_moves(view)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import rules
from rules import playout
from rules.playout import JOKER, FastRules
from rules.runs import run_start


@dataclass(frozen=True, slots=True)
class Combo:
    """A meld a hand could lay: its natural cards, how many jokers, and the wire order."""

    naturals: tuple[int, ...]
    jokers: int
    kind: str  # "set" | "run"
    layout: tuple[int, ...]  # card ints in table order, JOKER where a joker stands
    start: int = 0  # runs: the position of the first card (1 = low ace .. 14 = high ace)
    value: int = 0  # towards rummy51's opening, each joker as the card it stands for

    @property
    def size(self) -> int:
        return len(self.layout)


def candidate_melds(hand: Sequence[int], v: FastRules) -> list[Combo]:
    """The melds of `rules.meldsearch.single_melds` a bot considers.

    A meld always keeps at least two natural cards, and a run longer than three holds its
    jokers inside, never at an end (a bot never wastes two jokers on one card).
    """
    out: list[Combo] = []
    for layout, value in playout.single_melds(hand, v):
        naturals = tuple(sorted(c for c in layout if c != JOKER))
        if len(naturals) < 2:
            continue
        jokers = len(layout) - len(naturals)
        if playout.rank_of(naturals[0]) == playout.rank_of(naturals[-1]):
            out.append(Combo(naturals, jokers, "set", layout, 0, value))
            continue
        if jokers and len(layout) > 3 and JOKER in (layout[0], layout[-1]):
            continue
        out.append(Combo(naturals, jokers, "run", layout, run_start(layout), value))
    return out


class Splitter:
    """Cheapest split of a hand into melds and deadwood, memoised per hand.

    `cost` gives each card's price when left over (points in hand for the variant).
    """

    def __init__(self, v: FastRules, cost: Sequence[int] | None = None) -> None:
        self.v = v
        self.cost = tuple(cost) if cost is not None else v.card_values
        self._memo: dict[tuple[int, ...], tuple[int, tuple[Combo, ...]]] = {}

    def best(self, hand: Sequence[int]) -> tuple[int, tuple[Combo, ...]]:
        """(deadwood cost, melds) of the cheapest split."""
        key = tuple(sorted(hand))
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if len(self._memo) > 200_000:
            self._memo.clear()
        combos = candidate_melds(key, self.v)
        by_first: dict[int, list[Combo]] = {}
        for cm in combos:
            by_first.setdefault(cm.naturals[0], []).append(cm)
        counts = [0] * playout.N_CODES
        for c in key:
            counts[c] += 1
        result = _SplitSearch(counts, by_first, self.cost).solve()
        self._memo[key] = result
        return result

    def deadwood(self, hand: Sequence[int]) -> int:
        return self.best(hand)[0]

    def leftovers(self, hand: Sequence[int]) -> list[int]:
        """The cards outside the cheapest split's melds."""
        rest = list(hand)
        for cm in self.best(hand)[1]:
            for c in cm.layout:
                rest.remove(c)
        return rest


class _SplitSearch:
    """`Splitter.best`'s search over the cards left to place, memoized by what is left. A
    class rather than a recursive closure: a closure that calls itself holds itself, and
    every split was left to the cyclic collector (a bot splits hands thousands of times a
    decision; the collections took a tenth of a tournament's time)."""

    __slots__ = ("counts", "by_first", "cost", "inner")

    def __init__(
        self, counts: list[int], by_first: dict[int, list[Combo]], cost: Sequence[int]
    ) -> None:
        self.counts, self.by_first, self.cost = counts, by_first, cost
        self.inner: dict[bytes, tuple[int, tuple[Combo, ...]]] = {}

    def solve(self) -> tuple[int, tuple[Combo, ...]]:
        counts, cost, inner = self.counts, self.cost, self.inner
        k = bytes(counts)
        got = inner.get(k)
        if got is not None:
            return got
        first = -1
        for c in range(playout.JOKER):
            if counts[c]:
                first = c
                break
        if first < 0:
            res: tuple[int, tuple[Combo, ...]] = (counts[JOKER] * cost[JOKER], ())
            inner[k] = res
            return res
        counts[first] -= 1
        sub = self.solve()
        counts[first] += 1
        res = (sub[0] + cost[first], sub[1])
        for cm in self.by_first.get(first, ()):
            if cm.jokers > counts[JOKER]:
                continue
            ok = True
            for c in cm.naturals:
                counts[c] -= 1
                if counts[c] < 0:
                    ok = False
            if ok:
                counts[JOKER] -= cm.jokers
                sub = self.solve()
                counts[JOKER] += cm.jokers
                if sub[0] < res[0] or (sub[0] == res[0] and len(sub[1]) + 1 < len(res[1])):
                    res = (sub[0], (cm,) + sub[1])
            for c in cm.naturals:
                counts[c] += 1
        inner[k] = res
        return res


def layoff_cards(meld: rules.TableMeld, v: FastRules) -> set[int]:
    """Natural cards that would extend a table meld, one at a time (`rules.melds`)."""
    return playout.fitting_naturals(playout.meld_from_model(meld), v.ace_high)
