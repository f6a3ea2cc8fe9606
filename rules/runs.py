"""Run adjacency and the ace's two ranks: which cards sit next to which in a run.

A run's ranks go from 1 (the ace played low) to 13 (the king), and on to `HIGH_ACE` (14, the
ace above the king) in a variant whose runs may end Q-K-A (`RuleSet.ace_high`); never K-A-2.
The engine reads runs this way (`rules.melds`); bots ask here instead of counting ranks.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import JOKER, make

HIGH_ACE = 14
DELTAS = (-2, -1, 1, 2)


def top_rank(ace_high: bool) -> int:
    """The highest rank a run may reach: the high ace, or the king."""
    return HIGH_ACE if ace_high else 13


def _neighbour(card: int, delta: int, ace_high: bool) -> int | None:
    rank = card % 13 + 1
    r = rank + delta
    if ace_high and rank == 1 and delta < 0:
        r = HIGH_ACE + delta  # below the high ace: the king, the queen
    if r < 1 or r > top_rank(ace_high):
        return None
    return make(card // 13, r)


_NEIGHBOURS = {
    (ah, c, d): _neighbour(c, d, ah) for ah in (False, True) for c in range(JOKER) for d in DELTAS
}
_NEAR = {
    (ah, c): frozenset(n for d in DELTAS if (n := _NEIGHBOURS[(ah, c, d)]) is not None)
    for ah in (False, True)
    for c in range(JOKER)
}


def neighbour(card: int, delta: int, ace_high: bool) -> int | None:
    """The natural card `delta` (-2, -1, 1 or 2) ranks from `card` in a run of its suit, or
    None past either end. With `ace_high` an ace has the 2 and 3 above it and the king and
    queen below it (the high ace), and a king has the ace above it."""
    return _NEIGHBOURS[(ace_high, card, delta)]


def run_neighbours(card: int, ace_high: bool) -> frozenset[int]:
    """The natural cards within two ranks of `card` in a run of its suit (both sides)."""
    return _NEAR[(ace_high, card)]


def run_start(layout: Sequence[int]) -> int:
    """The rank of the first position of a run laid out ascending, jokers in their places
    (as `rules.meldsearch.single_melds` lays runs out): an ace after another position is
    the high ace."""
    i = next(k for k, c in enumerate(layout) if c != JOKER)
    rank = layout[i] % 13 + 1
    if rank == 1 and i > 0:
        rank = HIGH_ACE
    return rank - i
