"""A whole match and its parts: frozen models that round-trip through JSON.

`GameState` is what the server saves as its snapshot, and what the hand log shows of a
finished hand's deal (`start`). A live one holds secrets (every hand, the stock's order,
the seeds): the server never sends one before its hand is over, only views of it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from typing_extensions import TypeAliasType

from rummy_wire.base import SENT_WHOLE, CardCode, Carrier, Frozen
from rummy_wire.moves import ShownMoveData
from rummy_wire.variants import VariantName

# One named enum in JSON Schema, wherever a view or a state has a phase.
Phase = TypeAliasType("Phase", Literal["waiting", "draw", "play", "hand_over", "match_over"])


class LastMove(Frozen):
    seat: int
    # The move's wire form; a stock draw never names the card drawn, a discard draw does.
    move: ShownMoveData


class Votes(Frozen):
    model_config = SENT_WHOLE

    next_hand: tuple[int, ...] = ()
    new_match: tuple[int, ...] = ()


class Deal(Frozen):
    """A fixed deal for a test or a puzzle: it must use exactly the variant's pack.

    Hand sizes are free (a puzzle may deal fewer cards); `discard` lists the pile bottom
    first with its top card last, `stock` lists the stock top first.
    """

    hands: tuple[tuple[CardCode, ...], ...]
    discard: tuple[CardCode, ...] = ()
    stock: tuple[CardCode, ...] = ()


class TableMeld(Frozen):
    """A meld on the table, in the state and in every view (`MeldView`)."""

    id: str
    cards: tuple[CardCode, ...]
    kind: Literal["set", "run"]
    # The natural card each position stands for (a joker's role), same length as `cards`.
    stands_for: tuple[CardCode, ...]


class HandResult(Frozen):
    """How a hand ended: `points` scored (winner_takes_all) or penalties (penalty scoring)
    this hand, per seat; `hands` every seat's cards at the end."""

    reason: Literal["out", "draw", "stalemate"]
    winner: int | None
    points: tuple[int, ...]
    hands: tuple[tuple[CardCode, ...], ...]
    rummy: bool


class GameState(Carrier):
    """A whole match: the current hand, the scores and where the shuffles come from.

    One the server's rules made carries their engine's form of it (`Carrier`); one decoded
    from JSON gets it on its first use there.
    """

    model_config = SENT_WHOLE

    variant: VariantName
    players: int = Field(ge=2, le=4)
    # Hex of the match seed; every hand derives its own seed from it.
    seed: str
    match_number: int = 1
    hand_number: int = 1
    hand_seed: str
    fixed_deal: Deal | None = None
    reshuffles: int = 0
    stock_exhaustions: int = 0
    # rummy51: the penalty total that ends the match (101, 201 or 301); None elsewhere.
    limit: int | None = None
    hands: tuple[tuple[CardCode, ...], ...]
    stock: tuple[CardCode, ...]  # top first
    discard: tuple[CardCode, ...]  # top last
    melds: tuple[TableMeld, ...] = ()
    next_meld_id: int = 1
    phase: Phase
    turn: int
    dealer: int
    scores: tuple[int, ...]
    turns_completed: int = 0
    opened: tuple[bool, ...]
    # Melded or laid off in an earlier turn of this hand (going rummy).
    has_played: tuple[bool, ...]
    drawn_from_discard: CardCode | None = None
    # Jokers taken from the table this turn that must still be played (rummy51).
    jokers_taken: int = 0
    laid_off_this_turn: bool = False
    played_this_turn: bool = False
    hand_result: HandResult | None = None
    match_winner: tuple[int, ...] | None = None
    votes: Votes = Field(default_factory=Votes)
    last_move: LastMove | None = None

    @model_validator(mode="after")
    def _per_seat_tuples_fit(self) -> GameState:
        n = self.players
        for name in ("hands", "scores", "opened", "has_played"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} must have one entry per seat ({n})")
        if not (0 <= self.turn < n and 0 <= self.dealer < n):
            raise ValueError("turn and dealer must be seats of the game")
        return self
