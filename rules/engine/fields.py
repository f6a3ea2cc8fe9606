"""The fields of a match in engine form: the phases, the move kinds, a hand's `Result`, and
`GameFields`, the slots and constructor that `rules.engine.hand.HandGame` (the life of a
hand) and `rules.engine.game.Game` (the moves) build on.

A `Game`'s attributes carry the names of `GameState`'s fields. Cards are ints
(`rules.cards`), meld ids are ints (``"m7"`` is 7). `stock` lists the stock top card FIRST, as
`GameState.stock`, a fixed deal and the log do (``pop(0)`` draws).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from rules.engine.switches import FastRules
from rules.melds import TMeld
from rules.state import PhaseName

ReasonName = Literal["out", "draw", "stalemate"]
FixedDeal = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]

DRAW_PHASE, PLAY_PHASE, HAND_OVER, MATCH_OVER = 1, 2, 3, 4
PHASE_NAMES: dict[int, PhaseName] = {
    DRAW_PHASE: "draw",
    PLAY_PHASE: "play",
    HAND_OVER: "hand_over",
    MATCH_OVER: "match_over",
}
PHASE_INTS = {v: k for k, v in PHASE_NAMES.items()}
DRAW, MELD, LAYOFF, SWAP, DISCARD = 0, 1, 2, 3, 4
SRC_STOCK, SRC_DISCARD = 0, 1

FastMove = tuple[Any, ...]


class Result(NamedTuple):
    """How a hand ended (engine form of `HandResult`)."""

    reason: ReasonName
    winner: int | None
    points: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    rummy: bool


class GameFields:
    """The fields of a whole match in engine form, and the one constructor every `Game` is
    built with: a new match (then `deal()`), a stored `GameState`
    (`rules.boundary.state.game_of`) and a seat's view (`rules.legal.game_from_view`).
    `Game.copy` and `rules.engine.generate.seen_by` fill the slots directly, for speed.
    """

    __slots__ = (
        "r", "players", "seed", "limit", "match_number", "hand_number", "hand_seed",
        "fixed_deal", "reshuffles", "stock_exhaustions", "hands", "stock", "discard", "melds",
        "next_meld_id", "phase", "turn", "dealer", "scores", "turns_completed", "opened",
        "has_played", "drawn_from_discard", "jokers_taken", "laid_off_this_turn",
        "played_this_turn", "hand_result", "match_winner", "votes_next", "votes_new",
        "last_move",
    )  # fmt: skip

    r: FastRules
    players: int
    seed: bytes
    # rummy51: the penalty total that ends the match (RULES.md match length); 0 for none.
    limit: int
    match_number: int
    hand_number: int
    hand_seed: bytes
    fixed_deal: FixedDeal | None
    reshuffles: int
    stock_exhaustions: int
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    melds: list[TMeld]
    next_meld_id: int
    phase: int
    turn: int
    dealer: int
    scores: list[int]
    turns_completed: int
    opened: list[bool]
    # Melded or laid off in an earlier turn of this hand (going rummy).
    has_played: list[bool]
    # The card taken from the discard pile this turn, or -1.
    drawn_from_discard: int
    # Jokers taken from the table this turn that must still be played (rummy51).
    jokers_taken: int
    laid_off_this_turn: bool
    played_this_turn: bool
    hand_result: Result | None
    match_winner: tuple[int, ...] | None
    votes_next: tuple[int, ...]
    votes_new: tuple[int, ...]
    last_move: tuple[int, tuple[Any, ...]] | None

    def __init__(
        self,
        r: FastRules,
        players: int,
        seed: bytes,
        *,
        limit: int | None = None,
        match_number: int = 1,
        hand_number: int = 1,
        hand_seed: bytes = b"",
        fixed_deal: FixedDeal | None = None,
        reshuffles: int = 0,
        stock_exhaustions: int = 0,
        hands: list[list[int]] | None = None,
        stock: list[int] | None = None,
        discard: list[int] | None = None,
        melds: list[TMeld] | None = None,
        next_meld_id: int = 1,
        phase: int = DRAW_PHASE,
        turn: int = 0,
        dealer: int | None = None,
        scores: list[int] | None = None,
        turns_completed: int = 0,
        opened: list[bool] | None = None,
        has_played: list[bool] | None = None,
        drawn_from_discard: int = -1,
        jokers_taken: int = 0,
        laid_off_this_turn: bool = False,
        played_this_turn: bool = False,
        hand_result: Result | None = None,
        match_winner: tuple[int, ...] | None = None,
        votes_next: tuple[int, ...] = (),
        votes_new: tuple[int, ...] = (),
        last_move: tuple[int, tuple[Any, ...]] | None = None,
    ) -> None:
        self.r, self.players, self.seed = r, players, seed
        self.limit = r.penalty_limit if limit is None else limit
        self.match_number, self.hand_number, self.hand_seed = match_number, hand_number, hand_seed
        self.fixed_deal = fixed_deal
        self.reshuffles, self.stock_exhaustions = reshuffles, stock_exhaustions
        self.hands = hands if hands is not None else [[] for _ in range(players)]
        self.stock = stock if stock is not None else []
        self.discard = discard if discard is not None else []
        self.melds = melds if melds is not None else []
        self.next_meld_id, self.phase, self.turn = next_meld_id, phase, turn
        # RULES.md: first hand, the last seat deals and seat 0 starts.
        self.dealer = players - 1 if dealer is None else dealer
        self.scores = scores if scores is not None else [0] * players
        self.turns_completed = turns_completed
        self.opened = opened if opened is not None else [False] * players
        self.has_played = has_played if has_played is not None else [False] * players
        self.drawn_from_discard = drawn_from_discard
        self.jokers_taken = jokers_taken
        self.laid_off_this_turn, self.played_this_turn = laid_off_this_turn, played_this_turn
        self.hand_result, self.match_winner = hand_result, match_winner
        self.votes_next, self.votes_new, self.last_move = votes_next, votes_new, last_move
