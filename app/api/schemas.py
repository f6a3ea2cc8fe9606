"""Request bodies, each with an example that the server accepts (OpenAPI `examples`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

import rules
from app.api.names import Name
from app.choices import BotName, Mode


def _example(*examples: JsonValue) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": list(examples)})


class CreateRoomRequest(BaseModel):
    model_config = _example(
        {
            "variant": "rummy51",
            "players": 2,
            "mode": "computer",
            "name": "Ann",
            "bots": {"1": "hard"},
        },
        {"variant": "basic", "players": 3, "name": "Ann", "turn_seconds": 60},
    )

    variant: rules.VariantName = "classic"
    players: int | None = Field(
        None, ge=2, le=8, strict=True, description="default: the variant's fewest"
    )
    mode: Mode = "online"
    name: Name = "Player 1"
    bots: dict[str, BotName] = Field(
        default_factory=dict,
        max_length=8,
        description='seat number -> strategy or level, e.g. {"1": "greedy"}',
    )
    seed: int | None = Field(
        None,
        ge=0,
        # The largest integer every JSON reader holds exactly: 2**63 came out of the schema
        # as a float, under which schemathesis found larger seeds "valid" (then refused).
        le=2**53 - 1,
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
    turn_seconds: int | None = Field(
        None,
        ge=15,
        le=600,
        strict=True,
        description="a turn timer: seconds per turn, after which the server plays it (null: none)",
    )


class JoinRequest(BaseModel):
    model_config = _example({"name": "Bob"})

    name: Name = ""


class MoveRequest(BaseModel):
    model_config = _example(
        {"move": {"type": "draw", "source": "stock"}, "version": 0},
        {"move": {"type": "meld", "melds": [["7H", "8H", "9H"]]}, "version": 1},
        {
            "move": {"type": "layoff", "meld": "m1", "cards": ["JK", "9H"], "end": "high"},
            "version": 2,
        },
        {"move": {"type": "discard", "card": "QS"}, "version": 3},
    )

    move: rules.Move
    version: int = Field(
        ge=0, le=2**31, strict=True, description="the version of the view the move is for"
    )


class VoteRequest(BaseModel):
    model_config = _example({"vote": "next_hand"}, {"vote": "new_match", "version": 40})

    vote: rules.VoteKind
    version: int | None = Field(
        None, ge=0, le=2**31, strict=True, description="optional stale check"
    )


class StandInRequest(BaseModel):
    model_config = _example({"seat": 1})

    seat: int = Field(ge=0, le=7, strict=True, description="the away seat a bot should play")
