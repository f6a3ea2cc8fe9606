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
_SETS: dict[tuple[str, int, int, int], list[Cand]] = {}
_RUNS: dict[tuple[str, int, int, int], list[Cand]] = {}


def _keep(
    table: dict[tuple[str, int, int, int], list[Cand]],
    key: tuple[str, int, int, int],
    found: list[Cand],
) -> None:
    """Remember `found`, forgetting the oldest entry once the table is full (bounded memory
    in a long-running server, without the cold start a whole clear would cost)."""
    if len(table) >= CACHE_LIMIT:
        del table[next(iter(table))]
    table[key] = found


def _sets(r: FastRules, rank0: int, suits: int, jk: int) -> list[Cand]:
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
    _keep(_SETS, key, out)
    return out


def _runs(r: FastRules, suit: int, ranks: int, jk: int) -> list[Cand]:
    """Runs of one suit; `ranks` has bit x set for rank x (1..13) in hand."""
    key = (r.name, suit, ranks, jk)
    found = _RUNS.get(key)
    if found is not None:
        return found
    top = r.top_rank
    pres = [bool(ranks >> x & 1) for x in range(15)]
    if top == HIGH_ACE:
        pres[HIGH_ACE] = pres[1]
    values = [0] + [r.opening_values[make(suit, x)] for x in range(1, 15)]
    out: list[Cand] = []
    for a in range(1, top - 1):
        if not pres[a] and not jk:
            continue
        missing = nat = value = 0
        for b in range(a, min(top, a + MAX_RUN - 1) + 1):
            value += values[b]
            if pres[b]:
                nat += 1
            else:
                missing += 1
                if missing > jk:
                    break
            # One natural with jokers reads as a set (rules.melds), so runs need two.
            if b - a >= 2 and nat >= 2:
                cards = tuple(make(suit, x) if pres[x] else JOKER for x in range(a, b + 1))
                out.append((cards, value))
    _keep(_RUNS, key, out)
    return out


def single_melds(hand: Sequence[int], r: FastRules) -> list[Cand]:
    """Every single meld the hand can form, with its opening value.

    Jokers fill gaps and ends; a natural card the hand holds is always used for its own
    place (a joker never replaces a card the hand has).
    """
    jk = 0
    smask = [0, 0, 0, 0]
    rmask = [0] * 13
    for c in hand:
        if c == JOKER:
            jk += 1
            continue
        s, x = divmod(c, 13)
        smask[s] |= 2 << x
        rmask[x] |= 1 << s
    out: list[Cand] = []
    need = 3 - jk
    name = r.name
    for x in range(13):
        m = rmask[x]
        if m and m.bit_count() >= need:
            found = _SETS.get((name, x, m, jk))
            out.extend(found if found is not None else _sets(r, x, m, jk))
    for s in range(4):
        m = smask[s]
        # Without jokers a run needs three ranks in a row; with jokers two naturals.
        if (m & (m >> 1) & (m >> 2)) if not jk else m.bit_count() >= 2:
            found = _RUNS.get((name, s, m, jk))
            out.extend(found if found is not None else _runs(r, s, m, jk))
        elif not jk and r.ace_high and m & 0b11000000000010 == 0b11000000000010:
            out.extend(_runs(r, s, m, jk))  # Q-K-A
    return out


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


def opening_combos(
    singles: list[Cand], cnt: list[int], need: int
) -> list[tuple[tuple[int, ...], ...]]:
    """Sets of 2..4 disjoint melds that first reach `need` points (bounded search)."""
    jk = cnt[JOKER]
    covered: set[int] = set()
    for cards, _ in singles:
        covered.update(cards)
    bound = sum(10 * cnt[c] for c in covered if c != JOKER) + 10 * jk
    if bound < need or len(singles) < 2:
        return []
    search = _OpeningSearch(sorted(singles, key=lambda cv: -cv[1]), cnt, need)
    search.dfs(0, [], 0)
    return search.found


class _OpeningSearch:
    """`opening_combos`' depth-first search. A class rather than a recursive closure: a
    closure that calls itself holds itself, and every search was left to the cyclic
    collector (bot and view code runs it thousands of times a second)."""

    __slots__ = ("order", "cnt", "need", "found", "nodes")

    def __init__(self, order: list[Cand], cnt: list[int], need: int) -> None:
        self.order, self.cnt, self.need = order, cnt, need
        self.found: list[tuple[tuple[int, ...], ...]] = []
        self.nodes = 0

    def dfs(self, start: int, chosen: list[tuple[int, ...]], total: int) -> None:
        order, cnt, found = self.order, self.cnt, self.found
        for pos in range(start, len(order)):
            if len(found) >= MAX_OPENING_COMBOS or self.nodes >= MAX_SEARCH_NODES:
                return
            cards, value = order[pos]
            if not _take(cnt, cards):
                continue
            self.nodes += 1
            t = total + value
            if t >= self.need:
                if chosen:
                    found.append((*chosen, cards))
            elif len(chosen) < 3:
                chosen.append(cards)
                self.dfs(pos + 1, chosen, t)
                chosen.pop()
            _put(cnt, cards)


def rummy_partitions(
    singles: list[Cand], cnt: list[int], n_cards: int
) -> list[tuple[tuple[int, ...], ...]]:
    """Ways to meld all cards but one in one move (going rummy), bounded."""
    covered: set[int] = set()
    for cards, _ in singles:
        covered.update(cards)
    if sum(cnt[c] for c in covered) < n_cards - 1:
        return []
    by_card: dict[int, list[tuple[int, ...]]] = {}
    for cards, _ in singles:
        for c in set(cards):
            by_card.setdefault(c, []).append(cards)
    search = _RummySearch(by_card, cnt)
    search.dfs([], n_cards, False)
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
