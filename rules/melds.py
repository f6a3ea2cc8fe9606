"""Melds on the table: reading a meld from the cards a player lays, and laying off onto one.

A `TMeld` is immutable: a lay-off or a swap builds a new one with the same id. Runs keep
their cards in ascending order; ``low``/``high`` are ranks 1..14 (14 is the ace played
high, rummy51 only). ``stands`` holds the natural card each position stands for, so a
joker's role is explicit.

Reading rules (RULES.md, plus our reading where the rules are silent):

* If every natural card has the same rank, the meld is a set (so ``5H JK JK`` is three
  fives, never the run 5-6-7). Otherwise it is a run of one suit, read in the order given,
  ascending; if that fails, descending (then stored ascending). Only when neither reading
  is a run are the cards arranged (docs/api.md v1.1: any order): naturals by rank, jokers in the
  gaps, a joker left over at the high end unless it was sent before every natural (or the
  high end is full), the ace low if that works, else high. So the order sent decides only
  between several valid readings.
* A run holds at most 13 cards, so it never uses the ace both low and high.
* Lay-offs onto a run: the cards as sent at one end (high first), as in v1; else, arranged,
  the naturals below the run at its low end and those above at its high end (both at once),
  jokers in the gaps and any joker left over at `end` (high by default). `end` settles the
  jokers' side only (docs/api.md v1.2): a natural card goes where its rank fits whatever `end`
  says, so ``JK 9H`` with `end` high onto 10H-JH-QH puts 9H low and the joker high (KH).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import JOKER, cards_name, make
from rules.errors import InvalidLayoff, InvalidMeld
from rules.runs import HIGH_ACE, top_rank

MAX_RUN = 13
MAX_SET = 4
END_ANY, END_LOW, END_HIGH = 0, 1, 2


class TMeld:
    """One meld on the table (engine form). `key` is the suit of a run or rank of a set."""

    __slots__ = ("id", "is_run", "key", "low", "high", "cards", "stands", "_fits")

    def __init__(
        self,
        id: int,
        is_run: bool,
        key: int,
        low: int,
        high: int,
        cards: tuple[int, ...],
        stands: tuple[int, ...],
    ) -> None:
        self.id = id
        self.is_run = is_run
        self.key = key
        self.low = low
        self.high = high
        self.cards = cards
        self.stands = stands
        self._fits = [-1, -1]  # `fit_bits` with the ace low only, and high too, once asked

    def fit_bits(self, ace_high: bool) -> int:
        """`fitting_naturals` as a bitmask (bit c for card int c), worked out once per ace
        rule: a meld never changes, and lay-offs are listed from it again at every turn it
        is on the table. One TMeld may serve rooms of several variants (rules.boundary.moves
        shares them by their cards), so it is remembered per ace rule: a classic room's
        J-Q-K run told a rummy51 room's, where the ace goes high, that no ace fits."""
        fits = self._fits[ace_high]
        if fits < 0:
            fits = self._fits[ace_high] = sum(1 << c for c in fitting_naturals(self, ace_high))
        return fits

    def with_id(self, id: int) -> TMeld:
        return TMeld(id, self.is_run, self.key, self.low, self.high, self.cards, self.stands)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TMeld)
            and other.id == self.id
            and other.cards == self.cards
            and other.stands == self.stands
            and other.is_run == self.is_run
        )

    def __repr__(self) -> str:
        return f"TMeld(m{self.id}, {'run' if self.is_run else 'set'}, {self.cards})"


def set_stands(rank: int, naturals: Sequence[int], jokers: int) -> tuple[int, ...]:
    """Stands-for cards of a set: its naturals, then the missing suits in C D H S order."""
    used = {c // 13 for c in naturals}
    missing = [make(s, rank) for s in range(4) if s not in used]
    extra = [missing[i % len(missing)] if missing else naturals[0] for i in range(jokers)]
    return tuple(naturals) + tuple(extra)


def _read_set(cards: Sequence[int], naturals: list[int], distinct: bool) -> TMeld:
    if len(cards) > MAX_SET:
        raise InvalidMeld(f"a set holds at most 4 cards: {cards_name(cards)}")
    if distinct and len({c // 13 for c in naturals}) != len(naturals):
        raise InvalidMeld(f"the cards of a set must all have different suits: {cards_name(cards)}")
    rank = naturals[0] % 13 + 1
    jokers = len(cards) - len(naturals)
    ordered = tuple(naturals) + (JOKER,) * jokers
    return TMeld(0, False, rank, rank, rank, ordered, set_stands(rank, naturals, jokers))


def _run_base(cards: Sequence[int], suit: int, ace_high: bool) -> int:
    """The rank of the first position if `cards` ascend as a run, else 0."""
    n = len(cards)
    base = 0
    for i, c in enumerate(cards):
        if c != JOKER and c % 13 != 0:
            base = c % 13 + 1 - i
            break
    if base == 0:
        return 0
    top = top_rank(ace_high)
    if base < 1 or base + n - 1 > top:
        return 0
    for i, c in enumerate(cards):
        if c == JOKER:
            continue
        want = base + i
        if c != make(suit, want):
            return 0
        if want == HIGH_ACE and not ace_high:
            return 0
    return base


def read_meld(cards: Sequence[int], ace_high: bool, distinct: bool) -> TMeld:
    """Read the cards a player lays as one meld (id 0: the engine numbers it).

    Raises:
        InvalidMeld: the cards form no set or run.
    """
    n = len(cards)
    if n < 3:
        raise InvalidMeld(f"a meld needs at least 3 cards, not {n}: {cards_name(cards)}")
    naturals = [c for c in cards if c != JOKER]
    if not naturals:
        raise InvalidMeld("a meld needs at least one natural card, not only jokers")
    r0 = naturals[0] % 13
    if all(c % 13 == r0 for c in naturals):
        return _read_set(cards, naturals, distinct)
    suit = naturals[0] // 13
    if n > MAX_RUN or any(c // 13 != suit for c in naturals):
        raise InvalidMeld(f"not a set or a run of one suit: {cards_name(cards)}")
    base = _run_base(cards, suit, ace_high)
    ordered = tuple(cards)
    if not base:
        ordered = tuple(reversed(cards))
        base = _run_base(ordered, suit, ace_high)
    if not base:
        arranged = _arrange_run(cards, suit, ace_high)
        if arranged is None:
            raise InvalidMeld(f"not a run of consecutive cards: {cards_name(cards)}")
        base, ordered = arranged
    stands = tuple(make(suit, base + i) for i in range(n))
    return TMeld(0, True, suit, base, base + n - 1, ordered, stands)


def _arrange_run(
    cards: Sequence[int], suit: int, ace_high: bool
) -> tuple[int, tuple[int, ...]] | None:
    """(first rank, cards ascending) of the run `cards` make in some order, or None.

    The naturals are of `suit` (checked by the caller). Jokers fill the gaps; one left over
    goes high, or low when the cards were sent with a joker before every natural.
    """
    n = len(cards)
    jokers = n - sum(1 for c in cards if c != JOKER)
    lead = 0
    while cards[lead] == JOKER:
        lead += 1
    top = top_rank(ace_high)
    for ace in (1, HIGH_ACE) if ace_high else (1,):
        ranks = sorted(ace if c % 13 == 0 else c % 13 + 1 for c in cards if c != JOKER)
        if len(set(ranks)) != len(ranks):
            return None
        span = ranks[-1] - ranks[0] + 1
        spare = jokers - (span - len(ranks))
        if spare < 0:
            continue
        low_side = min(spare, lead)
        base = ranks[0] - low_side
        if base + n - 1 > top:
            base = top - n + 1
        base = max(base, 1)
        if base > ranks[0] or base + n - 1 < ranks[-1] or base + n - 1 > top:
            continue
        have = set(ranks)
        return base, tuple(make(suit, x) if x in have else JOKER for x in range(base, base + n))
    return None


def _fits(seq: Sequence[int], suit: int, start: int) -> bool:
    for i, c in enumerate(seq):
        if c != JOKER and c != make(suit, start + i):
            return False
    return True


def layoff_run(m: TMeld, cards: Sequence[int], end: int, ace_high: bool) -> TMeld:
    """The run `m` with `cards` added (`end` settles the jokers' side only).

    Cards go on in the order given, ascending, at one end (`end`'s, or the high end first
    when `end` is any); a descending list is read reversed. Failing that, the cards are
    arranged: naturals where their ranks fit, at either end or both (module doc).

    Raises:
        InvalidLayoff: no placement of the cards extends the run (with a joker left over,
            none at the requested end).
    """
    k = len(cards)
    top = top_rank(ace_high)
    if m.high - m.low + 1 + k <= MAX_RUN:
        orders = (tuple(cards),) if k == 1 else (tuple(cards), tuple(reversed(cards)))
        suit = m.key
        if end != END_LOW and m.high + k <= top:
            for seq in orders:
                if _fits(seq, suit, m.high + 1):
                    stands = tuple(make(suit, m.high + 1 + i) for i in range(k))
                    return TMeld(
                        m.id, True, suit, m.low, m.high + k, m.cards + seq, m.stands + stands
                    )
        if end != END_HIGH and m.low - k >= 1:
            for seq in orders:
                if _fits(seq, suit, m.low - k):
                    stands = tuple(make(suit, m.low - k + i) for i in range(k))
                    return TMeld(
                        m.id, True, suit, m.low - k, m.high, seq + m.cards, stands + m.stands
                    )
        both = _layoff_both_ends(m, cards, end, top)
        if both is not None:
            return both
    where = {END_LOW: " at its low end", END_HIGH: " at its high end"}.get(end, "")
    raise InvalidLayoff(f"{cards_name(cards)} cannot extend run m{m.id}{where}")


def _layoff_both_ends(m: TMeld, cards: Sequence[int], end: int, top: int) -> TMeld | None:
    """The run `m` extended by `cards` arranged (module doc), or None if they do not fit.

    Naturals below the run go to its low end, above it to its high end; jokers fill the gaps
    and a joker left over goes to `end` (high unless `end` says low). `end` never moves a
    natural card (docs/api.md v1.2).
    """
    suit = m.key
    below: list[int] = []
    above: list[int] = []
    jokers = 0
    for c in cards:
        if c == JOKER:
            jokers += 1
            continue
        if c // 13 != suit:
            return None
        x = c % 13 + 1
        if x == 1 and top == HIGH_ACE and m.low > 1 and m.high == 13:
            x = HIGH_ACE  # an ace next to the king goes high
        if m.low <= x <= m.high:
            return None
        (below if x < m.low else above).append(x)
    if len(set(below)) != len(below) or len(set(above)) != len(above):
        return None
    low = min(below, default=m.low)
    high = max(above, default=m.high)
    spare = jokers - ((m.low - low) - len(below)) - ((high - m.high) - len(above))
    if spare < 0:
        return None
    if end == END_LOW:
        low -= spare
    else:
        high += spare
    if low < 1 or high > top or high - low + 1 > MAX_RUN:
        return None
    have = set(below) | set(above)
    lo = tuple(make(suit, x) if x in have else JOKER for x in range(low, m.low))
    hi = tuple(make(suit, x) if x in have else JOKER for x in range(m.high + 1, high + 1))
    stands_lo = tuple(make(suit, x) for x in range(low, m.low))
    stands_hi = tuple(make(suit, x) for x in range(m.high + 1, high + 1))
    return TMeld(m.id, True, suit, low, high, lo + m.cards + hi, stands_lo + m.stands + stands_hi)


def layoff_set(
    m: TMeld, cards: Sequence[int], distinct: bool, free_jokers: bool
) -> tuple[TMeld, int]:
    """The set `m` with `cards` added, and how many jokers that frees (rummy51).

    A 3-card set with jokers frees as many jokers as the naturals laid off push it past 4
    cards; any other set never exceeds 4 cards.

    Raises:
        InvalidLayoff: a card of another rank, a repeated suit, or too many cards.
    """
    rank = m.key
    old_nats = [c for c in m.cards if c != JOKER]
    old_j = len(m.cards) - len(old_nats)
    new_nats = [c for c in cards if c != JOKER]
    new_j = len(cards) - len(new_nats)
    for c in new_nats:
        if c % 13 + 1 != rank:
            raise InvalidLayoff(f"{cards_name([c])} does not match set m{m.id}")
    nats = old_nats + new_nats
    if distinct and len({c // 13 for c in nats}) != len(nats):
        raise InvalidLayoff(f"set m{m.id} already has a card of the suit of {cards_name(new_nats)}")
    size = len(m.cards) + len(cards)
    freed = 0
    if size > MAX_SET:
        if not (free_jokers and new_j == 0 and len(m.cards) == 3 and size - MAX_SET <= old_j):
            raise InvalidLayoff(f"set m{m.id} cannot take {cards_name(cards)}: at most 4 cards")
        freed = size - MAX_SET
    jokers = old_j + new_j - freed
    ordered = tuple(nats) + (JOKER,) * jokers
    return TMeld(m.id, False, rank, rank, rank, ordered, set_stands(rank, nats, jokers)), freed


def fitting_naturals(m: TMeld, ace_high: bool) -> set[int]:
    """The natural cards that could be laid off onto `m` one at a time."""
    if m.is_run:
        if m.high - m.low + 1 >= MAX_RUN:
            return set()
        top = top_rank(ace_high)
        out = {make(m.key, m.low - 1)} if m.low > 1 else set()
        if m.high < top:
            out.add(make(m.key, m.high + 1))
        return out
    if len(m.cards) >= MAX_SET:
        return set()
    suits = {c // 13 for c in m.cards if c != JOKER}
    return {make(s, m.key) for s in range(4) if s not in suits}


def can_take_natural(m: TMeld, card: int, ace_high: bool) -> bool:
    """Whether the single natural `card` could be laid off onto `m` (stalemate check)."""
    return card in fitting_naturals(m, ace_high)


def joker_slots(m: TMeld, ace_high: bool) -> int:
    """How many jokers could still be laid off onto `m`."""
    if m.is_run:
        top = top_rank(ace_high)
        return min(MAX_RUN - (m.high - m.low + 1), (m.low - 1) + (top - m.high))
    return MAX_SET - len(m.cards)
