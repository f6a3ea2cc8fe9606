"""Advice from the computer, from a seat's own views only (docs/api.md, "Routes"): a hint
for the move to make now, and the review of a finished hand's decisions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rummy_wire.moves import Move


class Reasons(BaseModel):
    en: str
    nl: str


class HintView(BaseModel):
    """A hint: one good legal move and why, in plain words."""

    move: Move
    reason: str
    # The reason in every language the web app speaks; `reason` is the one asked for.
    reasons: Reasons


class ReviewDecision(BaseModel):
    version: int
    move: Move
    better: Move | None = Field(description="the hard bot's choice where it differs")
    cost: float = Field(
        description="expected points the move made cost against `better`, from this seat's "
        "view, never more than the hand's points at stake"
    )
    spread: float = Field(0.0, description="the uncertainty of `cost` (± points)")
    capped: bool = Field(
        False,
        description="the estimate was above the hand's points at stake: `cost` is all of "
        "them, and `spread` is 0 (v1.2)",
    )
    reason: str
    reasons: Reasons


class ReviewView(BaseModel):
    """A review: this seat's decisions of hand `hand`, judged by the hard computer."""

    hand: int
    status: Literal["pending", "ready"]
    decisions: list[ReviewDecision]
