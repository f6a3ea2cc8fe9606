"""The expert's price of a hand: expected points and turns it still costs, given what is live.

`HandEval.cost(hand)` splits the hand into its cheapest melds and prices every card left over
by its points (the exposure if an opponent goes out) plus a per-card tempo (each leftover is
a turn away from going out), discounted by the chance the card still joins a meld: its *outs*,
the live cards that would complete a pair or a near-run, weighted by how likely we draw them.
Before rummy51's opening, the points the split still misses towards 51 cost extra; a natural
that a table run's joker stands for is priced as that joker (`Knowledge.with_swaps`). With
`race`, the draws left are capped at `race` times the nearest opponent's card count.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.knowledge import Knowledge
from bots.melds import Splitter
from rules import playout
from rules.playout import JOKER
from rules.runs import neighbour


class HandEval:
    def __init__(
        self,
        know: Knowledge,
        splitter: Splitter,
        *,
        exposure: float = 1.0,
        tempo: float = 3.0,
        draw_chance: float | None = None,
        opening_weight: float = 0.4,
        race: float = 0.0,
    ) -> None:
        self.k = know
        self.sp = splitter
        self.v = know.v
        self.exposure = exposure
        self.tempo = tempo
        self.opening_weight = opening_weight
        self.feed_weight = 8.0  # what feeding the next player costs (set by the strategy)
        view = know.view
        self.opened = bool(view.opened[view.seat]) if view.opened else True
        if draw_chance is None:
            # About how many more draws we get out of the live cards.
            turns_left = max(2.0, min(10.0, view.stock_count / max(1, view.players)))
            others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
            if race and others:
                # An opponent close to going out leaves us few turns to fill our melds.
                turns_left = min(turns_left, max(1.0, race * min(others)))
            draw_chance = min(0.6, turns_left / know.unseen_total * 1.3)
        self.p = draw_chance
        self._cache: dict[tuple[int, ...], float] = {}

    def opened_copy(self) -> HandEval:
        """The same prices for a seat that has opened (rummy51)."""
        twin = HandEval(
            self.k,
            self.sp,
            exposure=self.exposure,
            tempo=self.tempo,
            draw_chance=self.p,
            opening_weight=self.opening_weight,
        )
        twin.opened = True
        twin.feed_weight = self.feed_weight
        return twin

    def outs(self, card: int, others: Sequence[int]) -> float:
        """Weighted live cards that would put `card` into a meld with the other leftovers."""
        k = self.k
        if card in k.targets:
            return 1.5
        r, s = playout.rank_of(card), playout.suit_of(card)
        ah = self.v.ace_high
        other_set = set(others)
        same_suits = {playout.suit_of(o) for o in others if o != JOKER and playout.rank_of(o) == r}
        same_suits.discard(s)
        w = 0.0
        if same_suits:
            for t in range(4):
                if t != s and t not in same_suits:
                    w += k.drawable(playout.make(t, r))
        else:
            w += 0.15 * sum(k.drawable(playout.make(t, r)) for t in range(4) if t != s)
        lo1, hi1 = neighbour(card, -1, ah), neighbour(card, 1, ah)
        lo2, hi2 = neighbour(card, -2, ah), neighbour(card, 2, ah)
        run = 0.0
        if hi1 is not None and hi1 in other_set:
            run += self._d(lo1) + self._d(hi2)
        if lo1 is not None and lo1 in other_set:
            run += self._d(lo2) + self._d(hi1)
        if hi2 is not None and hi2 in other_set and hi1 not in other_set:
            run += self._d(hi1)
        if lo2 is not None and lo2 in other_set and lo1 not in other_set:
            run += self._d(lo1)
        if run == 0.0:
            run = 0.12 * (self._d(lo1) + self._d(hi1))
        w += run
        if self.v.has_jokers:
            w += 0.5 * k.drawable(JOKER)
        return w

    def _d(self, c: int | None) -> float:
        return 0.0 if c is None else self.k.drawable(c)

    def cost(self, hand: Sequence[int]) -> float:
        key = tuple(sorted(hand))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        played = tuple(sorted(self.k.with_swaps(key))) if self.k.swappable else key
        _, melds = self.sp.best(played)
        left = list(played)
        for cm in melds:
            for c in cm.layout:
                left.remove(c)
        pts = self.v.card_values
        total = 0.0
        miss = 1.0 - self.p
        playable = not self.v.opening_min or self.opened
        targets = self.k.targets
        for c in left:
            if c == JOKER:
                total += 2.0
                continue
            if playable and c in targets:
                continue  # laid off this turn
            q = 1.0 - miss ** self.outs(c, left)
            total += (self.exposure * pts[c] + self.tempo) * (1.0 - q)
        if self.v.opening_min and not self.opened:
            got = sum(cm.value for cm in melds)
            total += self.opening_weight * max(0, self.v.opening_min - got)
        self._cache[key] = total
        return total
