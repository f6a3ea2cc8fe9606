"""Legal moves, computed from what the seat to act can see.

`generate(game, seat)` lists engine moves (fast form); `legal_moves(view)` yields API moves
from a `SeatView` only, so bots never need the full state. Both use the same checks as
`Game.apply` (a cross-check in tests/rules applies every generated move).

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

from collections.abc import Iterator
from typing import Literal

from rules.cards import CODES, JOKER, code_to_int, make
from rules.convert import codes, ints, meld_from_model, to_api_move
from rules.core import (
    DISCARD,
    DRAW,
    DRAW_PHASE,
    LAYOFF,
    MELD,
    PHASE_INTS,
    PLAY_PHASE,
    SRC_DISCARD,
    SRC_STOCK,
    SWAP,
    FastMove,
    Game,
)
from rules.fastrules import EX_KEEP_TOP_ON_DRAW, fast_rules
from rules.layoffs import layoff_moves, swap_moves
from rules.melds import END_ANY, END_HIGH, END_LOW, TMeld, read_meld
from rules.meldsearch import opening_combos, rummy_partitions, single_melds
from rules.moves import Move
from rules.view import Legal, LegalLayoff, LegalSwap, Opening, OpeningMeld, SeatView

MAX_LEGAL_MELDS = 64


def _meld_moves(g: Game, seat: int, hand: list[int], cnt: list[int]) -> list[FastMove]:
    r = g.r
    singles = single_melds(hand, r)
    if not singles:
        return []
    need = r.opening_min if not g.opened[seat] else 0
    groups: list[tuple[tuple[int, ...], ...]]
    if need:
        groups = [(cards,) for cards, value in singles if value >= need]
        groups.extend(opening_combos(singles, cnt, need))
        if r.rummy_skips_opening:
            seen = {tuple(sorted(x)) for x in groups}
            for p in rummy_partitions(singles, cnt, len(hand)):
                key = tuple(sorted(p))
                if key not in seen:
                    seen.add(key)
                    groups.append(p)
    else:
        groups = [(cards,) for cards, _ in singles]
    moves: list[FastMove] = []
    must = g.must_play
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
        moves: list[FastMove] = []
        if g.stock or (r.exhaustion == EX_KEEP_TOP_ON_DRAW and g.discard):
            moves.append((DRAW, SRC_STOCK))
        if g.discard:
            moves.append((DRAW, SRC_DISCARD))
        return moves
    hand = g.hands[seat]
    cnt = [0] * 53
    for c in hand:
        cnt[c] += 1
    moves = []
    if not g.must_play:
        drawn = g.drawn
        for c in set(hand):
            if c != drawn or cnt[c] > 1:
                moves.append((DISCARD, c))
    moves.extend(_meld_moves(g, seat, hand, cnt))
    if r.layoff_before_open or g.opened[seat]:
        if g.melds:
            moves.extend(layoff_moves(g, seat, hand, cnt))
            if r.joker_swap:
                moves.extend(swap_moves(g, seat, hand, cnt))
    return moves


def game_from_view(view: SeatView) -> Game:
    """A `Game` holding only what `view` shows: enough for `generate` for the viewer.

    Other hands, the stock and the buried discards are placeholders (jokers); never apply
    moves of other seats to it.
    """
    g = Game.__new__(Game)
    g.r = fast_rules(view.variant)
    g.n = view.players
    g.seed = b""
    g.hand_seed = b""
    g.match_number = 1
    g.hand_number = view.hand_number
    g.fixed_deal = None
    g.reshuffles = 0
    g.exhaustions = view.stock_exhaustions
    g.hands = [[] for _ in range(view.players)]
    g.hands[view.seat] = list(ints(view.hand))
    g.stock = [JOKER] * view.stock_count
    g.discard = [JOKER] * (view.discard_count - 1) + list(
        ints((view.discard_top,) if view.discard_top else ())
    )
    g.melds = [meld_from_model(m) for m in view.melds]  # type: ignore[arg-type]
    g.next_meld_id = 1 + max((int(m.id[1:]) for m in view.melds), default=0)
    g.phase = PHASE_INTS.get(view.phase, 0)
    g.turn = view.turn
    g.dealer = view.dealer
    g.scores = list(view.scores)
    g.turns_completed = view.turns_completed
    g.opened = list(view.opened)
    g.has_played = list(view.has_played) or [False] * view.players
    g.drawn = ints((view.drawn_from_discard,))[0] if view.drawn_from_discard else -1
    g.must_play = len(view.must_play)
    g.laid_off = False
    g.played = False
    g.result = None
    g.match_winner = view.match_winner
    g.votes_next = ()
    g.votes_new = ()
    g.last_move = None
    return g


def legal_moves(view: SeatView) -> Iterator[Move]:
    """Every legal move of the viewing seat now, from its view only (bounded; module doc).

    Empty when it is not this seat's turn or the hand is over.
    """
    if view.turn != view.seat or view.phase not in ("draw", "play"):
        return iter(())
    g = game_from_view(view)
    if g.phase not in (DRAW_PHASE, PLAY_PHASE):
        return iter(())
    return (to_api_move(m) for m in generate(g, view.seat))


def legal_summary(view: SeatView) -> Legal | None:
    """The view's `legal` object (API.md v1.1) from the same `generate` as `legal_moves`;
    None when it is not this seat's move."""
    if view.turn != view.seat or view.phase not in ("draw", "play"):
        return None
    g = game_from_view(view)
    draw: list[Literal["stock", "discard"]] = []
    discard: list[str] = []
    layoffs: list[LegalLayoff] = []
    swaps: list[LegalSwap] = []
    melds: list[tuple[str, ...]] = []
    runs = {m.id: m for m in g.melds if m.is_run}
    for move in generate(g, view.seat):
        kind = move[0]
        if kind == DRAW:
            draw.append("stock" if move[1] == SRC_STOCK else "discard")
        elif kind == DISCARD:
            discard.append(CODES[move[1]])
        elif kind == MELD:
            if len(move[1]) == 1 and len(melds) < MAX_LEGAL_MELDS:
                melds.append(codes(move[1][0]))
        elif kind == LAYOFF:
            if len(move[2]) == 1:
                layoffs.append(_legal_layoff(move, runs))
        elif kind == SWAP:
            swaps.append(LegalSwap(card=CODES[move[2]], meld=f"m{move[1]}"))
    r = g.r
    opening = None
    if r.opening_min:
        opened = g.opened[view.seat]
        held = single_melds(g.hands[view.seat], r) if g.phase == PLAY_PHASE and not opened else []
        parts = tuple(OpeningMeld(cards=codes(c), value=v) for c, v in held[:MAX_LEGAL_MELDS])
        opening = Opening(needed=r.opening_min, opened=opened, melds=parts)
    return Legal(
        draw=tuple(draw),
        discard=tuple(sorted(discard, key=code_to_int)),
        layoffs=tuple(layoffs),
        swaps=tuple(swaps),
        melds=tuple(melds),
        must_play=view.must_play,
        opening=opening,
    )


def _legal_layoff(move: FastMove, runs: dict[int, TMeld]) -> LegalLayoff:
    """A single-card lay-off with the run's end it reaches named (null for a set)."""
    meld_no, (card,), end = move[1], move[2], move[3]
    run = runs.get(meld_no)
    side: Literal["low", "high"] | None = None
    if run is not None:
        if end == END_ANY:
            high = run.high < 14 and card == make(run.key, run.high + 1)
            end = END_HIGH if high else END_LOW
        side = "high" if end == END_HIGH else "low"
    return LegalLayoff(card=CODES[card], meld=f"m{meld_no}", end=side)
