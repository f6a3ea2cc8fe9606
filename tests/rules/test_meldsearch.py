"""The fast meld search (`rules.meldsearch`: bitmasks, packed counts, bounds that skip a
search) finds exactly what the plain search it replaced found, in the same order: every bot's
and every listing's choice depends on that order. The plain forms are kept here as the spec:
a loop over ranks and suits for single melds, and depth-first searches over a list of counts
that try every meld at every step, within the same bounds of nodes and results."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rules import meldsearch, playout
from rules.cards import JOKER, N_CODES, make
from rules.melds import MAX_RUN, fitting_naturals, read_meld
from rules.meldsearch import MAX_OPENING_COMBOS, MAX_RUMMY_PARTITIONS, MAX_SEARCH_NODES, Cand
from rules.runs import HIGH_ACE

Combos = list[tuple[tuple[int, ...], ...]]


def plain_single_melds(hand: Sequence[int], r: playout.FastRules) -> list[Cand]:
    jk = hand.count(JOKER)
    out: list[Cand] = []
    for x in range(13):
        present = [s for s in range(4) if make(s, x + 1) in hand]
        if not present or len(present) < 3 - jk:
            continue
        value = r.opening_values[x]
        for mask in range(1, 1 << len(present)):
            group = tuple(present[i] * 13 + x for i in range(len(present)) if mask >> i & 1)
            for j in range(max(0, 3 - len(group)), min(jk, 4 - len(group)) + 1):
                out.append((group + (JOKER,) * j, value * (len(group) + j)))
    for s in range(4):
        pres = [x >= 1 and make(s, x) in hand for x in range(15)]
        pres[HIGH_ACE] = r.top_rank == HIGH_ACE and pres[1]
        held = sum(pres[1:14])
        qka = r.ace_high and pres[12] and pres[13] and pres[1]
        three = any(pres[x] and pres[x + 1] and pres[x + 2] for x in range(1, 12))
        if not (held >= 2 if jk else three or qka):
            continue
        for a in range(1, r.top_rank - 1):
            if not pres[a] and not jk:
                continue
            missing = nat = value = 0
            for b in range(a, min(r.top_rank, a + MAX_RUN - 1) + 1):
                value += r.opening_values[make(s, b)]
                nat += pres[b]
                missing += not pres[b]
                if missing > jk:
                    break
                if b - a >= 2 and nat >= 2:
                    cards = tuple(make(s, x) if pres[x] else JOKER for x in range(a, b + 1))
                    out.append((cards, value))
    return out


def _take(cnt: list[int], cards: Sequence[int]) -> bool:
    if any(cnt[c] < cards.count(c) for c in set(cards)):
        return False
    for c in cards:
        cnt[c] -= 1
    return True


def _put(cnt: list[int], cards: Sequence[int]) -> None:
    for c in cards:
        cnt[c] += 1


def plain_opening_combos(singles: list[Cand], cnt: list[int], need: int) -> Combos:
    order = sorted(singles, key=lambda cv: -cv[1])
    found: Combos = []
    nodes = [0]

    def dfs(start: int, chosen: list[tuple[int, ...]], total: int) -> None:
        for pos in range(start, len(order)):
            if len(found) >= MAX_OPENING_COMBOS or nodes[0] >= MAX_SEARCH_NODES:
                return
            cards, value = order[pos]
            if not _take(cnt, cards):
                continue
            nodes[0] += 1
            if total + value >= need:
                if chosen:
                    found.append((*chosen, cards))
            elif len(chosen) < 3:
                dfs(pos + 1, [*chosen, cards], total + value)
            _put(cnt, cards)

    covered = {c for cards, _ in singles for c in cards}
    if sum(10 * cnt[c] for c in covered if c != JOKER) + 10 * cnt[JOKER] < need:
        return []
    dfs(0, [], 0)
    return found


def plain_rummy_partitions(singles: list[Cand], cnt: list[int], n_cards: int) -> Combos:
    found: Combos = []
    nodes = [0]

    def dfs(chosen: list[tuple[int, ...]], left: int, spare: bool) -> None:
        if len(found) >= MAX_RUMMY_PARTITIONS or nodes[0] >= MAX_SEARCH_NODES:
            return
        nodes[0] += 1
        if left == (0 if spare else 1):
            if chosen:
                found.append(tuple(chosen))
            return
        if left <= 0:
            return
        first = next(c for c in range(N_CODES) if cnt[c])
        for cards, _ in singles:
            if first in cards and _take(cnt, cards):
                dfs([*chosen, cards], left - len(cards), spare)
                _put(cnt, cards)
        if not spare:
            cnt[first] -= 1
            dfs(chosen, left - 1, True)
            cnt[first] += 1

    dfs([], n_cards, False)
    return found


def _hands(variant: str, count: int, seed: int) -> list[list[int]]:
    """Random hands of 3 to 15 cards from the variant's pack, half of them meld-rich: cards
    of two suits and a few ranks, so that the searches have much to find."""
    deck = list(playout.fast_rules(variant).deck)
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        size = rng.randint(3, 15)
        if i % 2:
            suits, ranks = rng.sample(range(4), 2), rng.sample(range(1, 14), 7)
            pool = [c for c in deck if c == JOKER or (c // 13 in suits and c % 13 + 1 in ranks)]
            hands.append(rng.sample(pool, min(size, len(pool))))
        else:
            hands.append(rng.sample(deck, size))
    return hands


@pytest.mark.parametrize("variant", ["classic", "basic", "rummy51"])
def test_single_melds_are_the_plain_search_s_in_its_order(variant: str) -> None:
    r = playout.fast_rules(variant)
    for hand in _hands(variant, 3000, 1):
        assert playout.single_melds(hand, r) == plain_single_melds(hand, r), hand


def test_rummy51_multi_meld_searches_find_what_the_plain_searches_find() -> None:
    r = playout.fast_rules("rummy51")
    searched = found = 0
    for hand in _hands("rummy51", 4000, 2):
        held = meldsearch.card_bits(set(hand))
        jk = hand.count(JOKER)
        singles, cover = meldsearch.melds_of(held, jk, r)
        cnt = [hand.count(c) for c in range(N_CODES)]
        combos = meldsearch.opening_combos(singles, hand, 51, cover, r.opening_values)
        assert combos == plain_opening_combos(singles, list(cnt), 51), hand
        parts = meldsearch.rummy_partitions(singles, hand, held, jk, cover)
        assert parts == plain_rummy_partitions(singles, list(cnt), len(hand)), hand
        searched += 1
        found += bool(combos) + bool(parts)
    assert found > 300  # the hands gave both searches something to find


@pytest.mark.parametrize("variant", ["classic", "rummy51"])
def test_a_meld_s_fit_bits_are_its_fitting_naturals(variant: str) -> None:
    r = playout.fast_rules(variant)
    for hand in _hands(variant, 600, 3):
        for cards, _ in playout.single_melds(hand, r):
            meld = read_meld(cards, r.ace_high, r.distinct)
            want = sum(1 << c for c in fitting_naturals(meld, r.ace_high))
            assert meld.fit_bits(r.ace_high) == want
            assert meld.fit_bits(r.ace_high) == want  # the kept answer too
