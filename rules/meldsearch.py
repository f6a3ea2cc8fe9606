"""Finding melds in a hand, fast: single melds from cached bitmask tables, and the bounded
multi-meld searches of rummy51's opening and going rummy (see `rules.legal`).

What makes it fast, with the same melds found in the same order (tests/rules/
test_meldsearch.py keeps the plain search as the spec): the hand is one bitmask, so
the ranks held in enough suits for a set and the suits with three ranks in a row come from a
few bit operations; the multi-meld searches start only when an upper bound on what they could
find reaches the goal (most hands miss the opening by far, and a hand with two cards in no
meld cannot go rummy); and they take a meld from the hand's counts by one subtraction of
packed counts (`_packed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
# Keyed by one int (`_key`): the variant's tag, the jokers, then the rank or suit and the
# hand's cards of it.
_SETS: dict[int, Entry] = {}
_RUNS: dict[int, Entry] = {}

_BIT = tuple(1 << c for c in range(JOKER)) + (0,)  # a hand's natural cards: bit c for card c
_SUIT = 0x1FFF  # one suit's 13 bits of such a mask
# Each suit's cards by rank 0..14 (rank 14 the high ace; rank 0 only pads the table).
_SUIT_CARDS = tuple(tuple(make(s, x) for x in range(15)) for s in range(4))
# Three ranks in a row within a suit start at these bits (ace to jack); Q-K-A at the aces.
_RUN_STARTS = sum(1 << (13 * s + x) for s in range(4) for x in range(11))
_ACES = sum(1 << 13 * s for s in range(4))


def _key(r: FastRules, jk: int, which: int, cards: int) -> int:
    """A table's key: the variant (2 bits), jokers (4), rank or suit (4), cards held."""
    return r.tag | jk << 2 | which << 6 | cards << 10


def _keep(table: dict[int, Entry], key: int, found: Entry) -> Entry:
    """Remember `found`, forgetting the oldest entry once the table is full (bounded memory
    in a long-running server, without the cold start a whole clear would cost)."""
    if len(table) >= CACHE_LIMIT:
        del table[next(iter(table))]
    table[key] = found
    return found


def _cover(out: list[Cand]) -> int:
    cover = 0
    for cards, _ in out:
        for c in cards:
            cover |= 1 << c
    return cover


def _sets(r: FastRules, rank0: int, suits: int, jk: int) -> Entry:
    """Sets of one rank; `suits` has bit s set for each suit s of it in hand."""
    present = [s for s in range(4) if suits >> s & 1]
    ns = len(present)
    value = r.opening_values[rank0]
    out: list[Cand] = []
    for mask in range(1, 1 << ns):
        group = tuple(present[i] * 13 + rank0 for i in range(ns) if mask >> i & 1)
        k = len(group)
        for j in range(max(0, 3 - k), min(jk, 4 - k) + 1):
            out.append((group + (JOKER,) * j, value * (k + j)))
    return _keep(_SETS, _key(r, jk, rank0, suits), (out, _cover(out)))


def _runs(r: FastRules, suit: int, ranks: int, jk: int) -> Entry:
    """Runs of one suit; `ranks` has bit x set for rank x (1..13) in hand."""
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
    return _keep(_RUNS, _key(r, jk, suit, ranks), (out, _cover(out)))


def single_melds(hand: Sequence[int], r: FastRules) -> list[Cand]:
    """Every single meld the hand can form, with its opening value.

    Jokers fill gaps and ends; a natural card the hand holds is always used for its own
    place (a joker never replaces a card the hand has).
    """
    return melds_of(card_bits(set(hand)), hand.count(JOKER), r)[0]


def card_bits(distinct: Iterable[int]) -> int:
    """Distinct natural cards as a bitmask (bit c for card int c; a joker adds nothing)."""
    return sum(map(_BIT.__getitem__, distinct))


def melds_of(held: int, jk: int, r: FastRules) -> tuple[list[Cand], int]:
    """`single_melds` of a hand of natural cards `held` (`card_bits`) and `jk` jokers, and
    the card ints its melds use (bit c; bit 52 for a joker)."""
    out: list[Cand] = []
    cover = 0
    by_suit = (held & _SUIT, held >> 13 & _SUIT, held >> 26 & _SUIT, held >> 39)
    c, d, h, s = by_suit
    # The ranks held in enough suits for a set: three, two with a joker, one with two.
    if not jk:
        ranks = c & d & (h | s) | h & s & (c | d)
    elif jk == 1:
        ranks = c & (d | h | s) | d & (h | s) | h & s
    else:
        ranks = c | d | h | s
    base = r.tag | jk << 2  # `_key` spelt out: this runs for every hand
    while ranks:
        low = ranks & -ranks
        x = low.bit_length() - 1
        suits = (c >> x & 1) | (d >> x & 1) << 1 | (h >> x & 1) << 2 | (s >> x & 1) << 3
        found = _SETS.get(base | x << 6 | suits << 10) or _sets(r, x, suits, jk)
        out.extend(found[0])
        cover |= found[1]
        ranks ^= low
    if not (
        jk
        or held & held >> 1 & held >> 2 & _RUN_STARTS
        or (r.ace_high and held & held >> 11 & held >> 12 & _ACES)
    ):
        return out, cover  # no three ranks in a row in any suit, no Q-K-A: no run
    for suit in range(4):
        m = by_suit[suit] << 1
        # Without jokers a run needs three ranks in a row (or Q-K-A); with jokers two
        # naturals.
        if jk:
            if m.bit_count() < 2:
                continue
        elif not m & (m >> 1) & (m >> 2) and not (
            r.ace_high and m & 0b11000000000010 == 0b11000000000010
        ):
            continue
        found = _RUNS.get(base | suit << 6 | m << 10) or _runs(r, suit, m, jk)
        out.extend(found[0])
        cover |= found[1]
    return out, cover


# Card counts packed 4 bits a card int, bit 3 of each field a guard: taking a meld is one
# subtraction of its packed cards, and every guard is still set only if the hand held them.
_FIELD = tuple(1 << 4 * c for c in range(JOKER + 1))
_GUARDS = sum(8 << 4 * c for c in range(JOKER + 1))
_COUNTS = sum(7 << 4 * c for c in range(JOKER + 1))
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
    search = _OpeningSearch(order, need, _GUARDS + sum(map(_FIELD.__getitem__, hand)))
    search.dfs(range(len(order)), [], 0, search.full)
    return search.found


class _OpeningSearch:
    """`opening_combos`' depth-first search. A class rather than a recursive closure: a
    closure that calls itself holds itself, and every search was left to the cyclic
    collector (bot and view code runs it thousands of times a second).

    After a meld, only the later melds that can go with it are tried (`_after`): the same
    nodes in the same order as trying every later meld, less the ones the hand's cards
    rule out at once.
    """

    __slots__ = ("cards", "packs", "values", "need", "full", "found", "nodes", "after")

    def __init__(self, order: list[Cand], need: int, full: int) -> None:
        self.cards = [cards for cards, _ in order]
        self.packs = [_packed(cards) for cards in self.cards]
        self.values = [value for _, value in order]
        self.need = need
        self.full = full  # the whole hand, packed (`_packed`, guards set)
        self.found: list[tuple[tuple[int, ...], ...]] = []
        self.nodes = 0
        self.after: list[list[int] | None] = [None] * len(order)

    def _after(self, pos: int) -> list[int]:
        """The later melds that the hand holds the cards for together with meld `pos`."""
        later = self.after[pos]
        if later is None:
            packs = self.packs
            base = self.full - packs[pos]
            later = [
                j for j in range(pos + 1, len(packs)) if (base - packs[j]) & _GUARDS == _GUARDS
            ]
            self.after[pos] = later
        return later

    def dfs(
        self, options: Iterable[int], chosen: list[tuple[int, ...]], total: int, avail: int
    ) -> None:
        cards, packs, values, found = self.cards, self.packs, self.values, self.found
        for pos in options:
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
                self.dfs(self._after(pos), chosen, t, left)
                chosen.pop()


def rummy_partitions(
    singles: list[Cand], hand: Sequence[int], held: int, jk: int, cover: int
) -> list[tuple[tuple[int, ...], ...]]:
    """Ways to meld all cards but one in one move (going rummy), bounded; `held`, `jk` and
    `cover` as `melds_of` takes and gives them."""
    # Two cards in no meld (two copies of one count twice) leave one over besides the
    # discard: most hands, and then there is nothing to search.
    outside = held & ~cover
    left_out = outside.bit_count() + (0 if cover >> JOKER & 1 else jk)
    if left_out > 1 or (outside and hand.count(outside.bit_length() - 1) > 1):
        return []
    by_card: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for cards, _ in singles:
        pack = _packed(cards)
        for c in set(cards):
            by_card.setdefault(c, []).append((cards, pack))
    search = _RummySearch(by_card)
    search.dfs([], len(hand), False, _GUARDS + sum(map(_FIELD.__getitem__, hand)))
    return search.found


class _RummySearch:
    """`rummy_partitions`' depth-first search (a class for the reason `_OpeningSearch` is)
    over the hand's packed counts: the lowest card left is the lowest field with a count."""

    __slots__ = ("by_card", "found", "nodes")

    def __init__(self, by_card: dict[int, list[tuple[tuple[int, ...], int]]]) -> None:
        self.by_card = by_card
        self.found: list[tuple[tuple[int, ...], ...]] = []
        self.nodes = 0

    def dfs(self, chosen: list[tuple[int, ...]], left: int, spare: bool, avail: int) -> None:
        found = self.found
        if len(found) >= MAX_RUMMY_PARTITIONS or self.nodes >= MAX_SEARCH_NODES:
            return
        self.nodes += 1
        if left == (0 if spare else 1):
            if chosen:
                found.append(tuple(chosen))
            return
        if left <= 0:
            return  # every card melded: not going rummy (one card must be discarded)
        counts = avail & _COUNTS
        first = ((counts & -counts).bit_length() - 1) >> 2
        for cards, pack in self.by_card.get(first, ()):
            rest = avail - pack
            if rest & _GUARDS == _GUARDS:
                chosen.append(cards)
                self.dfs(chosen, left - len(cards), spare, rest)
                chosen.pop()
        if not spare:
            self.dfs(chosen, left - 1, True, avail - _FIELD[first])
