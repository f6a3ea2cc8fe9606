"""Request bodies."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

import rules
from app.api.names import Name


class CreateRoomRequest(BaseModel):
    variant: str = Field("classic", max_length=32, examples=["classic", "basic", "rummy51"])
    players: int | None = Field(
        None, ge=2, le=8, strict=True, description="default: the variant's fewest"
    )
    mode: Literal["online", "local", "computer"] = "online"
    name: Name = "Player 1"
    bots: dict[str, Annotated[str, Field(max_length=32)]] = Field(
        default_factory=dict,
        max_length=8,
        description='seat number -> strategy or level, e.g. {"1": "greedy"}',
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=2**63,
        strict=True,  # no true/false or "7" for a number (schemathesis)
        description="RUMMY_ALLOW_FIXED_DEALS only: deterministic shuffle",
    )
    deal: rules.Deal | None = Field(
        None, description="RUMMY_ALLOW_FIXED_DEALS only: the first hand's cards"
    )
    limit: Literal[101, 201, 301] | None = Field(
        None,
        description="rummy51 only: the penalty total that ends the match (default 101)",
    )
    spectators: bool = Field(
        True, strict=True, description="whether anyone with the room's id may watch it"
    )
    chat: bool = Field(True, strict=True, description="whether the seats may chat")
    turn_seconds: int | None = Field(
        None,
        ge=15,
        le=600,
        strict=True,
        description="a turn timer: seconds per turn, after which the server plays it (null: none)",
    )


class JoinRequest(BaseModel):
    name: Name = ""


class MoveRequest(BaseModel):
    move: rules.Move
    version: int = Field(
        ge=0, le=2**31, strict=True, description="the version of the view the move is for"
    )


class VoteRequest(BaseModel):
    vote: rules.VoteKind
    version: int | None = Field(
        None, ge=0, le=2**31, strict=True, description="optional stale check"
    )


class StandInRequest(BaseModel):
    seat: int = Field(ge=0, le=7, strict=True, description="the away seat a bot should play")
