"""What one seat knows at a decision: unseen cards, who probably holds what, what feeds whom.

Built from the seat's view and its `HandMemory` only. `live[c]` counts the copies of card `c`
that are not visible to the seat (not in its hand, on the table or known in the pile);
`held[s][c]` is the chance that a given unseen copy of `c` sits in seat `s`'s hand, raised to
certain for cards `s` took from the pile and still holds, and lowered for cards `s` declined or
threw away (a player rarely collects what it passes over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bots.memory import HandMemory
from bots.strategy import joker_stands, table_targets
from rules import playout
from rules.playout import JOKER, FastRules
from rules.runs import neighbour

if TYPE_CHECKING:
    from rules import SeatView


class Knowledge:
    def __init__(self, view: SeatView, memory: HandMemory, v: FastRules) -> None:
        self.view = view
        self.v = v
        self.me = view.seat
        self.hand = list(playout.ints(view.hand))
        seen = [0] * playout.N_CODES
        for c in self.hand:
            seen[c] += 1
        for meld in view.melds:
            for c in list(playout.ints(meld.cards)):
                seen[c] += 1
        pile = memory.pile_cards()
        if not pile and view.discard_top is not None:
            pile = [playout.code_to_int(view.discard_top)]
        for c in pile:
            seen[c] += 1
        # The discard pile as far as we know it, bottom first, ending with the top.
        self.pile = pile
        total = v.copies
        self.live = [max(0, total[c] - seen[c]) for c in range(playout.N_CODES)]
        self.unseen_total = max(1, sum(self.live))
        self.targets = table_targets(view, v)
        # rummy51: the natural each table run's joker stands for, one entry a joker. A held
        # copy plays as that joker in the turn we open (or later): the joker stays on the
        # table until somebody swaps it, and greedy never does.
        self.swappable = joker_stands(view) if v.joker_swap else []
        n = view.players
        self.declined = [set(memory.declined[s]) for s in range(n)]
        self.held: list[list[float]] = []
        for s in range(n):
            if s == self.me:
                self.held.append([0.0] * playout.N_CODES)
                continue
            known = [c for c in memory.picked[s] if self.live[c] > 0]
            free = max(0, view.hand_counts[s] - len(known))
            pool = max(1, self.unseen_total - len(known))
            base = free / pool
            row = [base] * playout.N_CODES
            for c in memory.declined[s] | set(memory.discarded[s]):
                row[c] *= 0.5
            for c in known:
                row[c] = 1.0
            self.held.append(row)
        others = [row for s, row in enumerate(self.held) if s != self.me]
        self._drawable = [
            self.live[c] * (1.0 - max((row[c] for row in others), default=0.0))
            if self.live[c]
            else 0.0
            for c in range(playout.N_CODES)
        ]

    def with_swaps(self, hand: Sequence[int]) -> list[int]:
        """`hand` as it plays once its naturals have taken the table runs' jokers."""
        out = list(hand)
        for natural in self.swappable:
            if natural in out:
                out.remove(natural)
                out.append(JOKER)
        return out

    def next_seat(self) -> int:
        return (self.me + 1) % self.view.players

    def drawable(self, c: int) -> float:
        """Expected unseen copies of `c` that are not in an opponent's hand."""
        return self._drawable[c]

    def feed_chance(self, card: int) -> float:
        """How likely the next player can use `card` if we discard it (meld it or lay it off)."""
        nxt = self.next_seat()
        v = self.v
        if card == JOKER:
            return 1.0
        if card in self.targets and (not v.opening_min or self.view.opened[nxt]):
            return 0.9
        row = self.held[nxt]
        live = self.live

        def p(c: int | None) -> float:
            if c is None or not live[c]:
                return 0.0
            return min(1.0, row[c] * live[c])

        r = playout.rank_of(card)
        same = [playout.make(s, r) for s in range(4) if playout.make(s, r) != card]
        miss = 1.0
        for i in range(len(same)):
            for j in range(i + 1, len(same)):
                miss *= 1.0 - p(same[i]) * p(same[j])
        ah = v.ace_high
        lo1, lo2 = neighbour(card, -1, ah), neighbour(card, -2, ah)
        hi1, hi2 = neighbour(card, 1, ah), neighbour(card, 2, ah)
        for a, b in ((lo2, lo1), (lo1, hi1), (hi1, hi2)):
            miss *= 1.0 - p(a) * p(b)
        if v.has_jokers:
            jk = p(JOKER)
            for c in same + [lo1, hi1, lo2, hi2]:
                miss *= 1.0 - jk * p(c) * 0.5
        if card in self.declined[nxt]:
            miss = 1.0 - (1.0 - miss) * 0.3
        return 1.0 - miss
