"""Cards as small ints for the bots' own hand arithmetic (no pydantic on the hot path).

A card is `suit * 13 + rank - 1` (rank 1 = ace .. 13 = king, suits C D H S), the joker is
`JOKER` (52). Two decks simply repeat the codes, so a hand is a multiset of ints. Each variant
brings its own point tables (RULES.md): `points` is what a card costs in hand at the end of a
hand, `meld_points` what it counts towards rummy51's 51-point opening.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKER = 52
FULL_DECK = tuple(range(52))


def parse(code: str) -> int:
    """`"TD"` -> 22; `"JK"` -> JOKER."""
    if code == "JK":
        return JOKER
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def code(card: int) -> str:
    """The wire form of a card int: `code(parse("7H")) == "7H"`."""
    if card == JOKER:
        return "JK"
    return RANKS[card % 13] + SUITS[card // 13]


def rank(card: int) -> int:
    """1 (ace) .. 13 (king); 0 for the joker."""
    return 0 if card == JOKER else card % 13 + 1


def suit(card: int) -> int:
    """0..3 (C D H S); -1 for the joker."""
    return -1 if card == JOKER else card // 13


def parse_all(codes: Iterable[str]) -> list[int]:
    return [parse(c) for c in codes]


@dataclass(frozen=True, slots=True)
class Variant:
    """What the bots need to know about a rule set, as plain numbers."""

    name: str
    decks: int
    jokers: int
    ace_high: bool
    opening: int  # 0 when there is no opening minimum
    points: tuple[int, ...]  # indexed by card int, JOKER included
    meld_points: tuple[int, ...]
    must_discard_to_go_out: bool
    set_needs_distinct_suits: bool

    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers


def _points(ace: int, joker: int) -> tuple[int, ...]:
    table = []
    for card in FULL_DECK:
        r = rank(card)
        table.append(ace if r == 1 else min(r, 10))
    table.append(joker)
    return tuple(table)


_CLASSIC_POINTS = _points(ace=1, joker=0)
VARIANTS: dict[str, Variant] = {
    "classic": Variant("classic", 1, 0, False, 0, _CLASSIC_POINTS, _CLASSIC_POINTS, False, True),
    "basic": Variant("basic", 1, 0, False, 0, _CLASSIC_POINTS, _CLASSIC_POINTS, False, True),
    "rummy51": Variant(
        "rummy51", 2, 2, True, 51, _points(ace=11, joker=25), _points(ace=10, joker=0), True, True
    ),
}


def variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}") from None
