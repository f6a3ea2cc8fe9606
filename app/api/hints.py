"""Advice for a seat from the hard bot, from that seat's views only: a hint for the move to
make now, and a review of a finished hand's decisions."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

import rules
from app.api.deps import RoomId, SeatDep, TurnsDep
from app.api.responses import SEAT, errors

router = APIRouter(prefix="/api/rooms/{room}", tags=["play"])


class Reasons(BaseModel):
    en: str
    nl: str


class HintView(BaseModel):
    """API.md v1.1 `hint`: one good legal move and why, in plain words."""

    move: rules.Move
    reason: str
    # The reason in every language the web app speaks; `reason` is the one asked for.
    reasons: Reasons


@router.get("/hint", response_model=HintView, responses=errors(*SEAT, 409))
async def get_hint(
    room: RoomId,
    seat: SeatDep,
    turns: TurnsDep,
    lang: Literal["en", "nl"] = Query("en", description="the language of `reason`"),
) -> HintView:
    """The hard bot's move for this seat, chosen from this seat's view only (its own turn).

    409 `not_your_turn` on another seat's turn, `wrong_phase` once the hand is over."""
    move, reasons = await turns.advice.hint(room, seat)
    return HintView(move=move, reason=reasons[lang], reasons=Reasons(**reasons))


class ReviewDecision(BaseModel):
    version: int
    move: rules.Move
    better: rules.Move | None = Field(description="the hard bot's choice where it differs")
    cost: float = Field(
        description="what `better` was worth more than the move made to this seat's net "
        "result of the hand (`net`'s currency), in points, estimated from this seat's view "
        "then: an expectation over the cards it could not see, so not bounded by what the "
        "hand scored; in a hand the seat won, what `better` would have added (v1.3)"
    )
    spread: float = Field(0.0, description="the uncertainty of `cost` (± points)")
    capped: bool = Field(
        False,
        description="always false since v1.3: costs are no longer capped at the hand's "
        "points at stake (v1.2 capped them; a cost is an expectation, not a share of the "
        "points this hand scored)",
    )
    reason: str
    reasons: Reasons


class ReviewView(BaseModel):
    """API.md v1.1 `review`: this seat's decisions of hand `hand`, judged by the hard bot."""

    hand: int
    status: Literal["pending", "ready"]
    decisions: list[ReviewDecision]
    net: float | None = Field(
        None,
        description="this seat's net result of the hand, the currency of every `cost`: its "
        "points minus the mean of its opponents' (rummy51, penalty points: the opponents' "
        "mean penalty minus its own); null while pending (v1.3)",
    )
    won: bool | None = Field(
        None, description="whether this seat won the hand (went out); null while pending (v1.3)"
    )


@router.get("/review", response_model=ReviewView, responses=errors(*SEAT, 409))
async def get_review(
    room: RoomId,
    seat: SeatDep,
    turns: TurnsDep,
    hand: int = Query(ge=0, le=1_000_000, description="the hand's number in the log (0 first)"),
    lang: Literal["en", "nl"] = Query("en", description="the language of `reason`"),
) -> ReviewView:
    """This seat's review of a finished hand: `pending` at first (it is computed in the
    background, from this seat's views only), then `ready` with every decision.

    409 `wrong_phase` for a hand that is not finished."""
    done = await turns.advice.review(room, seat, hand)
    if done is None:
        return ReviewView(hand=hand, status="pending", decisions=[])
    decisions = [
        ReviewDecision(
            version=d["version"],
            move=rules.parse_move(d["move"]),
            better=None if d["better"] is None else rules.parse_move(d["better"]),
            cost=d["cost"],
            spread=d.get("spread", 0.0),
            reason=d["reasons"][lang],
            reasons=Reasons(**d["reasons"]),
        )
        for d in done["decisions"]
    ]
    return ReviewView(
        hand=hand, status="ready", decisions=decisions, net=done["net"], won=done["won"]
    )
