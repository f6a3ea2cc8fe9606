"""Complete fixed deals for the browser tests, built from the cards a test cares about."""

from __future__ import annotations

from typing import Any

from rummytest import pack

import rules


def deal(
    variant: str,
    hands: list[list[str]],
    discard: list[str],
    stock_top: list[str] | None = None,
) -> dict[str, Any]:
    """Every card of the pack exactly once: the given hands (filled up from the rest of the
    pack when short), the discard pile (top last) and the stock (top first)."""
    size = rules.get_variant(variant).hand_size[len(hands)]
    left = pack(variant)
    wanted = [c for h in hands for c in h] + discard + (stock_top or [])
    for card in wanted:
        left.remove(card)
    full = []
    for hand in hands:
        hand = list(hand)
        while len(hand) < size:
            hand.append(left.pop(0))
        full.append(hand)
    return {"hands": full, "discard": discard, "stock": (stock_top or []) + left}


def value(cards: list[str]) -> int:
    """classic: ace 1, J/Q/K 10, others their number."""
    points = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
    return sum(points.get(c[0], 0) or int(c[0]) for c in cards)
