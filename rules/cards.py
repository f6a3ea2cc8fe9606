"""Cards: wire codes (`AS`, `TD`, `JK`), the small ints the engine uses inside, and decks.

Inside the engine a card is an int: ``suit * 13 + (rank - 1)`` with rank 1 (ace) .. 13
(king) and suits in the order ``C D H S``; the joker is ``52``. Two copies of one code (the
two decks of rummy51) are the same int: equal codes are interchangeable (RULES.md).

>>> Card.parse("TD")
Card.parse('TD')
>>> str(Card.parse("JK"))
'JK'
>>> code_to_int("AS"), int_to_code(52)
(39, 'JK')
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKER = 52
JOKER_CODE = "JK"
N_CODES = 53

RANK_WORDS = (
    "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king",
)  # fmt: skip
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (JOKER_CODE,)
_INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}


def code_to_int(code: str) -> int:
    """The engine's int for a card code.

    Raises:
        KeyError: `code` is not a card code.
    """
    return _INDEX[code]


def int_to_code(card: int) -> str:
    """The wire code of an engine int."""
    return CODES[card]


def is_code(code: str) -> bool:
    """Whether `code` is a card code (`AS` .. `KH`, `JK`)."""
    return code in _INDEX


def codes(cards: Iterable[int]) -> tuple[str, ...]:
    """Wire codes of engine ints."""
    return tuple(map(CODES.__getitem__, cards))


def ints(cards: Iterable[str]) -> tuple[int, ...]:
    """Engine ints of wire codes (already validated, e.g. by the pydantic pattern).

    Raises:
        KeyError: not a card code.
    """
    return tuple(map(_INDEX.__getitem__, cards))


def rank_of(card: int) -> int:
    """Rank 1 (ace) .. 13 (king) of a natural card; 0 for the joker."""
    return 0 if card == JOKER else card % 13 + 1


def suit_of(card: int) -> int:
    """Suit index 0..3 (C D H S) of a natural card; -1 for the joker."""
    return -1 if card == JOKER else card // 13


def make(suit: int, rank: int) -> int:
    """The card of `suit` and `rank`; rank 14 is the ace played high."""
    return suit * 13 + (rank - 1) % 13


def card_name(card: int) -> str:
    """Plain words for a card, as error messages use them.

    >>> card_name(code_to_int("7H")), card_name(JOKER)
    ('the seven of hearts (7H)', 'the joker (JK)')
    """
    if card == JOKER:
        return "the joker (JK)"
    return f"the {RANK_WORDS[card % 13]} of {SUIT_WORDS[card // 13]} ({CODES[card]})"


def cards_name(cards: Iterable[int]) -> str:
    """Plain words for several cards."""
    names = [card_name(c) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def make_deck(decks: int, jokers: int) -> list[int]:
    """Every card of a variant's pack, in a fixed order (the input of the shuffle)."""
    deck: list[int] = []
    for _ in range(decks):
        deck.extend(range(52))
    deck.extend([JOKER] * jokers)
    return deck


class Card:
    """A card code as a small value object, reading like its wire form."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        if not 0 <= index < N_CODES:
            raise ValueError(f"no card with index {index}")
        self.index = index

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read a card code.

        Raises:
            ValueError: not a card code.
        """
        if code not in _INDEX:
            raise ValueError(f"not a card code: {code!r}")
        return cls(_INDEX[code])

    def __str__(self) -> str:
        return CODES[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({CODES[self.index]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __hash__(self) -> int:
        return hash(self.index)
