"""Meld arithmetic for the bots: which melds a hand holds, its cheapest split, lay-off targets.

This is the bots' estimate of a hand, tuned for speed (small ints, memo on count vectors).
Legality is never decided here: a strategy only ever picks among `rules.legal_moves(view)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from bots.cards import JOKER, Variant, rank, suit


@dataclass(frozen=True, slots=True)
class Combo:
    """A meld a hand could lay: its natural cards, how many jokers, and the wire order."""

    naturals: tuple[int, ...]
    jokers: int
    kind: str  # "set" | "run"
    layout: tuple[int, ...]  # card ints in table order, JOKER where a joker stands
    start: int = 0  # runs: the position of the first card (1 = low ace .. 14 = high ace)

    @property
    def size(self) -> int:
        return len(self.layout)


def _run_card(s: int, pos: int) -> int:
    # Position 14 is the high ace (rummy51 only).
    return s * 13 + (0 if pos == 14 else pos - 1)


def candidate_melds(hand: Sequence[int], v: Variant) -> list[Combo]:
    """Every set and run the hand could form (one copy of each natural card per meld).

    Jokers fill gaps of runs, the ends of three-card runs and missing suits of sets; a meld
    always keeps at least two natural cards (a bot never wastes two jokers on one card).
    """
    counts = [0] * 53
    for c in hand:
        counts[c] += 1
    jokers = counts[JOKER]
    out: list[Combo] = []
    top = 14 if v.ace_high else 13
    for s in range(4):
        present = [False] + [counts[_run_card(s, p)] > 0 for p in range(1, top + 1)] + [False]
        if not jokers:
            _plain_runs(s, present, top, out)
            continue
        for start in range(1, top - 1):
            missing = 0
            for end in range(start, top + 1):
                if not present[end]:
                    missing += 1
                if missing > jokers:
                    break
                length = end - start + 1
                if length < 3 or (start == 1 and end == 14):
                    continue
                if missing and length > 3 and not (present[start] and present[end]):
                    continue
                if length - missing < 2:
                    continue
                layout = tuple(
                    _run_card(s, p) if present[p] else JOKER for p in range(start, end + 1)
                )
                naturals = tuple(sorted(c for c in layout if c != JOKER))
                out.append(Combo(naturals, missing, "run", layout, start))
    for r in range(13):
        suited = [s * 13 + r for s in range(4) if counts[s * 13 + r] > 0]
        for n in range(2, len(suited) + 1):
            for nat in combinations(suited, n):
                for size in range(max(3, n), 5):
                    need = size - n
                    if need > jokers:
                        break
                    out.append(Combo(nat, need, "set", nat + (JOKER,) * need))
    return out


def _plain_runs(s: int, present: list[bool], top: int, out: list[Combo]) -> None:
    """Runs without jokers: every stretch of 3+ inside each unbroken segment."""
    p = 1
    while p <= top:
        if not present[p]:
            p += 1
            continue
        q = p
        while present[q + 1]:
            q += 1
        for start in range(p, q - 1):
            for end in range(start + 2, q + 1):
                if start == 1 and end == 14:
                    continue
                layout = tuple(_run_card(s, x) for x in range(start, end + 1))
                out.append(Combo(tuple(sorted(layout)), 0, "run", layout, start))
        p = q + 1


class Splitter:
    """Cheapest split of a hand into melds and deadwood, memoised per hand.

    `cost` gives each card's price when left over (points in hand for the variant).
    """

    def __init__(self, v: Variant, cost: Sequence[int] | None = None) -> None:
        self.v = v
        self.cost = tuple(cost) if cost is not None else v.points
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
        counts = [0] * 53
        for c in key:
            counts[c] += 1
        cost = self.cost
        inner: dict[bytes, tuple[int, tuple[Combo, ...]]] = {}

        def solve() -> tuple[int, tuple[Combo, ...]]:
            k = bytes(counts)
            got = inner.get(k)
            if got is not None:
                return got
            first = -1
            for c in range(52):
                if counts[c]:
                    first = c
                    break
            if first < 0:
                res: tuple[int, tuple[Combo, ...]] = (counts[JOKER] * cost[JOKER], ())
                inner[k] = res
                return res
            counts[first] -= 1
            sub = solve()
            counts[first] += 1
            res = (sub[0] + cost[first], sub[1])
            for cm in by_first.get(first, ()):
                if cm.jokers > counts[JOKER]:
                    continue
                ok = True
                for c in cm.naturals:
                    counts[c] -= 1
                    if counts[c] < 0:
                        ok = False
                if ok:
                    counts[JOKER] -= cm.jokers
                    sub = solve()
                    counts[JOKER] += cm.jokers
                    if sub[0] < res[0] or (sub[0] == res[0] and len(sub[1]) + 1 < len(res[1])):
                        res = (sub[0], (cm,) + sub[1])
                for c in cm.naturals:
                    counts[c] += 1
            inner[k] = res
            return res

        result = solve()
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


def layoff_cards(stands_for: Sequence[int], kind: str, v: Variant) -> set[int]:
    """Natural cards that would extend a table meld, given the cards its positions stand for."""
    out: set[int] = set()
    if not stands_for:
        return out
    if kind == "set":
        if len(stands_for) >= 4:
            return out
        r = rank(stands_for[0])
        have = {suit(c) for c in stands_for}
        return {s * 13 + r - 1 for s in range(4) if s not in have}
    s = suit(stands_for[0])
    ranks = [rank(c) for c in stands_for]
    # A run holding a king and an ace holds the high ace (rummy51).
    positions = [14 if r == 1 and 13 in ranks else r for r in ranks]
    low, high = min(positions), max(positions)
    if low > 1:
        out.add(_run_card(s, low - 1))
    if high < 13 or (v.ace_high and high == 13):
        out.add(_run_card(s, high + 1))
    return out
