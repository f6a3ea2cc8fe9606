"""legal_moves on meld-rich hands (random playouts rarely hold them): every listed move is
accepted by apply, including multi-meld openings and going-rummy partitions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.cards import CODES, JOKER, ints, make
from rules.reducer import deck_of


def _rich_game(variant: str, seed: int) -> rules.GameState:
    """Seat 0 holds 12-14 cards made of random runs and sets (some with jokers)."""
    rng = random.Random(seed)
    pack = list(ints(deck_of(variant)))
    hand: list[int] = []
    while len(hand) < 12:
        if rng.random() < 0.5:
            suit, low = rng.randrange(4), rng.randint(1, 11)
            cards = [make(suit, r) for r in range(low, min(low + rng.randint(3, 5), 14))]
        else:
            rank = rng.randint(1, 13)
            cards = [make(s, rank) for s in rng.sample(range(4), rng.randint(3, 4))]
        if rng.random() < 0.3:
            cards[rng.randrange(len(cards))] = JOKER
        fits = all(pack.count(c) >= cards.count(c) for c in set(cards))
        if fits and len(hand) + len(cards) <= 14:
            for c in cards:
                pack.remove(c)
            hand += cards
    rng.shuffle(pack)
    deal = rules.Deal(
        hands=(tuple(CODES[c] for c in hand), tuple(CODES[c] for c in pack[:10])),
        discard=(CODES[pack[10]],),
        stock=tuple(CODES[c] for c in pack[11:]),
    )
    return rules.new_game(variant, 2, seed=b"rich", deal=deal)


@pytest.mark.parametrize("variant", ["classic", "basic", "rummy51"])
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_listed_move_on_a_meld_rich_hand_is_accepted(variant: str, seed: int) -> None:
    s = rules.apply(_rich_game(variant, seed), 0, rules.Draw(source="stock"))
    rng = random.Random(seed)
    for _ in range(3):
        if s.phase != "play" or s.turn != 0:
            break
        moves = list(rules.legal_moves(rules.seat_view(s, 0)))
        for move in moves:
            after = rules.apply(s, 0, move)
            if move.type == "meld" and variant == "rummy51" and not s.opened[0]:
                left = len(after.hands[0])
                opening = rules.get_variant(variant).opening_values
                assert opening is not None
                value = sum(
                    opening[c[0]]
                    for m in after.melds[len(s.melds):] for c in m.stands_for
                )  # fmt: skip
                assert value >= 51 or left == 1
        melds = [m for m in moves if m.type in ("meld", "layoff")]
        if not melds:
            break
        s = rules.apply(s, 0, rng.choice(melds))
