"""Determinized look-ahead for the expert's discard: a fixed number of samples, cut short by
an optional deadline (the server's time budget; tournaments leave it out to stay reproducible).

Each sample deals the unseen cards consistently with what the seat knows: the cards an
opponent took from the pile and still holds stay in that opponent's hand, the rest of the
unseen multiset is shuffled into the other hands (their sizes are public) and the stock.
For each close candidate discard it then plays the next round out with a greedy model of the
opponents: does the next player take our discard (it melds in their sampled hand or extends a
table meld)? what do they throw? which card do we draw next, and what is our hand worth then?

The sampled value is averaged with the static price, so a few samples refine the choice
without letting noise overturn a clear one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

import rules
from bots.evaluate import HandEval
from bots.greedy import splitter_for
from bots.knowledge import Knowledge
from bots.strategy import has_partner
from rules import fast
from rules.fast import JOKER

if TYPE_CHECKING:
    from rules import Discard, Move

MARGIN = 6.0
MAX_CANDIDATES = 3


def _sample(know: Knowledge, rng: Random) -> tuple[list[list[int]], list[int]]:
    """(hands by seat, stock top first) consistent with the seat's knowledge."""
    view = know.view
    n = view.players
    pool: list[int] = []
    for c in range(fast.N_CODES):
        pool.extend([c] * know.live[c])
    hands: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        if s == know.me:
            continue
        for c in range(fast.N_CODES):
            if know.held[s][c] >= 1.0 and c in pool and len(hands[s]) < view.hand_counts[s]:
                pool.remove(c)
                hands[s].append(c)
    rng.shuffle(pool)
    for s in range(n):
        if s == know.me:
            continue
        need = view.hand_counts[s] - len(hands[s])
        hands[s].extend(pool[:need])
        del pool[:need]
    return hands, pool


def _greedy_discard(hand: list[int], ace_high: bool, points: Sequence[int], variant: str) -> int:
    left = splitter_for(variant).leftovers(hand)
    pick = [c for c in left if c != JOKER] or [c for c in hand if c != JOKER] or hand
    return max(pick, key=lambda c: (not has_partner(c, left, ace_high), points[c]))


def _sample_game(know: Knowledge, rng: Random) -> fast.Game | None:
    """A whole game dealt from one sample (`rules.fast.determinize_game`), or None when the
    sample does not add up to the pack (memory lost track of a card)."""
    view = know.view
    hands, rest = _sample(know, rng)
    stock, buried = rest[: view.stock_count], rest[view.stock_count :]
    others = [[] if s == know.me else list(fast.codes(h)) for s, h in enumerate(hands)]
    discard = fast.codes(buried + know.pile)
    try:
        return fast.determinize_game(view, others, fast.codes(stock), discard, b"lookahead")
    except rules.IllegalMove:
        return None


def refine_discard(
    know: Knowledge,
    ev: HandEval,
    scored: Sequence[tuple[float, Discard]],
    rng: Random,
    deadline: float | None,
    max_samples: int,
    feed_weight: float,
) -> Move:
    """The best of `scored` ((static cost, discard move), cheapest first) after sampling.

    Each sample is a real engine game: our discard and the next player's draw are applied
    to it, so the stock's top, an empty stock and its reshuffle follow the rules.
    """
    best_cost = scored[0][0]
    close = [(c, m) for c, m in scored if c <= best_cost + MARGIN][:MAX_CANDIDATES]
    if len(close) < 2:
        return scored[0][1]
    v = know.v
    view = know.view
    nxt = know.next_seat()
    sp = splitter_for(v.name)
    can_lay = not v.opening_min or view.opened[nxt]
    sums = [0.0] * len(close)
    samples = 0
    while samples < max_samples and (
        deadline is None or samples < 2 or time.perf_counter() < deadline
    ):
        game = _sample_game(know, rng)
        if game is None or len(game.stock) < 2:
            break
        their = list(game.hands[nxt])
        their_dead = sp.deadwood(their)
        for i, (_, move) in enumerate(close):
            x = fast.code_to_int(move.card)
            taken = (can_lay and x in know.targets) or (
                x == JOKER or sp.deadwood(their + [x]) < their_dead + v.card_values[x] - 1
            )
            g = game.copy()
            try:
                g.apply(know.me, (fast.DISCARD, x))
                later = g.stock[-view.players :][::-1]  # top first, as far as we will see
                g.apply(nxt, (fast.DRAW, fast.SRC_DISCARD if taken else fast.SRC_STOCK))
            except rules.IllegalMove:  # the hand ends with this discard (e.g. the turn limit)
                sums[i] += close[i][0]
                continue
            mine = list(g.hands[know.me])
            after = g.hands[nxt]
            y: int | None = _greedy_discard(
                [c for c in after if c != x] or after if taken else after,
                v.ace_high,
                v.card_values,
                v.name,
            )
            nxt_card = g.stock[-1]
            if view.players > 2:
                # Others play in between: we see a stock card further down.
                y = None
                nxt_card = later[-1]
            options = [mine + [nxt_card]]
            if y is not None:
                options.append(mine + [y])
            value = min(_after_discard(ev, hand) for hand in options)
            sums[i] += value + (feed_weight if taken else 0.0)
        samples += 1
    if not samples:
        return scored[0][1]
    final = [(0.5 * c + 0.5 * sums[i] / samples, i) for i, (c, _) in enumerate(close)]
    return close[min(final)[1]][1]


def _after_discard(ev: HandEval, hand: list[int]) -> float:
    """Our price after drawing into `hand` and throwing what a greedy player would."""
    v = ev.v
    rest = list(hand)
    rest.remove(_greedy_discard(hand, v.ace_high, v.card_values, v.name))
    return ev.cost(rest)
