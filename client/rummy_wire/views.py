"""What a seat sees of its room (docs/api.md, "A seat's view"): the view, with `legal`, what
the seat may do now; the seats' infos; and the view of someone watching."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from rummy_wire.base import SENT_WHOLE, CardCode, Carrier, Frozen
from rummy_wire.choices import BotLevel, BotName
from rummy_wire.game import HandResult, LastMove, Phase, TableMeld, Votes
from rummy_wire.moves import DrawSource, End
from rummy_wire.variants import VariantName


class LegalLayoff(Frozen):
    card: CardCode
    meld: str
    # The run's end the card goes to; null for a set.
    end: End | None


class LegalSwap(Frozen):
    card: CardCode
    meld: str


class OpeningMeld(Frozen):
    cards: tuple[CardCode, ...] = Field(description="in the order that gives this reading")
    value: int = Field(description="its opening value, each joker as the card it stands for")


class Opening(Frozen):
    model_config = SENT_WHOLE

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
    """What the seat to act may do now (docs/api.md, `legal`); the server still decides."""

    draw: tuple[DrawSource, ...] = Field(description="sources open now")
    discard: tuple[CardCode, ...] = Field(description="cards that may be discarded now")
    layoffs: tuple[LegalLayoff, ...] = Field(description="single-card lay-offs open now")
    swaps: tuple[LegalSwap, ...] = Field(description="rummy51 joker swaps open now")
    melds: tuple[tuple[CardCode, ...], ...] = Field(
        description="single melds the hand can lay now (at most 64)"
    )
    must_play: tuple[CardCode, ...] = Field(description="jokers that must reach the table first")
    opening: Opening | None = Field(description="rummy51: the opening minimum and this seat's")


class SeatView(Carrier):
    model_config = SENT_WHOLE

    variant: VariantName
    players: int
    seat: int
    phase: Phase
    turn: int
    dealer: int
    hand: tuple[CardCode, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    discard_top: CardCode | None
    discard_count: int
    melds: tuple[TableMeld, ...]
    scores: tuple[int, ...]
    hand_number: int
    turns_completed: int
    opened: tuple[bool, ...]
    drawn_from_discard: CardCode | None
    last_move: LastMove | None
    hand_result: HandResult | None
    match_winner: tuple[int, ...] | None
    votes: Votes = Field(default_factory=Votes)
    # Jokers this seat took from the table this turn and still holds (rummy51: play them).
    must_play: tuple[CardCode, ...] = ()
    # Whether this seat has melded or laid off anything yet this hand (going rummy).
    has_played: tuple[bool, ...] = ()
    # basic: how many times the stock has run out this hand.
    stock_exhaustions: int = 0
    # rummy51: the penalty total that ends the match (101, 201 or 301); None elsewhere.
    limit: int | None = None
    # SHA-256 commitment to this hand's shuffle (hex); the seed itself is revealed in the log
    # only after the hand ends.
    commitment: str | None = None
    # What this seat may do now; null when it is not this seat's move.
    legal: Legal | None = None


class SpectatorView(SeatView):
    """The table as everyone sees it (a replay's steps): no seat, `hand` empty, `legal`
    null."""

    # A view without a seat; code that reads `seat` of a SeatView never gets one of these.
    seat: None = None  # type: ignore[assignment]


class SeatInfo(BaseModel):
    """A seat as every view shows it: its name, presence, computer and stand-in."""

    model_config = SENT_WHOLE

    name: str | None
    connected: bool
    bot: BotName | None = Field(description="strategy or level of a computer seat, else null")
    away_since: datetime | None = Field(
        None, description="a human seat without a socket: when its last one closed"
    )
    stand_in: BotLevel | None = Field(
        None, description="the level of the bot playing this seat while its owner is away"
    )
    timeouts: int = Field(0, description="turns the turn timer played for this seat")


class RoomView(SeatView):
    """One seat's view of the room (docs/api.md, "A seat's view")."""

    room: str
    version: int
    seats: tuple[SeatInfo, ...]
    turn_deadline: datetime | None = Field(
        None, description="when the turn now played runs out (rooms with a turn timer)"
    )


class WatchView(RoomView):
    """The room as a spectator sees it (docs/api.md, "A seat's view"): no seat, no hand, no
    `legal`."""

    seat: None = None  # type: ignore[assignment]
