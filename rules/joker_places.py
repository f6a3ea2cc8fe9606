"""Runs a hand may also lay with a joker in the place of a natural card it holds: holding
8H 9H TH and a joker, the run 8H JK TH (the joker as 9H, keeping 9H for another meld).

The meld search (`rules.meldsearch`) never puts a joker where the hand holds the natural
card: for the bots' playouts that is never the better play, and leaving it out keeps their
search small. But the server accepts such a run, and a seat's `legal.melds` is every single
meld the hand can lay now (docs/api.md v1.1), which a person's page offers as it is listed: so
the view lists these too (`rules.view`), each checked by the engine as any listed move is.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.cards import JOKER
from rules.engine.fields import MELD
from rules.engine.game import Game
from rules.errors import IllegalMove
from rules.melds import read_meld

Cand = tuple[tuple[int, ...], int]  # (cards in reading order, a value carried along)


def joker_places(g: Game, seat: int, runs: Iterable[Cand], playable: bool) -> list[Cand]:
    """The runs among `runs` with one inner natural card given up for a joker the hand
    also holds, each keeping its value (the joker stands for that card). `playable`: only
    those `seat` may lay as a move now (else every valid run, as rummy51's opening lists).
    """
    hand = g.hands[seat]
    jokers = hand.count(JOKER)
    if not jokers:
        return []
    r = g.r
    out: list[Cand] = []
    seen: set[tuple[int, ...]] = set()
    for cards, value in runs:
        naturals = [c for c in cards if c != JOKER]
        # A set (one rank) has no inner place of its own; its jokers are listed already.
        if len(naturals) < 3 or len(set(naturals)) == 1 or cards.count(JOKER) >= jokers:
            continue
        if all(c % 13 == naturals[0] % 13 for c in naturals):
            continue
        for i in range(1, len(cards) - 1):
            if cards[i] == JOKER:
                continue
            variant = (*cards[:i], JOKER, *cards[i + 1 :])
            key = tuple(sorted(variant))
            if key in seen or len(variant) - variant.count(JOKER) < 2:
                continue
            seen.add(key)
            try:
                if not read_meld(variant, r.ace_high, r.distinct).is_run:
                    continue
                if playable:
                    g.copy().apply(seat, (MELD, (variant,)))
            except IllegalMove:
                continue
            out.append((variant, value))
    return out
