"""Fixed deals: every card of a variant's pack placed where a test wants it, and the hands
several tests deal (Anna's and Bob's, a human's against a bot, a hand that goes out in one
turn and its melds).

One function for the engine's tests (`rules.Deal.model_validate(fixed_deal(...))`) and for
the server's and the browser's (the `deal` body of `POST /api/rooms`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.reducer import deck_of

# The hands of the browser tests' classic online room of Anna and Bob (`rooms.full_room`,
# tests/web/test_online.py): Anna's (seat 0) holds two runs and a set of kings and the 5D,
# Bob's (seat 1) nothing that goes together.
ANNA = ["7H", "8H", "9H", "KS", "KD", "KC", "2C", "3C", "4C", "5D"]
BOB = ["TH", "AS", "3S", "5S", "7S", "9S", "JS", "2D", "4D", "6D"]

# A computer room's deal in which the human (seat 0) can go out on the first turn: draw the
# planted 9C, meld AH-4H, the fives and the sixes, discard the 9C (the accessibility and
# names tests play it to the hand's end; the bot never moves).
HUMAN = ["AH", "2H", "3H", "4H", "5C", "5D", "5S", "6C", "6D", "6S"]
BOT = ["TC", "TD", "TH", "TS", "JC", "JD", "JH", "JS", "QC", "QD"]

# Seat 0 holds three runs that use all ten (classic, basic) or thirteen (rummy51) cards:
# after drawing the planted stock card (deal it with `stock_top=["KS"]`) it melds
# everything (`MELDS`), discards that card and is out (`rooms.play_out_hand`).
OUT_IN_ONE_TURN = {
    "classic": [["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]],
    "basic": [["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8D", "9D", "TD"]],
    "rummy51": [["TH", "JH", "QH", "KH", "8C", "9C", "TC", "5D", "6D", "7D", "2S", "3S", "4S"]],
}
MELDS = {
    "classic": [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]],
    "basic": [["AH", "2H", "3H", "4H"], ["5C", "6C", "7C"], ["8D", "9D", "TD"]],
    "rummy51": [
        ["TH", "JH", "QH", "KH"],
        ["8C", "9C", "TC"],
        ["5D", "6D", "7D"],
        ["2S", "3S", "4S"],
    ],
}


def pack(variant: str) -> list[str]:
    """Every card of the variant's pack, in the pack's fixed order (suit by suit, A to K,
    each deck in turn, the jokers last)."""
    return list(deck_of(variant))


def fixed_deal(
    variant: str,
    hands: Sequence[Sequence[str]] | None = None,
    discard: Sequence[str] | None = None,
    stock_top: Sequence[str] = (),
    *,
    players: int | None = None,
    full_hands: bool = True,
    rest: bool = True,
) -> dict[str, Any]:
    """A deal with these hands (seat by seat), discard pile (top last) and stock top cards
    (top first); the rest of the pack comes in pack order.

    `players` defaults to the number of hands given (None: none given). With `full_hands`
    each seat's hand is filled up to the variant's hand size, then one discard is drawn when
    `discard` is None; the rest of the pack (when `rest`) goes under `stock_top`. The
    engine's tests pass `full_hands=False` to deal short hands, and `rest=False` to lay out
    every card themselves."""
    import rules

    hands = hands or ()
    seats = len(hands) if players is None else players
    left = pack(variant)
    given = [c for h in hands for c in h] + list(discard or ()) + list(stock_top)
    for card in given:
        left.remove(card)
    dealt = [list(h) for h in hands] + [[] for _ in range(seats - len(hands))]
    if full_hands:
        size = rules.get_variant(variant).hand_size[seats]
        for hand in dealt:
            while len(hand) < size:
                hand.append(left.pop(0))
    pile = [left.pop(0)] if discard is None else list(discard)
    return {"hands": dealt, "discard": pile, "stock": list(stock_top) + (left if rest else [])}


def value(cards: list[str]) -> int:
    """The cards' points in classic: ace 1, J/Q/K 10, others their number."""
    points = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
    return sum(points.get(c[0], 0) or int(c[0]) for c in cards)
