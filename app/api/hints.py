"""The advice routes (docs/api.md v1.1): GET /hint and GET /review for a seat, in English or
Dutch; the advice itself comes from app/turns/advice.py."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query

import rules
from app.api.deps import RoomId, SeatDep, TurnsDep
from app.api.responses import SEAT, errors
from rummy_wire.advice import HintView, Reasons, ReviewDecision, ReviewView

router = APIRouter(prefix="/api/rooms/{room}", tags=["play"])


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
