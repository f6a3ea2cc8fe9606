"""rummy51: a turn with jokers on the table never freezes.

A joker freed from a set or swapped out of a run must be played in the same turn, and the
turn must still end with a legal discard (RULES.md). So a lay-off or swap may be accepted
only if some way on exists. Random playouts seldom reach the states where this is tight (a
full table, the hand's last cards, a card taken from the pile), so this test builds such
states on purpose and walks every play of the turn on the fast engine: after each accepted
play the player must still have a legal move.
"""

from __future__ import annotations

import random
from collections import Counter

from rules.cards import JOKER, card_name, make
from rules.engine.fields import DISCARD, PLAY_PHASE, FastMove
from rules.engine.game import Game
from rules.engine.generate import generate
from rules.engine.switches import fast_rules
from rules.melds import read_meld

R = fast_rules("rummy51")
SCENARIOS = 1500
DEPTH = 4  # plays before the discard; the hands built here hold at most nine cards


class _Pack:
    """The cards handed out so far: two of each natural card and two jokers in all."""

    def __init__(self) -> None:
        self.used: Counter[int] = Counter()

    def take(self, cards: list[int]) -> bool:
        if any(self.used[c] + cards.count(c) > 2 for c in cards):
            return False
        self.used.update(cards)
        return True


def _joker_meld(rng: random.Random) -> tuple[list[int], list[int]]:
    """A meld holding a joker, and the natural cards that would free or swap it."""
    if rng.random() < 0.6:
        rank = rng.randrange(1, 14)
        suits = rng.sample(range(4), 2)
        missing = [make(s, rank) for s in range(4) if s not in suits]
        if rng.random() < 0.2:
            return [make(suits[0], rank), JOKER, JOKER], missing
        return [make(s, rank) for s in suits] + [JOKER], missing
    suit, low, n = rng.randrange(4), rng.randrange(1, 12), rng.choice((3, 3, 4))
    ranks = list(range(low, min(low + n, 15)))
    j = rng.randrange(len(ranks))
    return [JOKER if i == j else make(suit, x) for i, x in enumerate(ranks)], [make(suit, ranks[j])]


def _hand_cards(rng: random.Random) -> list[int]:
    """Cards that could take a joker (pairs, near runs, 2 and K), a joker, or any card."""
    r = rng.random()
    rank, suit = rng.randrange(1, 14), rng.randrange(4)
    if r < 0.35:
        return [make(s, rank) for s in rng.sample(range(4), 2)]
    if r < 0.55:
        return [make(suit, rank), make(suit, rank + rng.choice((1, 2)))]
    if r < 0.65:
        return [make(suit, 2), make(suit, 13)]
    if r < 0.72:
        return [JOKER]
    return [rng.randrange(52)]


def _scenario(rng: random.Random) -> Game:
    """Seat 0 in its play phase, opened, with jokers on the table it may be able to take."""
    pack = _Pack()
    table: list[list[int]] = []
    hand: list[int] = []
    for _ in range(rng.choice((1, 1, 2))):
        cards, freeing = _joker_meld(rng)
        if len(cards) >= 3 and pack.take(cards):
            table.append(cards)
            hand += [c for c in freeing if rng.random() < 0.85 and pack.take([c])]
    for _ in range(rng.randrange(4)):  # mostly full sets: no room for a joker
        rank = rng.randrange(1, 14)
        cards = [make(s, rank) for s in rng.sample(range(4), rng.choice((4, 4, 4, 3)))]
        if pack.take(cards):
            table.append(cards)
    for _ in range(rng.randrange(1, 6)):
        cards = _hand_cards(rng)
        if pack.take(cards):
            hand += cards
    if not hand:
        hand = [rng.randrange(52)]
    naturals = [c for c in hand if c != JOKER]
    drawn = rng.choice(naturals) if naturals and rng.random() < 0.5 else -1
    melds = [
        read_meld(cards, R.ace_high, R.distinct).with_id(i + 1) for i, cards in enumerate(table)
    ]
    return Game(R, 2, b"joker turns", hands=[hand, [0, 1, 2]], stock=[3, 4, 5], discard=[6],
                melds=melds, next_meld_id=len(melds) + 1, phase=PLAY_PHASE, turn=0,
                opened=[True, True], has_played=[True, True],
                drawn_from_discard=drawn)  # fmt: skip


def _frozen_after(g: Game, plays: list[FastMove], depth: int) -> list[FastMove] | None:
    """The plays after which seat 0 has no legal move, if any (depth-first, to `depth`)."""
    moves = generate(g, 0)
    if not moves:
        return plays
    for move in moves if depth else ():
        if move[0] == DISCARD:
            continue
        after = g.copy()
        after.apply(0, move)  # every listed move is legal
        if after.phase == PLAY_PHASE:
            frozen = _frozen_after(after, [*plays, move], depth - 1)
            if frozen is not None:
                return frozen
    return None


def test_after_every_play_with_jokers_on_the_table_a_legal_move_remains() -> None:
    rng = random.Random("joker turns")
    walked = 0
    for _ in range(SCENARIOS):
        g = _scenario(rng)
        if not generate(g, 0):
            continue  # a start no real turn could reach (e.g. only the drawn card in hand)
        walked += 1
        frozen = _frozen_after(g, [], DEPTH)
        hand = " ".join(card_name(c) for c in g.hands[0])
        assert frozen is None, f"no legal move after {frozen}; hand {hand}, table {g.melds}"
    assert walked > SCENARIOS * 0.9
