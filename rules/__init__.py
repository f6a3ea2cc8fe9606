"""The game of Rummy: three variants, a pure move reducer, legal moves and per-seat views.

No I/O, no clock, no global randomness: the app passes seeds in, and reads views out.

Public API (everything else is internal and may change):

    get_variant(name) -> RuleSet               VARIANTS: dict[str, RuleSet]
    new_game(variant, players, *, seed: bytes, deal: Deal | None = None) -> GameState
    apply(state, seat, move) -> GameState      raises IllegalMove (code, message)
    vote(state, seat, kind, voters) -> GameState
        kind is "next_hand" | "new_match"; acts once every seat in `voters` voted the same
    seat_view(state, seat) -> SeatView         what that seat may see (API.md `state`)
    legal_moves(view) -> Iterator[Move]        every legal move of the seat to act, lazily
    hand_start(state) -> GameState             the current hand as it was dealt
    replay(start, moves) -> GameState          apply (seat, move) pairs from a hand start
    parse_move(data) -> Move                   move_to_json(move) -> dict
    determinize(view, others, stock, discard, seed) -> GameState   (bots' lookahead)

The fast engine behind all of this (mutable `Game`, tuple moves) is documented in
`rules.fast`; bots use it for playouts.
"""

from rules.cards import Card
from rules.determinize import determinize
from rules.engine import apply, hand_start, new_game, replay, vote
from rules.errors import (
    AlreadyDrawn,
    CannotDiscardDrawnCard,
    CardNotInHand,
    IllegalMove,
    InvalidDeal,
    InvalidLayoff,
    InvalidMeld,
    InvalidMove,
    InvalidSetup,
    InvalidSwap,
    InvalidVote,
    MeldNotFound,
    MustDiscardToGoOut,
    MustDrawFirst,
    MustPlayJoker,
    NothingToDraw,
    NotOpened,
    NotYourTurn,
    OpeningBelow51,
    RuleError,
    WrongPhase,
)
from rules.legal import legal_moves
from rules.moves import Discard, Draw, LayOff, Meld, Move, Swap, VoteKind, move_to_json, parse_move
from rules.state import Deal, GameState, HandResult, TableMeld
from rules.variants import VARIANTS, RuleSet, get_variant
from rules.view import SeatView
from rules.views import seat_view

__all__ = [
    "VARIANTS",
    "AlreadyDrawn",
    "Card",
    "CannotDiscardDrawnCard",
    "CardNotInHand",
    "Deal",
    "Discard",
    "Draw",
    "GameState",
    "HandResult",
    "IllegalMove",
    "InvalidDeal",
    "InvalidLayoff",
    "InvalidMeld",
    "InvalidMove",
    "InvalidSetup",
    "InvalidSwap",
    "InvalidVote",
    "LayOff",
    "Meld",
    "MeldNotFound",
    "Move",
    "MustDiscardToGoOut",
    "MustDrawFirst",
    "MustPlayJoker",
    "NotOpened",
    "NotYourTurn",
    "NothingToDraw",
    "OpeningBelow51",
    "RuleError",
    "RuleSet",
    "SeatView",
    "Swap",
    "TableMeld",
    "VoteKind",
    "WrongPhase",
    "apply",
    "determinize",
    "get_variant",
    "hand_start",
    "legal_moves",
    "move_to_json",
    "new_game",
    "parse_move",
    "replay",
    "seat_view",
    "vote",
]
