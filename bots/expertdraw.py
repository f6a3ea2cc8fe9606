"""The expert's draw: the top discard or the stock (`bots.expert`'s static choice).

classic/basic weigh the top discard's sure price against a weighted sample of the unseen cards
the stock may give; rummy51 takes it only when it melds or lays off now (or is the natural
for a table run's joker). Where the top discard could matter at all (`draw_in_doubt`), the
expert may search the two draws further (`bots.search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

from bots.evaluate import HandEval
from bots.greedy import splitter_for
from bots.knowledge import Knowledge
from rules import Draw, playout
from rules.playout import JOKER
from rules.runs import DELTAS, neighbour

if TYPE_CHECKING:
    from rules import Move, SeatView


def without(hand: Sequence[int], taken: Sequence[int]) -> list[int]:
    """`hand` less one copy of each card of `taken`."""
    rest = list(hand)
    for c in taken:
        rest.remove(c)
    return rest


def sources(draws: Sequence[Draw]) -> list[Draw]:
    """The two draws as [stock, discard]."""
    return sorted(draws, key=lambda m: m.source != "stock")


def draw_in_doubt(view: SeatView, know: Knowledge) -> bool:
    """Whether the top discard could matter at all (else the stock, without search).

    rummy51's draw is never searched: its rule (the pile's top when it melds, lays off
    or takes a joker) is sure, and the rollouts, where our seat plays greedy, open at
    once and take what greedy takes. Paired on seed 13's 300 deals, searching the draw
    cost 3.2 [+-3.3] points of hands won and 4.0 [+-2.4] points a hand of the margin
    over the field.
    """
    if view.discard_top is None or know.v.opening_min:
        return False
    top = playout.code_to_int(view.discard_top)
    return top != JOKER and top in related(know.hand, know)


def best_after(know: Knowledge, ev: HandEval, hand: list[int], keep: int | None) -> float:
    """The price of `hand` after its best discard (never `keep`, the card just taken).

    Only the three costliest leftovers are tried: a bot keeps its cheap spare cards.
    """
    split_left = splitter_for(know.v.name).leftovers(hand)
    options = [c for c in set(split_left) if c != keep and c != JOKER]
    if not options:
        options = [c for c in set(hand) if c != keep] or list(hand)
    points = know.v.card_values
    options.sort(key=lambda c: -points[c])
    return min(
        ev.cost(without(hand, [c])) + ev.feed_weight * know.feed_chance(c) for c in options[:3]
    )


def choose_draw(
    view: SeatView,
    draws: Sequence[Draw],
    know: Knowledge,
    ev: HandEval,
    rng: Random,
    *,
    sure_melds: bool,
    draw_samples: int,
) -> Move:
    """The expert's static draw (module doc); `bots.expert` may search it further."""
    from_discard = [m for m in draws if m.source == "discard"]
    from_stock = [m for m in draws if m.source == "stock"]
    if not from_discard or not from_stock or view.discard_top is None:
        return (from_stock or from_discard)[0]
    top = playout.code_to_int(view.discard_top)
    if top == JOKER:
        return from_discard[0]
    hand = know.hand
    if know.v.opening_min:
        # rummy51 (measured against greedy): a discard is worth taking when it melds or
        # lays off now; a guess at partial melds costs more than the stock card gives.
        return from_discard[0] if sure_gain(view, know, top) else from_stock[0]
    if sure_melds and top not in splitter_for(know.v.name).leftovers(hand + [top]):
        return from_discard[0]  # it completes a meld now: a sure card beats a guess
    near = related(hand, know)
    if top not in near:
        return from_stock[0]
    take = best_after(know, ev, hand + [top], keep=top)
    # The stock: a sample of the unseen cards that could matter, weighted by how likely
    # each is still to come; the others leave the hand as it is.
    base = ev.cost(hand)
    weights = [know.drawable(c) for c in range(playout.N_CODES)]
    total_w = sum(weights)
    rel = [c for c in near if weights[c] > 0]
    rel_w = sum(weights[c] for c in rel)
    if total_w <= 0 or not rel:
        return from_discard[0] if take < base - 0.5 else from_stock[0]
    picks = rng.choices(rel, weights=[weights[c] for c in rel], k=draw_samples)
    cap = base + ev.feed_weight
    sampled = sum(min(best_after(know, ev, hand + [c], None), cap) for c in picks)
    share = rel_w / total_w
    stock = share * sampled / len(picks) + (1.0 - share) * base
    return from_discard[0] if take < stock - 0.5 else from_stock[0]


def sure_gain(view: SeatView, know: Knowledge, top: int) -> bool:
    """Whether the top discard melds with our hand or lays off on the table right now,
    or takes a table run's joker (rummy51: the turn we open, if not now)."""
    if know.swappable.count(top) > know.hand.count(top):
        return True
    if top not in splitter_for(know.v.name).leftovers(know.hand + [top]):
        return True
    return (not know.v.opening_min or bool(view.opened[view.seat])) and top in know.targets


def related(hand: Sequence[int], know: Knowledge) -> set[int]:
    """Unseen cards that could change the hand's melds (same rank, near in suit)."""
    out: set[int] = set(know.targets)
    out.add(JOKER)
    ah = know.v.ace_high
    for c in hand:
        if c == JOKER:
            continue
        r = playout.rank_of(c)
        out.update(playout.make(t, r) for t in range(4))
        for d in DELTAS:
            n = neighbour(c, d, ah)
            if n is not None:
                out.add(n)
    return out
