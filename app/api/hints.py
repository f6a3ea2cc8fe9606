"""Advice for a seat: the hard bot's move from that seat's view, with its reason."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel

import rules
from app.api.responses import SEAT, errors
from app.deps import RoomId, SeatDep, ServiceDep

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
    service: ServiceDep,
    lang: Literal["en", "nl"] = Query("en", description="the language of `reason`"),
) -> HintView:
    """The hard bot's move for this seat, chosen from this seat's view only (its own turn).

    409 `not_your_turn` on another seat's turn, `wrong_phase` once the hand is over."""
    move, reasons = await service.hint(room, seat)
    return HintView(move=move, reason=reasons[lang], reasons=Reasons(**reasons))
