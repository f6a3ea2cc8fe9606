"""Legal moves in engine form: `generate(game, seat)` lists the engine moves of the seat to
act, and `seen_by(game, seat)` is the game as that seat sees it (what `generate` reads
for a seat view's `legal`). `rules.legal` wraps them for a `SeatView`. The checks are
those of `Game.apply` (a cross-check in tests/rules applies every generated move).

What is listed, per phase:

* draw phase: each source with a card to take.
* play phase: every discard (one per distinct code); every single meld the hand can form,
  with and without jokers (a joker fills a gap or an end, never the place of a card the
  hand holds); every lay-off onto every meld: each single card at each end, every longer
  extension of a run at one end, every group of cards completing a set (which is how
  rummy51 frees a set's joker); every joker swap.
* Multi-meld moves are combinatorial, so they are listed only where single melds one after
  another cannot do the same: for a player who has not opened in a variant with an opening
  minimum, (a) the combinations of two to four disjoint melds that first reach the minimum
  (at most `meldsearch.MAX_OPENING_COMBOS` of them, searching at most
  `meldsearch.MAX_SEARCH_NODES` partial combinations, highest-valued melds first) and
  (b) the partitions of all cards but one into melds, i.e. going rummy below the minimum
  (at most `meldsearch.MAX_RUMMY_PARTITIONS`). In every other case several melds in one
  turn equal single melds in a row, and single melds are always listed.

Every move listed is legal (same checks as `apply`); for natural cards the listing of
single melds, single-card lay-offs and discards is complete.
"""

from __future__ import annotations

from rules.cards import JOKER
from rules.engine.fields import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    MELD,
    SRC_DISCARD,
    SRC_STOCK,
    FastMove,
)
from rules.engine.game import Game
from rules.engine.layoffs import layoff_moves, swap_moves
from rules.engine.switches import EX_KEEP_TOP_ON_DRAW
from rules.melds import read_meld
from rules.meldsearch import card_bits, melds_of, opening_combos, rummy_partitions

# The moves every listing shares (moves are immutable tuples): the draws, a discard per card.
_FROM_STOCK, _FROM_DISCARD = (DRAW, SRC_STOCK), (DRAW, SRC_DISCARD)
_DISCARDS = tuple((DISCARD, c) for c in range(JOKER + 1))


def _meld_moves(g: Game, seat: int, hand: list[int], held: int, jk: int) -> list[FastMove]:
    r = g.r
    singles, cover = melds_of(held, jk, r)
    if not singles:
        return []
    need = r.opening_min if not g.opened[seat] else 0
    groups: list[tuple[tuple[int, ...], ...]]
    if need:
        groups = [(cards,) for cards, value in singles if value >= need]
        groups.extend(opening_combos(singles, hand, need, cover, r.opening_values))
        if r.rummy_skips_opening:
            partitions = rummy_partitions(singles, hand, held, jk, cover)
            seen = {tuple(sorted(x)) for x in groups} if partitions else set()
            for p in partitions:
                key = tuple(sorted(p))
                if key not in seen:
                    seen.add(key)
                    groups.append(p)
    else:
        groups = [(cards,) for cards, _ in singles]
    moves: list[FastMove] = []
    must = g.jokers_taken
    n_hand = len(hand)
    for grp in groups:
        if len(grp) == 1:
            n_cards = len(grp[0])
            jokers = grp[0].count(JOKER) if must else 0
        else:
            n_cards = sum(len(x) for x in grp)
            jokers = sum(x.count(JOKER) for x in grp)
        must_after = must - jokers if must > jokers else 0
        left = n_hand - n_cards
        if not must_after and (left >= 2 or (left == 0 and not r.must_discard_out)):
            moves.append((MELD, grp))
            continue
        after = list(hand)
        for x in grp:
            for c in x:
                after.remove(c)
        nid = g.next_meld_id
        new = [read_meld(x, r.ace_high, r.distinct).with_id(nid + i) for i, x in enumerate(grp)]
        if g.after_problem(after, must_after, g.melds + new) is None:
            moves.append((MELD, grp))
    return moves


def generate(g: Game, seat: int) -> list[FastMove]:
    """Every legal engine move of `seat` now (bounded multi-meld moves; module doc).

    Empty when it is not `seat`'s turn or the hand is over.
    """
    if g.phase >= 3 or seat != g.turn:
        return []
    r = g.r
    if g.phase == DRAW_PHASE:
        if g.stock or (r.exhaustion == EX_KEEP_TOP_ON_DRAW and g.discard):
            return [_FROM_STOCK, _FROM_DISCARD] if g.discard else [_FROM_STOCK]
        return [_FROM_DISCARD] if g.discard else []
    hand = g.hands[seat]
    distinct = set(hand)
    moves: list[FastMove]
    if g.jokers_taken:
        moves = []
    else:
        drawn = g.drawn_from_discard
        if drawn in distinct and hand.count(drawn) == 1:
            moves = [_DISCARDS[c] for c in distinct if c != drawn]
        else:
            moves = [_DISCARDS[c] for c in distinct]
    held = card_bits(distinct)
    jk = hand.count(JOKER) if JOKER in distinct else 0
    moves.extend(_meld_moves(g, seat, hand, held, jk))
    if r.layoff_before_open or g.opened[seat]:
        if g.melds:
            moves.extend(layoff_moves(g, seat, hand, distinct, held, jk))
            if r.joker_swap:
                moves.extend(swap_moves(g, seat, hand, distinct))
    return moves


def seen_by(g: Game, seat: int) -> Game:
    """What `rules.legal.game_from_view` gives for `seat`'s view of `g`, straight from `g`'s
    engine form.

    Only what the view shows is taken over (the table, scores and turn; the seat's hand; the
    piles' sizes and top discard); the rest is placeholders and defaults, as in
    `game_from_view`. It shares `g`'s lists: read it (`generate`), never apply a move to it.
    """
    # Every slot spelled out, as in `Game.copy`: this runs for every view of the seat to
    # act, and `Game.__init__` plus a getattr/setattr loop cost three times as much.
    v = Game.__new__(Game)
    v.r = g.r
    v.players = g.players
    v.seed = b""
    v.limit = g.limit
    v.match_number = 1
    v.hand_number = g.hand_number
    v.hand_seed = b""
    v.fixed_deal = None
    v.reshuffles = 0
    v.stock_exhaustions = g.stock_exhaustions
    hands: list[list[int]] = [[] for _ in g.hands]
    hands[seat] = list(g.hands[seat])
    v.hands = hands
    v.stock = [JOKER] * len(g.stock)
    discard = g.discard
    v.discard = [JOKER] * (len(discard) - 1) + discard[-1:] if discard else []
    v.melds = melds = g.melds
    v.next_meld_id = melds[-1].id + 1 if melds else 1  # ids grow along the table
    v.phase = g.phase
    v.turn = g.turn
    v.dealer = g.dealer
    v.scores = g.scores
    v.turns_completed = g.turns_completed
    v.opened = g.opened
    v.has_played = g.has_played
    v.drawn_from_discard = g.drawn_from_discard
    v.jokers_taken = g.jokers_taken if seat == g.turn else 0  # the view's `must_play`
    v.laid_off_this_turn = False
    v.played_this_turn = False
    v.hand_result = None
    v.match_winner = g.match_winner
    v.votes_next = ()
    v.votes_new = ()
    v.last_move = None
    return v
