"""What one seat may see: the `state` object of ../shared/API.md, minus the room's own fields.

The app adds `room`, `version` and `seats` (names, presence, bots) around this. Nothing here
shows another seat's cards, the stock's order or the shuffle seed before the hand ends.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.moves import CardCode, Frozen

PhaseName = Literal["waiting", "draw", "play", "hand_over", "match_over"]


class MeldView(Frozen):
    id: str
    cards: tuple[CardCode, ...]
    kind: Literal["set", "run"]
    # The natural card each position stands for (a joker's role), same length as `cards`.
    stands_for: tuple[CardCode, ...]


class LastMove(Frozen):
    seat: int
    # The move's wire form; a stock draw never names the card drawn.
    move: dict[str, str | list[str] | list[list[str]]]


class HandResultView(Frozen):
    reason: Literal["out", "draw", "stalemate"]
    winner: int | None
    points: tuple[int, ...]
    hands: tuple[tuple[CardCode, ...], ...]
    rummy: bool


class Votes(Frozen):
    next_hand: tuple[int, ...] = ()
    new_match: tuple[int, ...] = ()


class LegalLayoff(Frozen):
    card: CardCode
    meld: str
    # The run's end the card goes to; null for a set.
    end: Literal["low", "high"] | None


class LegalSwap(Frozen):
    card: CardCode
    meld: str


class OpeningMeld(Frozen):
    cards: tuple[CardCode, ...] = Field(description="in the order that gives this reading")
    value: int = Field(description="its opening value, each joker as the card it stands for")


class Opening(Frozen):
    needed: int
    opened: bool
    # Not in `legal.melds` (a meld below the minimum cannot go out alone), yet the opening
    # may combine several: the browser's opening meter adds these up (web/js/legal.js).
    melds: tuple[OpeningMeld, ...] = Field(
        default=(),
        description="before the opening, in the play phase: every single meld the hand "
        "holds with its value (at most 64)",
    )


class Legal(Frozen):
    """What the seat to act may do now (API.md v1.1 `legal`); the server still decides."""

    draw: tuple[Literal["stock", "discard"], ...] = Field(description="sources open now")
    discard: tuple[CardCode, ...] = Field(description="cards that may be discarded now")
    layoffs: tuple[LegalLayoff, ...] = Field(description="single-card lay-offs open now")
    swaps: tuple[LegalSwap, ...] = Field(description="rummy51 joker swaps open now")
    melds: tuple[tuple[CardCode, ...], ...] = Field(
        description="single melds the hand can lay now (at most 64)"
    )
    must_play: tuple[CardCode, ...] = Field(description="jokers that must reach the table first")
    opening: Opening | None = Field(description="rummy51: the opening minimum and this seat's")


class SeatView(Frozen):
    variant: str
    players: int
    seat: int
    phase: PhaseName
    turn: int
    dealer: int
    hand: tuple[CardCode, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    discard_top: CardCode | None
    discard_count: int
    melds: tuple[MeldView, ...]
    scores: tuple[int, ...]
    hand_number: int
    turns_completed: int
    opened: tuple[bool, ...]
    drawn_from_discard: CardCode | None
    last_move: LastMove | None
    hand_result: HandResultView | None
    match_winner: tuple[int, ...] | None
    votes: Votes = Field(default_factory=Votes)
    # Jokers this seat took from the table this turn and still holds (rummy51: play them).
    must_play: tuple[CardCode, ...] = ()
    # Whether this seat has melded or laid off anything yet this hand (going rummy).
    has_played: tuple[bool, ...] = ()
    # basic: how many times the stock has run out this hand.
    stock_exhaustions: int = 0
    # SHA-256 commitment to this hand's shuffle (hex); the seed itself is revealed in the log
    # only after the hand ends.
    commitment: str | None = None
    # What this seat may do now; null when it is not this seat's move (rules.legal).
    legal: Legal | None = None
