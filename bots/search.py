"""Determinized rollouts: the expert's search over a few candidate lines of play.

A *sample* deals the cards the seat cannot see consistently with what it knows
(`bots.knowledge`): the cards an opponent took from the pile and still holds stay in that
opponent's hand, the rest of the unseen multiset is shuffled into the other hands (their
sizes are public), the stock and the buried discards. That gives a whole engine `Game`
(`rules.playout.determinize_game`); each candidate line (our moves of this turn) is applied to
a copy and the hand is played out by the greedy rollout policy (`bots.rollout`) for every
seat. Every candidate meets the same samples (common random numbers), so the differences
between candidates are far less noisy than their values.

The search is bounded by a sample count (tournaments: reproducible) and optionally by a
deadline on `time.perf_counter()` (the server's time budget).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from random import Random

import rules
from bots.knowledge import Knowledge
from bots.rollout import play_out
from rules import playout
from rules.playout import FastMove, Game

# Turns a rollout plays after a candidate line before the position is priced: a short
# horizon keeps the noise of the stock's luck out of the comparison between candidates.
HORIZON = 2
# Below this many samples a deadline does not stop the search (one sample decides nothing).
MIN_SAMPLES = 2
# The server's search stops early once the leader beats the runner-up by this many standard
# errors of their paired difference, after at least SETTLE_AFTER samples.
SETTLE_Z = 3.0
SETTLE_AFTER = 16


def _sample_hands(know: Knowledge, rng: Random) -> tuple[list[list[int]], list[int]]:
    """(hands by seat, the rest shuffled) consistent with the seat's knowledge."""
    view = know.view
    n = view.players
    pool: list[int] = []
    for c in range(playout.N_CODES):
        pool.extend([c] * know.live[c])
    hands: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        if s == know.me:
            continue
        for c in range(playout.N_CODES):
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


def sample_game(know: Knowledge, rng: Random) -> Game | None:
    """A whole game dealt from one sample of the hidden cards, or None when the sample does
    not add up to the pack (memory lost track of a card)."""
    view = know.view
    hands, rest = _sample_hands(know, rng)
    stock, buried = rest[: view.stock_count], rest[view.stock_count :]
    others = [[] if s == know.me else list(playout.codes(h)) for s, h in enumerate(hands)]
    discard = playout.codes(buried + know.pile)
    # The seed only drives reshuffles inside the rollout; any fixed value keeps it
    # reproducible, and it is never the real game's (a view does not hold that).
    seed = rng.getrandbits(64).to_bytes(8, "big")
    try:
        return playout.determinize_game(view, others, playout.codes(stock), discard, seed)
    except rules.IllegalMove:
        return None


def _paid(g: Game, seat: int) -> float:
    """What seat `seat` pays at the end of a finished hand (its points against it)."""
    res = g.hand_result
    assert res is not None
    if g.r.penalty:
        return float(res.points[seat])
    if res.winner is None:
        return 0.0
    return -float(res.points[seat]) if seat == res.winner else float(res.points[res.winner])


def leaf_value(g: Game, me: int, price: Callable[[Sequence[int]], float]) -> float:
    """The position's worth to seat `me` in points: the others' price minus ours.

    A finished hand prices each seat by what it pays (the winner's score counts for it);
    an unfinished one by `price` (the expert's hand evaluation) of each hand.
    """
    n = g.players
    if g.hand_result is not None:
        cost = [_paid(g, s) for s in range(n)]
    else:
        cost = [price(h) for h in g.hands]
    others = [c for s, c in enumerate(cost) if s != me]
    return sum(others) / max(1, len(others)) - cost[me]


def _is_settled(per_sample: Sequence[Sequence[float]]) -> bool:
    """Whether the best line's lead over the second is clear beyond the sampling noise.

    >>> _is_settled([[5.0, 1.0], [6.0, 1.5]] * 8)
    True
    >>> _is_settled([[5.0, 1.0], [0.0, 4.0]] * 8)
    False
    """
    n = len(per_sample)
    if n < SETTLE_AFTER or len(per_sample[0]) < 2:
        return n >= SETTLE_AFTER
    means = [sum(col) / n for col in zip(*per_sample, strict=True)]
    order = sorted(range(len(means)), key=lambda i: -means[i])
    best, second = order[0], order[1]
    diffs = [row[best] - row[second] for row in per_sample]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > SETTLE_Z * math.sqrt(var / n)


def evaluate(
    know: Knowledge,
    lines: Sequence[Sequence[FastMove]],
    rng: Random,
    price: Callable[[Sequence[int]], float],
    *,
    samples: int,
    deadline: float | None = None,
    horizon: int = HORIZON,
) -> tuple[list[float], int]:
    """Mean rollout value of each candidate line (our moves this turn) and the samples used.

    A line that turns out illegal in a sample (it should not: every line starts with moves
    from the seat's legal list) is priced at the worst value seen. Against a deadline (the
    server) the search also stops once the leader is clear (`_is_settled`); bounded by
    samples alone (tournaments, reviews) it always takes them all.
    """
    me = know.me
    sums = [0.0] * len(lines)
    per_sample: list[list[float]] = []
    done = 0
    tries = 0
    while done < samples and tries < 2 * samples:
        if deadline is not None and done >= MIN_SAMPLES:
            if time.perf_counter() >= deadline or _is_settled(per_sample):
                break
        tries += 1
        base = sample_game(know, rng)
        if base is None:
            continue
        values = []
        for line in lines:
            g = base.copy()
            try:
                for move in line:
                    g.apply(me, move)
                play_out(g, horizon)
                values.append(leaf_value(g, me, price))
            except rules.IllegalMove:
                values.append(-1000.0)
        for i, value in enumerate(values):
            sums[i] += value
        per_sample.append(values)
        done += 1
    if not done:
        return [0.0] * len(lines), 0
    return [s / done for s in sums], done
