"""Legal moves, computed from what the seat to act can see.

`generate(game, seat)` lists engine moves (fast form); `legal_moves(view)` yields API moves
from a `SeatView` only, so bots never need the full state. Both use the same checks as
`Game.apply` (a cross-check in tests/rules applies every generated move).

What is listed, per phase:

* draw phase: each source with a card to take.
* play phase: every discard (one per distinct code); every single meld the hand can form,
  with and without jokers; every lay-off onto every meld: each single card at each end,
  every longer extension of a run at one end, every group of cards completing a set
  (which is how rummy51 frees a set's joker); every joker swap.
* Multi-meld moves are combinatorial, so they are listed only where a single meld cannot do
  the same job, bounded: for a player who has not opened in a variant with an opening
  minimum, the combinations of two to four disjoint melds that first reach the minimum
  (at most `MAX_OPENING_COMBOS`, searching at most `MAX_SEARCH_NODES` partial
  combinations) and the partitions of all cards but one into melds, i.e. going rummy (at
  most `MAX_RUMMY_PARTITIONS`). Elsewhere several melds in one turn are the same as
  single melds one after another, which are always listed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rules.cards import JOKER, make
from rules.convert import meld_from_model, to_api_move
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
from rules.errors import IllegalMove
from rules.fastrules import EX_KEEP_TOP_ON_DRAW, FastRules, fast_rules
from rules.melds import END_ANY, END_HIGH, END_LOW, MAX_RUN, TMeld, layoff_run, layoff_set
from rules.moves import Move
from rules.view import SeatView

MAX_OPENING_COMBOS = 24
MAX_SEARCH_NODES = 400
MAX_RUMMY_PARTITIONS = 8


def single_melds(cnt: Sequence[int], r: FastRules) -> list[tuple[int, ...]]:
    """Every single meld the counted hand can form (cards in the order `read_meld` reads)."""
    jk = cnt[JOKER] if r.has_jokers else 0
    out: list[tuple[int, ...]] = []
    for rank0 in range(13):
        suits = [s for s in range(4) if cnt[s * 13 + rank0]]
        ns = len(suits)
        if not ns or ns + jk < 3:
            continue
        for mask in range(1, 1 << ns):
            group = tuple(suits[i] * 13 + rank0 for i in range(ns) if mask >> i & 1)
            k = len(group)
            for j in range(max(0, 3 - k), min(jk, 4 - k) + 1):
                out.append(group + (JOKER,) * j)
    top = 14 if r.ace_high else 13
    for suit in range(4):
        base = suit * 13
        pres = [False] * 15
        any_run = 0
        for rank in range(1, 14):
            if cnt[base + rank - 1]:
                pres[rank] = True
                any_run += 1
        if any_run < 2 and not (any_run and jk):
            continue
        if top == 14:
            pres[14] = pres[1]
        for a in range(1, top - 1):
            if not pres[a] and not jk:
                continue
            missing = 0
            nat = 0
            for b in range(a, min(top, a + MAX_RUN - 1) + 1):
                if pres[b]:
                    nat += 1
                else:
                    missing += 1
                    if missing > jk:
                        break
                if b - a >= 2 and nat >= 2:
                    out.append(tuple(make(suit, x) if pres[x] else JOKER for x in range(a, b + 1)))
    return out


def _fits(cnt: list[int], cards: Sequence[int]) -> bool:
    ok = True
    for c in cards:
        cnt[c] -= 1
        if cnt[c] < 0:
            ok = False
    for c in cards:
        cnt[c] += 1
    return ok


def _opening_combos(
    singles: list[tuple[int, ...]], values: list[int], cnt: list[int], need: int
) -> list[tuple[tuple[int, ...], ...]]:
    """Sets of 2..4 disjoint melds that first reach `need` points (bounded search)."""
    found: list[tuple[tuple[int, ...], ...]] = []
    nodes = 0
    order = sorted(range(len(singles)), key=lambda i: -values[i])

    def dfs(start: int, chosen: list[int], total: int) -> None:
        nonlocal nodes
        for pos in range(start, len(order)):
            if len(found) >= MAX_OPENING_COMBOS or nodes >= MAX_SEARCH_NODES:
                return
            i = order[pos]
            cards = singles[i]
            if not _fits(cnt, cards):
                continue
            nodes += 1
            t = total + values[i]
            if t >= need:
                if chosen:
                    found.append(tuple(singles[k] for k in chosen) + (cards,))
                continue
            if len(chosen) < 3:
                for c in cards:
                    cnt[c] -= 1
                chosen.append(i)
                dfs(pos + 1, chosen, t)
                chosen.pop()
                for c in cards:
                    cnt[c] += 1

    dfs(0, [], 0)
    return found


def _rummy_partitions(
    singles: list[tuple[int, ...]], cnt: list[int], n_cards: int
) -> list[tuple[tuple[int, ...], ...]]:
    """Ways to meld all cards but one in one move (going rummy), bounded."""
    covered: set[int] = set()
    for s in singles:
        covered.update(s)
    if sum(cnt[c] for c in covered) < n_cards - 1:
        return []
    found: list[tuple[tuple[int, ...], ...]] = []
    by_card: dict[int, list[tuple[int, ...]]] = {}
    for s in singles:
        for c in set(s):
            by_card.setdefault(c, []).append(s)
    nodes = 0

    def dfs(chosen: list[tuple[int, ...]], left: int, spare: bool) -> None:
        nonlocal nodes
        if len(found) >= MAX_RUMMY_PARTITIONS or nodes >= MAX_SEARCH_NODES:
            return
        nodes += 1
        if left == (0 if spare else 1):
            if chosen:
                found.append(tuple(chosen))
            return
        first = next(c for c in range(53) if cnt[c])
        for s in by_card.get(first, ()):
            if _fits(cnt, s):
                for c in s:
                    cnt[c] -= 1
                chosen.append(s)
                dfs(chosen, left - len(s), spare)
                chosen.pop()
                for c in s:
                    cnt[c] += 1
        if not spare:
            cnt[first] -= 1
            dfs(chosen, left - 1, True)
            cnt[first] += 1

    dfs([], n_cards, False)
    return found


def _meld_moves(g: Game, seat: int, hand: list[int], cnt: list[int]) -> list[FastMove]:
    r = g.r
    singles = single_melds(cnt, r)
    opening = r.opening_min and not g.opened[seat]
    groups: list[tuple[tuple[int, ...], ...]] = []
    if opening:
        values = [r.meld_value(_stands(s, r)) for s in singles]
        groups.extend((s,) for s, v in zip(singles, values, strict=True) if v >= r.opening_min)
        groups.extend(_opening_combos(singles, values, cnt, r.opening_min))
        if r.rummy_skips_opening:
            seen = {tuple(sorted(x)) for x in groups}
            for p in _rummy_partitions(singles, cnt, len(hand)):
                key = tuple(sorted(p))
                if key not in seen:
                    seen.add(key)
                    groups.append(p)
    else:
        groups.extend((s,) for s in singles)
    moves: list[FastMove] = []
    next_id = g.next_meld_id
    for grp in groups:
        n_cards = sum(len(s) for s in grp)
        left = len(hand) - n_cards
        if opening and r.opening_min:
            total = sum(r.meld_value(_stands(s, r)) for s in grp)
            if total < r.opening_min and not (r.rummy_skips_opening and left == 1):
                continue
        jokers = sum(s.count(JOKER) for s in grp)
        must_after = max(0, g.must_play - jokers)
        if not _quick_ok(g, left, must_after):
            after = list(hand)
            for s in grp:
                for c in s:
                    after.remove(c)
            new = [_as_meld(s, r, next_id + i) for i, s in enumerate(grp)]
            if g.after_problem(after, must_after, g.melds + new) is not None:
                continue
        moves.append((MELD, grp))
    return moves


def _stands(cards: tuple[int, ...], r: FastRules) -> tuple[int, ...]:
    from rules.melds import read_meld

    return read_meld(cards, r.ace_high, r.distinct).stands


def _as_meld(cards: tuple[int, ...], r: FastRules, mid: int) -> TMeld:
    from rules.melds import read_meld

    return read_meld(cards, r.ace_high, r.distinct).with_id(mid)


def _quick_ok(g: Game, left: int, must_after: int) -> bool:
    """True when a play leaving `left` cards surely strands nobody (else check fully)."""
    return must_after == 0 and (left >= 2 or (left == 0 and not g.r.must_discard_out))


def _layoff_moves(g: Game, seat: int, hand: list[int], cnt: list[int]) -> list[FastMove]:
    r = g.r
    jk = cnt[JOKER]
    moves: list[FastMove] = []
    top = 14 if r.ace_high else 13
    for i, m in enumerate(g.melds):
        cands: list[tuple[tuple[int, ...], int, TMeld, int]] = []
        if m.is_run:
            room = MAX_RUN - (m.high - m.low + 1)
            # high end: ranks high+1, high+2, ...
            seq: list[int] = []
            used_j = 0
            rank = m.high + 1
            while room > len(seq) and rank <= top:
                c = make(m.key, rank)
                if cnt[c] > 0:
                    tried = (*seq, c)
                    cands.append(_run_cand(m, tried, END_HIGH, r))
                if used_j < jk:
                    cands.append(_run_cand(m, (*seq, JOKER), END_HIGH, r))
                if cnt[c] > 0:
                    seq.append(c)
                elif used_j < jk:
                    seq.append(JOKER)
                    used_j += 1
                else:
                    break
                rank += 1
            _extend_low(m, cnt, jk, room, r, cands)
        else:
            missing = [
                make(s, m.key)
                for s in range(4)
                if cnt[make(s, m.key)] and all(c == JOKER or c // 13 != s for c in m.cards)
            ]
            nm = len(missing)
            for mask in range(1 << nm):
                nat = tuple(missing[b] for b in range(nm) if mask >> b & 1)
                for j in range(0, min(jk, 4) + 1):
                    cards = nat + (JOKER,) * j
                    if not cards:
                        continue
                    try:
                        new, freed = layoff_set(m, cards, r.distinct, r.free_jokers)
                    except IllegalMove:
                        continue
                    cands.append((cards, END_ANY, new, freed))
        for cards, end, new, freed in cands:
            jokers = cards.count(JOKER)
            must_after = max(0, g.must_play - jokers) + (freed if r.must_play_joker else 0)
            left = len(hand) - len(cards) + freed
            if not _quick_ok(g, left, must_after):
                after = list(hand)
                for c in cards:
                    after.remove(c)
                after.extend([JOKER] * freed)
                melds = list(g.melds)
                melds[i] = new
                if g.after_problem(after, must_after, melds) is not None:
                    continue
            moves.append((LAYOFF, m.id, cards, end))
    return moves


def _run_cand(
    m: TMeld, cards: tuple[int, ...], end: int, r: FastRules
) -> tuple[tuple[int, ...], int, TMeld, int]:
    """A run lay-off candidate; `end` is dropped when `apply` would choose it anyway."""
    new = layoff_run(m, cards, end, r.ace_high)
    try:
        plain = layoff_run(m, cards, END_ANY, r.ace_high)
        if plain.low == new.low and plain.cards == new.cards:
            end = END_ANY
    except IllegalMove:
        pass
    return (cards, end, new, 0)


def _extend_low(
    m: TMeld,
    cnt: list[int],
    jk: int,
    room: int,
    r: FastRules,
    cands: list[tuple[tuple[int, ...], int, TMeld, int]],
) -> None:
    seq: list[int] = []  # descending from low-1; laid ascending
    used_j = 0
    rank = m.low - 1
    while room > len(seq) and rank >= 1:
        c = make(m.key, rank)
        if cnt[c] > 0:
            cands.append(_run_cand(m, (c, *reversed(seq)), END_LOW, r))
        if used_j < jk:
            cands.append(_run_cand(m, (JOKER, *reversed(seq)), END_LOW, r))
        if cnt[c] > 0:
            seq.append(c)
        elif used_j < jk:
            seq.append(JOKER)
            used_j += 1
        else:
            break
        rank -= 1


def _swap_moves(g: Game, seat: int, hand: list[int], cnt: list[int]) -> list[FastMove]:
    moves: list[FastMove] = []
    must_after = g.must_play + (1 if g.r.must_play_joker else 0)
    for i, m in enumerate(g.melds):
        if not m.is_run or JOKER not in m.cards:
            continue
        for pos, (c, s) in enumerate(zip(m.cards, m.stands, strict=True)):
            if c != JOKER or not cnt[s]:
                continue
            after = list(hand)
            after.remove(s)
            after.append(JOKER)
            melds = list(g.melds)
            melds[i] = TMeld(m.id, True, m.key, m.low, m.high,
                             m.cards[:pos] + (s,) + m.cards[pos + 1 :], m.stands)  # fmt: skip
            if g.after_problem(after, must_after, melds) is None:
                moves.append((SWAP, m.id, s))
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
        for c in range(53):
            if cnt[c] and (c != drawn or cnt[c] > 1):
                moves.append((DISCARD, c))
    moves.extend(_meld_moves(g, seat, hand, cnt))
    if r.layoff_before_open or g.opened[seat]:
        moves.extend(_layoff_moves(g, seat, hand, cnt))
        if r.joker_swap:
            moves.extend(_swap_moves(g, seat, hand, cnt))
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
    from rules.convert import ints

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
