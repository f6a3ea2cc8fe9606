"""The game of Rummy: three variants, a pure move reducer, legal moves and per-seat views.

No I/O, no clock, no global randomness: the app passes seeds in, and reads views out.

Public API (everything else is internal and may change):

    get_variant(name) -> RuleSet               VARIANTS: dict[str, RuleSet]
    new_game(variant, players, *, seed: bytes, deal: Deal | None = None,
             limit: int | None = None) -> GameState     limit: rummy51's 101 | 201 | 301
    apply(state, seat, move) -> GameState      raises IllegalMove (code, message)
    vote(state, seat, kind, voters) -> GameState
        kind is "next_hand" | "new_match"; acts once every seat in `voters` voted the same
    seat_view(state, seat) -> SeatView         what that seat may see (docs/api.md `state`),
                                               with `legal` (docs/api.md v1.1) for the seat to act
    spectator_view(state) -> SeatView          what a spectator sees: `seat` None, no hand
    private_fields(state, seat) -> dict        what only that seat sees of its view, as JSON
                                               data: a seat view's JSON is the spectator
                                               view's with these put in
    legal_moves(view) -> Iterator[Move]        every legal move of the seat to act, lazily
    hand_start(state) -> GameState             the current hand as it was dealt
    replay(start, moves) -> GameState          apply (seat, move) pairs from a hand start
    replay_steps(start, moves) -> (ReplayStep, ...)   each step's public table and every hand
    hand_from_deal(variant, players, *, deal, hand_seed, dealer, scores, ...) -> GameState
                                               a hand's start from a match record's parts
    parse_move(data) -> Move                   move_to_json(move) -> dict
    parse_shown_move(data) -> ShownMove        a move as a log or record shows it
    name_pickups(start, moves) -> [(seat, ShownMove)]   a hand's moves as seats saw them
    check_pickups(start, moves)                raises InvalidMove for a misnamed pickup
    as_played(move) -> Move                    a shown move as its seat sent it
    determinize(view, others, stock, discard, seed) -> GameState   (bots' lookahead)

The fast engine behind all of this (mutable `Game`, tuple moves) lives in `rules.engine`
and is documented in `rules.playout`, the API bots use for playouts.

Where each rule of RULES.md lives:

    cards, codes, the packs                 rules.cards (and RuleSet.deck_size)
    the variants' switches and point tables rules.variants (RuleSet; POINTS_* tables),
                                            flattened for the engine in rules.engine.switches
    a turn, the opening, jokers taken,      rules.engine.game (Game.apply and its _draw,
      going out, going rummy                  _meld, _layoff, _swap, _discard), with
                                              rules.engine.jokers (a taken joker's place)
    the end of a turn, scoring, stock       rules.engine.hand (deal, _end_turn, _go_out,
      exhaustion, stalemates, match end,      _finish, vote); the fields in
      votes                                   rules.engine.fields
    what a set or a run is, card order,     rules.melds (read_meld, layoff_run, layoff_set)
      lay-offs, freeing a set's joker
    run adjacency and the high ace          rules.runs
    finding melds in a hand                 rules.meldsearch
    which moves are legal now               rules.engine.generate (+ rules.engine.layoffs
                                            for lay-offs, swaps); rules.legal for a view
    what a seat may see, `legal`            rules.view
    shuffles, seeds, the commitment         rules.shuffle
    the pydantic models: stored state,      the wire's (client/rummy_wire), named here by
      moves on the wire                       rules.state, rules.moves, rules.view
    the reducer over those models           rules.reducer
    models <-> engine form                  rules.boundary.state, rules.boundary.moves
                                            (rules.boundary.carried: the form a model
                                            carries)
    the fast API for bots' playouts         rules.playout
"""

from rules.cards import Card
from rules.determinize import determinize
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
    WrongPhase,
)
from rules.legal import legal_moves
from rules.moves import (
    SENT_WHOLE,
    Discard,
    Draw,
    End,
    LayOff,
    Meld,
    Move,
    ShownDraw,
    ShownMove,
    Swap,
    VoteKind,
    move_to_json,
    parse_move,
    parse_shown_move,
)
from rules.pickups import as_played, check_pickups, discard_pickups, name_pickups
from rules.reducer import apply, hand_start, new_game, replay, vote
from rules.replays import ReplayStep, hand_from_deal, replay_steps
from rules.state import Deal, GameState, HandResult, LastMove, TableMeld, Votes
from rules.variants import VARIANTS, RuleSet, VariantName, get_variant
from rules.view import (
    Legal,
    LegalLayoff,
    LegalSwap,
    MeldView,
    Opening,
    SeatView,
    SpectatorView,
    private_fields,
    seat_view,
    spectator_view,
)

__all__ = [
    "as_played",
    "check_pickups",
    "discard_pickups",
    "name_pickups",
    "parse_shown_move",
    "SENT_WHOLE",
    "VARIANTS",
    "AlreadyDrawn",
    "Card",
    "CannotDiscardDrawnCard",
    "CardNotInHand",
    "Deal",
    "Discard",
    "Draw",
    "End",
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
    "LastMove",
    "Legal",
    "LegalLayoff",
    "LegalSwap",
    "LayOff",
    "Meld",
    "MeldNotFound",
    "MeldView",
    "Move",
    "MustDiscardToGoOut",
    "MustDrawFirst",
    "MustPlayJoker",
    "NotOpened",
    "NotYourTurn",
    "NothingToDraw",
    "Opening",
    "OpeningBelow51",
    "ReplayStep",
    "RuleSet",
    "SeatView",
    "ShownDraw",
    "ShownMove",
    "SpectatorView",
    "Swap",
    "TableMeld",
    "VariantName",
    "VoteKind",
    "Votes",
    "WrongPhase",
    "apply",
    "determinize",
    "get_variant",
    "hand_from_deal",
    "hand_start",
    "legal_moves",
    "move_to_json",
    "new_game",
    "parse_move",
    "replay",
    "replay_steps",
    "private_fields",
    "seat_view",
    "spectator_view",
    "vote",
]
