"""Finding melds in a hand, fast: single melds from cached bitmask tables, and the bounded
multi-meld searches of rummy51's opening and going rummy (see `rules.legal`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import JOKER, make
from rules.engine.switches import FastRules
from rules.melds import MAX_RUN
from rules.runs import HIGH_ACE

MAX_OPENING_COMBOS = 24
MAX_SEARCH_NODES = 400
MAX_RUMMY_PARTITIONS = 8

# Entries per table. At 50,000 the runs table alone held 57 MB when full, and a server
# took hours of play to fill it: its memory rose for as long as a soak ran (docs/soak.md).
# 8,192 entries are about 6 MB; past them the oldest entry goes (insertion order).
CACHE_LIMIT = 8_192
Cand = tuple[tuple[int, ...], int]  # (cards in reading order, opening value)
# A table's entry: the melds of one rank (or suit) and the card ints they use, as a bitmask
# (bit 52 the joker), which bounds the multi-meld searches below without another walk.
Entry = tuple[list[Cand], int]
_SETS: dict[tuple[str, int, int, int], Entry] = {}
_RUNS: dict[tuple[str, int, int, int], Entry] = {}

# A hand as bitmasks: bit c for natural card int c (suit-major: 13 bits a suit) ...
_BIT = tuple(1 << c for c in range(JOKER)) + (0,)
# ... and the same 13 ranks of one suit spread to bit 4 * rank0 (rank-major nibbles), so a
# nibble holds the suits of one rank: `_NIBBLES[m] << s` for suit s's 13-bit mask m.
_NIBBLES = tuple(sum(1 << 4 * x for x in range(13) if m >> x & 1) for m in range(1 << 13))
# Each suit's cards by rank 0..14 (rank 14 the high ace; rank 0 only pads the table).
_SUIT_CARDS = tuple(tuple(make(s, x) for x in range(15)) for s in range(4))
_ONES = 0x1111111111111  # the low bit of each of the 13 nibbles
_SUIT = 0x1FFF


def _keep(
    table: dict[tuple[str, int, int, int], Entry], key: tuple[str, int, int, int], found: Entry
) -> None:
    """Remember `found`, forgetting the oldest entry once the table is full (bounded memory
    in a long-running server, without the cold start a whole clear would cost)."""
    if len(table) >= CACHE_LIMIT:
        del table[next(iter(table))]
    table[key] = found


def _cover(out: list[Cand]) -> int:
    cover = 0
    for cards, _ in out:
        for c in cards:
            cover |= 1 << c
    return cover


def _sets(r: FastRules, rank0: int, suits: int, jk: int) -> Entry:
    key = (r.name, rank0, suits, jk)
    found = _SETS.get(key)
    if found is not None:
        return found
    present = [s for s in range(4) if suits >> s & 1]
    ns = len(present)
    value = r.opening_values[rank0]
    out: list[Cand] = []
    for mask in range(1, 1 << ns):
        group = tuple(present[i] * 13 + rank0 for i in range(ns) if mask >> i & 1)
        k = len(group)
        for j in range(max(0, 3 - k), min(jk, 4 - k) + 1):
            out.append((group + (JOKER,) * j, value * (k + j)))
    _keep(_SETS, key, (out, _cover(out)))
    return _SETS[key]


def _runs(r: FastRules, suit: int, ranks: int, jk: int) -> Entry:
    """Runs of one suit; `ranks` has bit x set for rank x (1..13) in hand."""
    key = (r.name, suit, ranks, jk)
    found = _RUNS.get(key)
    if found is not None:
        return found
    top = r.top_rank
    # The suit's cards by rank 1..14 (14 the high ace), a joker where the hand has none.
    cards_of = _SUIT_CARDS[suit]
    held = [cards_of[x] if ranks >> x & 1 else JOKER for x in range(15)]
    held[HIGH_ACE] = held[1] if top == HIGH_ACE else JOKER
    # Prefix sums over ranks: opening points, natural cards held.
    points = [0] * 16
    nats = [0] * 16
    for x in range(1, 15):
        points[x + 1] = points[x] + r.opening_values[cards_of[x]]
        nats[x + 1] = nats[x] + (held[x] != JOKER)
    # The ranks missing from the suit, then a sentinel past the top for each joker.
    gaps = [x for x in range(1, top + 1) if held[x] == JOKER] + [top + 1] * (jk + 1)
    out: list[Cand] = []
    g = 0
    for a in range(1, top - 1):
        if held[a] == JOKER and not jk:
            continue
        while gaps[g] < a:
            g += 1
        # A run from rank a ends before its (jk+1)-th gap, within 13 ranks and the top.
        last = min(top, a + MAX_RUN - 1, gaps[g + jk] - 1)
        for b in range(a + 2, last + 1):
            # One natural with jokers reads as a set (rules.melds), so runs need two.
            if nats[b + 1] - nats[a] >= 2:
                out.append((tuple(held[a : b + 1]), points[b + 1] - points[a]))
    _keep(_RUNS, key, (out, _cover(out)))
    return _RUNS[key]


def single_melds(hand: Sequence[int], r: FastRules) -> list[Cand]:
    """Every single meld the hand can form, with its opening value.

    Jokers fill gaps and ends; a natural card the hand holds is always used for its own
    place (a joker never replaces a card the hand has).
    """
    return melds_of(hand_bits(hand), hand.count(JOKER), r)[0]


def hand_bits(hand: Sequence[int]) -> int:
    """The natural cards of `hand` as a bitmask (bit c for card int c; jokers left out)."""
    held = 0
    bit = _BIT
    for c in hand:
        held |= bit[c]
    return held


def melds_of(held: int, jk: int, r: FastRules) -> tuple[list[Cand], int]:
    """`single_melds` of the hand of `hand_bits` `held` and `jk` jokers, and the card ints
    its melds use (bit c; bit 52 for a joker)."""
    out: list[Cand] = []
    cover = 0
    name = r.name
    nib = (_NIBBLES[held & _SUIT] | _NIBBLES[held >> 13 & _SUIT] << 1
           | _NIBBLES[held >> 26 & _SUIT] << 2 | _NIBBLES[held >> 39] << 3)  # fmt: skip
    sets = _set_ranks(nib, jk)
    while sets:
        low = sets & -sets
        at = low.bit_length() - 3  # the rank's nibble starts 2 bits below (`_set_ranks`)
        x = at >> 2
        suits = nib >> at & 15
        found = _SETS.get((name, x, suits, jk)) or _sets(r, x, suits, jk)
        out.extend(found[0])
        cover |= found[1]
        sets ^= low
    for s in range(4):
        m = (held >> 13 * s & _SUIT) << 1
        # Without jokers a run needs three ranks in a row; with jokers two naturals.
        if (m & (m >> 1) & (m >> 2)) if not jk else m.bit_count() >= 2:
            found = _RUNS.get((name, s, m, jk)) or _runs(r, s, m, jk)
        elif not jk and r.ace_high and m & 0b11000000000010 == 0b11000000000010:
            found = _runs(r, s, m, jk)  # Q-K-A
        else:
            continue
        out.extend(found[0])
        cover |= found[1]
    return out, cover


def _set_ranks(nib: int, jk: int) -> int:
    """Bit 4 * rank0 + 2 set for each rank with enough suits for a set with `jk` jokers
    (three naturals, two with a joker, one with two), from the hand's rank-major nibbles."""
    # Each nibble's count of suits (0..4), in place, then + (4 - needed) carries into bit 2.
    pairs = nib - (nib >> 1 & 0x5555555555555)
    count = (pairs & 0x3333333333333) + (pairs >> 2 & 0x3333333333333)
    need = min(3, max(1, 3 - jk))
    return (count + (4 - need) * _ONES) & 0x4444444444444


def _take(cnt: list[int], cards: Sequence[int]) -> bool:
    """Remove `cards` from the counts if all are there (else leave the counts alone)."""
    for i, c in enumerate(cards):
        cnt[c] -= 1
        if cnt[c] < 0:
            for d in cards[: i + 1]:
                cnt[d] += 1
            return False
    return True


def _put(cnt: list[int], cards: Sequence[int]) -> None:
    for c in cards:
        cnt[c] += 1


# Card counts packed 4 bits a card int, bit 3 of each field a guard: taking a meld is one
# subtraction of its packed cards, and every guard is still set only if the hand held them.
_FIELD = tuple(1 << 4 * c for c in range(JOKER + 1))
_GUARDS = sum(8 << 4 * c for c in range(JOKER + 1))
_PACKED: dict[tuple[int, ...], int] = {}


def _packed(cards: tuple[int, ...]) -> int:
    found = _PACKED.get(cards)
    if found is None:
        if len(_PACKED) >= CACHE_LIMIT:
            del _PACKED[next(iter(_PACKED))]
        found = _PACKED[cards] = sum(_FIELD[c] for c in cards)
    return found


def _by_value(cand: Cand) -> int:
    return -cand[1]


def opening_combos(
    singles: list[Cand], hand: Sequence[int], need: int, cover: int, values: Sequence[int]
) -> list[tuple[tuple[int, ...], ...]]:
    """Sets of 2..4 disjoint melds that first reach `need` points (bounded search), highest
    melds first; `cover` is `melds_of`'s, `values` the cards' opening values."""
    if len(singles) < 2:
        return []
    order = sorted(singles, key=_by_value)
    # Upper bounds on what any 2..4 disjoint melds total; most hands miss the opening by
    # far, and then the search (which would find nothing) is not run at all.
    if sum(value for _, value in order[:4]) < need:
        return []
    jk = hand.count(JOKER)
    copies = points = 0
    for c in hand:
        if cover >> c & 1 and c != JOKER:
            copies += 1
            points += values[c]
    if min(10 * (copies + jk), points + jk * max(values)) < need:
        return []
    avail = _GUARDS + sum(map(_FIELD.__getitem__, hand))
    search = _OpeningSearch(order, need)
    search.dfs(0, [], 0, avail)
    return search.found


class _OpeningSearch:
    """`opening_combos`' depth-first search. A class rather than a recursive closure: a
    closure that calls itself holds itself, and every search was left to the cyclic
    collector (bot and view code runs it thousands of times a second)."""

    __slots__ = ("cards", "packs", "values", "need", "found", "nodes")

    def __init__(self, order: list[Cand], need: int) -> None:
        self.cards = [cards for cards, _ in order]
        self.packs = [_packed(cards) for cards in self.cards]
        self.values = [value for _, value in order]
        self.need = need
        self.found: list[tuple[tuple[int, ...], ...]] = []
        self.nodes = 0

    def dfs(self, start: int, chosen: list[tuple[int, ...]], total: int, avail: int) -> None:
        cards, packs, values, found = self.cards, self.packs, self.values, self.found
        for pos in range(start, len(cards)):
            if len(found) >= MAX_OPENING_COMBOS or self.nodes >= MAX_SEARCH_NODES:
                return
            left = avail - packs[pos]
            if left & _GUARDS != _GUARDS:
                continue  # a card of it is not in the hand any more
            self.nodes += 1
            t = total + values[pos]
            if t >= self.need:
                if chosen:
                    found.append((*chosen, cards[pos]))
            elif len(chosen) < 3:
                chosen.append(cards[pos])
                self.dfs(pos + 1, chosen, t, left)
                chosen.pop()


def rummy_partitions(
    singles: list[Cand], hand: Sequence[int], cover: int
) -> list[tuple[tuple[int, ...], ...]]:
    """Ways to meld all cards but one in one move (going rummy), bounded; `cover` is
    `melds_of`'s."""
    outside = 0
    for c in hand:
        if not cover >> c & 1:
            outside += 1
            if outside > 1:
                return []  # two cards in no meld: one is left over besides the discard
    cnt = [0] * (JOKER + 1)
    for c in hand:
        cnt[c] += 1
    by_card: dict[int, list[tuple[int, ...]]] = {}
    for cards, _ in singles:
        for c in set(cards):
            by_card.setdefault(c, []).append(cards)
    search = _RummySearch(by_card, cnt)
    search.dfs([], len(hand), False)
    return search.found


class _RummySearch:
    """`rummy_partitions`' depth-first search (a class for the reason `_OpeningSearch` is)."""

    __slots__ = ("by_card", "cnt", "found", "nodes")

    def __init__(self, by_card: dict[int, list[tuple[int, ...]]], cnt: list[int]) -> None:
        self.by_card, self.cnt = by_card, cnt
        self.found: list[tuple[tuple[int, ...], ...]] = []
        self.nodes = 0

    def dfs(self, chosen: list[tuple[int, ...]], left: int, spare: bool) -> None:
        cnt, found = self.cnt, self.found
        if len(found) >= MAX_RUMMY_PARTITIONS or self.nodes >= MAX_SEARCH_NODES:
            return
        self.nodes += 1
        if left == (0 if spare else 1):
            if chosen:
                found.append(tuple(chosen))
            return
        if left <= 0:
            return  # every card melded: not going rummy (one card must be discarded)
        first = next(c for c in range(53) if cnt[c])
        for cards in self.by_card.get(first, ()):
            if _take(cnt, cards):
                chosen.append(cards)
                self.dfs(chosen, left - len(cards), spare)
                chosen.pop()
                _put(cnt, cards)
        if not spare:
            cnt[first] -= 1
            self.dfs(chosen, left - 1, True)
            cnt[first] += 1
