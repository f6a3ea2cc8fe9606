"""The hand log (GET /log) and the recent moves (GET /recent): what every seat saw happen.
A draw from the discard pile names the card it took in the move itself (docs/api.md, "One
shape for a named pickup")."""

from __future__ import annotations

from pydantic import BaseModel, Field

from rummy_wire.base import SENT_WHOLE
from rummy_wire.choices import BotLevel
from rummy_wire.game import GameState, HandResult
from rummy_wire.moves import ShownMove, VoteKind


class LogMove(BaseModel):
    version: int
    seat: int
    move: ShownMove = Field(
        description="a draw from the discard pile names the card it took (`card`, face up)"
    )


class LogVote(BaseModel):
    version: int
    seat: int
    vote: VoteKind


class LogStandIn(BaseModel):
    """A stand-in started (`stand_in`: the bot's level) or ended (null) for `seat`."""

    version: int
    seat: int
    stand_in: BotLevel | None


class LogHand(BaseModel):
    """One finished hand: replaying `moves` from `start` rebuilds it."""

    model_config = SENT_WHOLE

    hand: int = Field(description="0 for the room's first hand, then 1, 2, ...")
    start: GameState = Field(description="the hand as dealt, its own seed included")
    start_version: int
    end_version: int
    moves: list[LogMove]
    votes: list[LogVote]
    stand_ins: list[LogStandIn] = Field(
        default_factory=list,
        description="stand-ins started and ended during the hand: versions without a move",
    )
    result: HandResult | None = Field(
        description="null when the hand was abandoned by a new_match vote"
    )


class RoomLog(BaseModel):
    room: str
    hands: list[LogHand]


class RecentMoves(BaseModel):
    """The moves of the hand in play after a version (GET /recent?since=): what every seat
    saw happen, for a player coming back to see what they missed."""

    room: str
    hand_number: int
    since: int
    moves: list[LogMove] = Field(
        description="in version order; a discard draw names its card (`move.card`), a stock "
        "draw none"
    )
    stand_ins: list[LogStandIn] = Field(
        default_factory=list,
        description="every stand-in started or ended in this hand, since `since` or not: with "
        "them a seat tells the turns the computer played for it from its own, played on "
        "another device (an end with no start before it: the stand-in began in an earlier "
        "hand) (v1.3)",
    )
