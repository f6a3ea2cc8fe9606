"""Legal lay-offs and joker swaps of the seat to act (engine form; see `rules.engine.generate`).

Run lay-offs: at each end, every extension the hand can make card by card (the natural card
of the next rank if held, else a joker if one is left), so single cards and longer runs of
cards are all listed; and natural cards at one end with jokers at the other (docs/api.md v1.2:
`end` settles the jokers' side only), the naturals held in a row from the run's end.
Set lay-offs: every group of the missing suits held plus jokers that the set can take (how
rummy51 frees a set's joker).
"""

from __future__ import annotations

from rules.cards import JOKER, make
from rules.engine.fields import LAYOFF, SWAP, FastMove
from rules.engine.game import Game
from rules.errors import IllegalMove
from rules.melds import END_ANY, END_HIGH, END_LOW, MAX_RUN, TMeld, layoff_run, layoff_set
from rules.runs import HIGH_ACE

# cards, end, freed jokers, the new meld (sets) or None with the side (runs: END_LOW/HIGH,
# or END_ANY for naturals and jokers at opposite ends, placed by `layoff_run` itself)
Cand = tuple[tuple[int, ...], int, int, TMeld | None, int]


def _high(m: TMeld, seq: tuple[int, ...]) -> TMeld:
    k = len(seq)
    stands = tuple(make(m.key, m.high + 1 + i) for i in range(k))
    return TMeld(m.id, True, m.key, m.low, m.high + k, m.cards + seq, m.stands + stands)


def _low(m: TMeld, seq: tuple[int, ...]) -> TMeld:
    k = len(seq)
    stands = tuple(make(m.key, m.low - k + i) for i in range(k))
    return TMeld(m.id, True, m.key, m.low - k, m.high, seq + m.cards, stands + m.stands)


def _run_cands(m: TMeld, held: set[int], jk: int, top: int, out: list[Cand]) -> None:
    room = MAX_RUN - (m.high - m.low + 1)
    if room <= 0:
        return
    suit = m.key
    # High end: ranks high+1, high+2, ... (an explicit end only when a joker is laid).
    seq: tuple[int, ...] = ()
    used = 0
    rank = m.high + 1
    while len(seq) < room and rank <= top:
        c = make(suit, rank)
        if c in held:
            out.append(((*seq, c), END_HIGH if used else END_ANY, 0, None, END_HIGH))
        if used < jk:
            out.append(((*seq, JOKER), END_HIGH, 0, None, END_HIGH))
        if c in held:
            seq = (*seq, c)
        elif used < jk:
            seq = (*seq, JOKER)
            used += 1
        else:
            break
        rank += 1
    # Low end: ranks low-1, low-2, ...; cards listed ascending.
    seq = ()
    used = 0
    rank = m.low - 1
    high_ace = top == HIGH_ACE and m.high == 13 and room >= 1
    while len(seq) < room and rank >= 1:
        c = make(suit, rank)
        if c in held:
            # An ace laid low onto a run ending in a king could also go high: say "low".
            plain = not used and not (high_ace and rank == 1 and not seq)
            out.append(((c, *seq), END_ANY if plain else END_LOW, 0, None, END_LOW))
        if used < jk:
            out.append(((JOKER, *seq), END_LOW, 0, None, END_LOW))
        if c in held:
            seq = (c, *seq)
        elif used < jk:
            seq = (JOKER, *seq)
            used += 1
        else:
            break
        rank -= 1
    if jk:
        _mixed_cands(m, held, jk, top, room, out)


def _mixed_cands(m: TMeld, held: set[int], jk: int, top: int, room: int, out: list[Cand]) -> None:
    """Natural cards held in a row from one end of run `m` with 1..`jk` jokers at the other.

    Aces are left out: where an ace goes (low or above a king) is the order sent, not `end`.
    """
    suit = m.key
    above: list[int] = []
    rank = m.high + 1
    while rank <= min(top, 13) and make(suit, rank) in held:
        above.append(make(suit, rank))
        rank += 1
    below: list[int] = []
    rank = m.low - 1
    while rank >= 2 and make(suit, rank) in held:
        below.insert(0, make(suit, rank))
        rank -= 1
    for j in range(1, jk + 1):
        jokers = (JOKER,) * j
        if m.low - j >= 1:
            for k in range(1, min(len(above), room - j) + 1):
                out.append((jokers + tuple(above[:k]), END_LOW, 0, None, END_ANY))
        if m.high + j <= top:
            for k in range(1, min(len(below), room - j) + 1):
                out.append((tuple(below[-k:]) + jokers, END_HIGH, 0, None, END_ANY))


def _set_cands(g: Game, m: TMeld, held: set[int], jk: int, out: list[Cand]) -> None:
    size = len(m.cards)
    if size >= 4:
        return
    rank0 = m.key - 1
    used = {c // 13 for c in m.cards if c != JOKER}
    missing = [s * 13 + rank0 for s in range(4) if s not in used and s * 13 + rank0 in held]
    if not missing and not jk:
        return
    nm = len(missing)
    r = g.r
    for mask in range(1 << nm):
        nat = tuple(missing[b] for b in range(nm) if mask >> b & 1)
        for j in range(0, min(jk, 4 - size) + 1):
            cards = nat + (JOKER,) * j
            if not cards:
                continue
            try:
                new, freed = layoff_set(m, cards, r.distinct, r.free_jokers)
            except IllegalMove:
                continue
            out.append((cards, END_ANY, freed, new, END_ANY))


def layoff_moves(
    g: Game, seat: int, hand: list[int], held: set[int], bits: int, jk: int
) -> list[FastMove]:
    """Every legal lay-off of `seat` (who may lay off) onto every meld on the table; `held`
    is the set of the hand's cards, `bits` its natural cards as a bitmask, `jk` its
    jokers."""
    r = g.r
    ace_high = r.ace_high
    top = r.top_rank
    must = g.jokers_taken
    n_hand = len(hand)
    moves: list[FastMove] = []
    cands: list[Cand] = []
    for i, m in enumerate(g.melds):
        if not jk and not bits & m.fit_bits(ace_high):
            continue  # without a joker, a lay-off starts with a card next to the meld
        cands.clear()
        if m.is_run:
            _run_cands(m, held, jk, top, cands)
        else:
            _set_cands(g, m, held, jk, cands)
        for cards, end, freed, new, side in cands:
            if new is None and side == END_ANY:
                try:  # naturals and jokers at opposite ends: the engine's own placement
                    new = layoff_run(m, cards, end, r.ace_high)
                except IllegalMove:
                    continue
            jokers = cards.count(JOKER) if must else 0
            must_after = (must - jokers if must > jokers else 0) + (
                freed if r.must_play_joker else 0
            )
            left = n_hand - len(cards) + freed
            if not must_after and (left >= 2 or (left == 0 and not r.must_discard_out)):
                moves.append((LAYOFF, m.id, cards, end))
                continue
            after = list(hand)
            for c in cards:
                after.remove(c)
            after.extend([JOKER] * freed)
            if new is None:
                new = _low(m, cards) if side == END_LOW else _high(m, cards)
            melds = list(g.melds)
            melds[i] = new
            if g.after_problem(after, must_after, melds) is None:
                moves.append((LAYOFF, m.id, cards, end))
    return moves


def swap_moves(g: Game, seat: int, hand: list[int], held: set[int]) -> list[FastMove]:
    """Every legal joker swap (rummy51): a run's joker for the natural card it stands for."""
    moves: list[FastMove] = []
    must_after = g.jokers_taken + (1 if g.r.must_play_joker else 0)
    for i, m in enumerate(g.melds):
        if not m.is_run or JOKER not in m.cards:
            continue
        for pos, (c, s) in enumerate(zip(m.cards, m.stands, strict=True)):
            if c != JOKER or s not in held:
                continue
            after = list(hand)
            after.remove(s)
            after.append(JOKER)
            melds = list(g.melds)
            cards = m.cards[:pos] + (s,) + m.cards[pos + 1 :]
            melds[i] = TMeld(m.id, True, m.key, m.low, m.high, cards, m.stands)
            if g.after_problem(after, must_after, melds) is None:
                moves.append((SWAP, m.id, s))
    return moves
