"""Request bodies of the rooms and the moves (docs/api.md, "Routes"), each with an example
that the server accepts (OpenAPI `examples`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue

from rummy_wire.choices import BotName, Mode
from rummy_wire.game import Deal
from rummy_wire.moves import Move, VoteKind
from rummy_wire.names import Name
from rummy_wire.variants import VariantName

# JavaScript's Number.MAX_SAFE_INTEGER (2 to the 53rd, less one): the largest integer every
# JSON reader holds exactly.
MAX_SAFE_INTEGER = 9_007_199_254_740_991


def _whole(value: object) -> object:
    # JSON has one kind of number, and JSON Schema's "integer" takes 24.0 as 24: so does the
    # server (schemathesis found it refused). `strict` still refuses true and "24".
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# An integer of a request body within bounds (put inside, where the schema shows them).
Whole = BeforeValidator(_whole)
_VERSION = Field(ge=0, le=2**31, strict=True)


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

    variant: VariantName = "classic"
    players: Annotated[int, Field(ge=2, le=8, strict=True), Whole] | None = Field(
        None, description="default: the variant's fewest"
    )
    mode: Mode = "online"
    name: Name = "Player 1"
    bots: dict[str, BotName] = Field(
        default_factory=dict,
        max_length=7,
        # The keys are seats 1 to 7 (the room's seats; the server checks which exist).
        json_schema_extra={"propertyNames": {"pattern": "^[1-7]$"}},
        description='seat number -> strategy or level, e.g. {"1": "greedy"}',
    )
    # The largest integer every JSON reader holds exactly: 2**63 came out of the schema as a
    # float, under which schemathesis found larger seeds "valid" (then refused). `strict`: no
    # true/false or "7" for a number (schemathesis).
    seed: Annotated[int, Field(ge=0, le=MAX_SAFE_INTEGER, strict=True), Whole] | None = Field(
        None, description="RUMMY_ALLOW_FIXED_DEALS only: deterministic shuffle"
    )
    deal: Deal | None = Field(
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
    turn_seconds: Annotated[int, Field(ge=15, le=600, strict=True), Whole] | None = Field(
        None,
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

    move: Move
    version: Annotated[int, _VERSION, Whole] = Field(
        description="the version of the view the move is for"
    )


class VoteRequest(BaseModel):
    model_config = _example({"vote": "next_hand"}, {"vote": "new_match", "version": 40})

    vote: VoteKind
    version: Annotated[int, _VERSION, Whole] | None = Field(
        None, description="optional stale check"
    )


class StandInRequest(BaseModel):
    model_config = _example({"seat": 1})

    seat: Annotated[int, Field(ge=0, le=7, strict=True), Whole] = Field(
        description="the away seat a bot should play"
    )
