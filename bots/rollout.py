"""The rollout policy of the expert's search: greedy play on the fast engine's `Game`.

The search plays thousands of moves per decision, so this is `bots.greedy` again on engine
ints and tuples (no pydantic, no views): take the top discard when it melds or lays off,
lay the meld that leaves the least deadwood, lay off the longest extension, and throw the
dearest card that has no partner. `play_out` runs it for every seat until the hand ends or a
turn horizon is reached.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.greedy import splitter_for
from bots.melds import Splitter
from bots.strategy import has_partner
from rules import playout
from rules.playout import JOKER, FastMove, Game

# A guard against a policy loop inside one turn (a turn of ours never needs this many plays).
MAX_PLAYS_PER_TURN = 30


def _targets(g: Game) -> set[int]:
    ah = g.r.ace_high
    out: set[int] = set()
    for m in g.melds:
        out |= playout.fitting_naturals(m, ah)
    return out


def _may_lay_off(g: Game, seat: int) -> bool:
    return g.r.layoff_before_open or g.opened[seat]


def draw_move(g: Game, seat: int, sp: Splitter) -> FastMove:
    """Greedy's draw: the top discard when it melds now or extends a table meld."""
    if g.discard:
        top = g.discard[-1]
        if top == JOKER or not (g.stock or g.r.exhaustion == 0):
            return (playout.DRAW, playout.SRC_DISCARD)
        hand = g.hands[seat]
        if top not in sp.leftovers([*hand, top]):
            return (playout.DRAW, playout.SRC_DISCARD)
        if _may_lay_off(g, seat) and top in _targets(g):
            return (playout.DRAW, playout.SRC_DISCARD)
    return (playout.DRAW, playout.SRC_STOCK)


def discard_card(hand: Sequence[int], g: Game, sp: Splitter) -> int:
    """Greedy's discard: a leftover without partner first, then the dearest leftover."""
    left = sp.leftovers(hand)
    points = g.r.card_values
    ah = g.r.ace_high
    drawn = g.drawn_from_discard
    pool = [c for c in (left or hand) if c != JOKER and (c != drawn or hand.count(c) > 1)]
    if not pool:
        pool = [c for c in hand if c != JOKER and (c != drawn or hand.count(c) > 1)] or list(hand)
    return max(pool, key=lambda c: (not has_partner(c, left, ah), points[c]))


def play_move(g: Game, seat: int, sp: Splitter) -> FastMove:
    """Greedy's next move in the play phase (a meld, a lay-off or the discard)."""
    moves = playout.generate(g, seat)
    hand = g.hands[seat]
    melds = [m for m in moves if m[0] == playout.MELD]
    layoffs = [m for m in moves if m[0] == playout.LAYOFF]
    if g.jokers_taken:
        melds = [m for m in melds if any(JOKER in x for x in m[1])] or melds
        layoffs = [m for m in layoffs if JOKER in m[2]] or layoffs
        if not melds and not layoffs:
            return moves[0]
    if melds:
        best: tuple[int, int] | None = None
        pick = melds[0]
        for m in melds:
            rest = list(hand)
            n = 0
            for x in m[1]:
                for c in x:
                    rest.remove(c)
                    n += 1
            key = (sp.deadwood(rest), -n)
            if best is None or key < best:
                best, pick = key, m
        return pick
    if layoffs:
        return max(layoffs, key=lambda m: len(m[2]))
    card = discard_card(hand, g, sp)
    move = (playout.DISCARD, card)
    if move in moves:
        return move
    discards = [m for m in moves if m[0] == playout.DISCARD]
    return discards[0] if discards else moves[0]


def play_turn(g: Game, sp: Splitter) -> None:
    """Play the rest of the current seat's turn greedily (from either phase)."""
    seat = g.turn
    if g.phase == playout.DRAW_PHASE:
        g.apply(seat, draw_move(g, seat, sp))
    for _ in range(MAX_PLAYS_PER_TURN):
        if g.phase != playout.PLAY_PHASE or g.turn != seat:
            return
        g.apply(seat, play_move(g, seat, sp))
    # A policy that will not discard: throw anything legal so the rollout ends.
    if g.phase == playout.PLAY_PHASE and g.turn == seat:
        g.apply(seat, next(m for m in playout.generate(g, seat) if m[0] == playout.DISCARD))


def play_out(g: Game, horizon: int) -> None:
    """Play greedily for every seat until the hand ends or `horizon` more turns complete."""
    sp = splitter_for(g.r.name)
    stop = g.turns_completed + horizon
    while g.phase < playout.HAND_OVER and g.turns_completed < stop:
        play_turn(g, sp)
