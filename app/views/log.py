"""The hand log (GET /log) and the recent moves (GET /recent): what every seat saw happen."""

from __future__ import annotations

from pydantic import BaseModel, Field

import rules
from app.choices import BotLevel


class LogMove(BaseModel):
    version: int
    seat: int
    move: rules.Move
    card: str | None = Field(
        None,
        pattern=r"^(?:[A2-9TJQK][CDHS]|JK)$",
        description="a draw from the discard pile: the card it took (face up); else null",
    )


class LogVote(BaseModel):
    version: int
    seat: int
    vote: rules.VoteKind


class LogStandIn(BaseModel):
    """A stand-in started (`stand_in`: the bot's level) or ended (null) for `seat`."""

    version: int
    seat: int
    stand_in: BotLevel | None


class LogHand(BaseModel):
    """One finished hand: replay `moves` from `start` with rules.replay to rebuild it."""

    model_config = rules.SENT_WHOLE

    hand: int = Field(description="0 for the room's first hand, then 1, 2, ...")
    start: rules.GameState = Field(description="rules.hand_start(state): the deal, seed included")
    start_version: int
    end_version: int
    moves: list[LogMove]
    votes: list[LogVote]
    stand_ins: list[LogStandIn] = Field(
        default_factory=list,
        description="stand-ins started and ended during the hand: versions without a move",
    )
    result: rules.HandResult | None = Field(
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
        description="in version order; a discard draw names its card (`card`), a stock draw none"
    )
    stand_ins: list[LogStandIn] = Field(
        default_factory=list,
        description="every stand-in started or ended in this hand, since `since` or not: with "
        "them a seat tells the turns the computer played for it from its own, played on "
        "another device (an end with no start before it: the stand-in began in an earlier "
        "hand) (v1.3)",
    )
