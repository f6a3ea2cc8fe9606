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
    """A review: this seat's decisions of hand `hand`, judged by the hard computer."""

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
