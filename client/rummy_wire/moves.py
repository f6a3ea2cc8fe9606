"""Moves as the API sends them (../shared/API.md): a discriminated union on `type`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetPydanticSchema, TypeAdapter, ValidationError
from pydantic_core import core_schema
from typing_extensions import TypeAliasType

from rules.errors import InvalidMove

CARD_PATTERN = r"^(?:[A2-9TJQK][CDHS]|JK)$"
CardCode = Annotated[str, Field(pattern=CARD_PATTERN, examples=["7H", "TD", "JK"])]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# For models the server sends: every field is in every one it sends, defaults included,
# so their JSON Schema (serialization mode: OpenAPI's responses) lists every field required.
SENT_WHOLE = ConfigDict(
    json_schema_serialization_defaults_required=True,
    # A model sent whole is also read back whole (a record or log posted to /api/replays):
    # one schema for both directions, so OpenAPI has one component, not -Input and -Output.
    json_schema_mode_override="serialization",
)


# A name of its own in JSON Schema (`$defs`, OpenAPI components), so that a move's `end` and
# `legal.layoffs[].end` are one enum in generated clients, not one per field.
End = TypeAliasType("End", Literal["low", "high"])

# Where a draw takes its card from: a move's `source` and `legal.draw` alike.
DrawSource = TypeAliasType("DrawSource", Literal["stock", "discard"])


def _type_required(schema: dict[str, Any]) -> None:
    # `type` has a default here (`Draw(source="stock")`), yet on the wire it is the union's
    # tag and must be sent: without this, generated clients build moves the server refuses.
    schema["required"] = ["type", *(r for r in schema.get("required", ()) if r != "type")]


class Tagged(Frozen):
    """A member of a discriminated union on `type`."""

    model_config = ConfigDict(json_schema_extra=_type_required)


class Draw(Tagged):
    """Take the top card of the stock or of the discard pile."""

    type: Literal["draw"] = "draw"
    source: DrawSource


class Meld(Tagged):
    """Lay one or more new melds, their cards in any order (the server arranges them; where a
    joker could stand at either end, the order given decides)."""

    type: Literal["meld"] = "meld"
    melds: tuple[Annotated[tuple[CardCode, ...], Field(min_length=1, max_length=14)], ...] = Field(
        min_length=1, max_length=8
    )


class LayOff(Tagged):
    """Add cards from the hand to a meld on the table, at either or both ends of a run."""

    type: Literal["layoff"] = "layoff"
    meld: Annotated[str, Field(min_length=1, max_length=32)]
    cards: tuple[CardCode, ...] = Field(min_length=1, max_length=13)
    end: End | None = Field(
        None, description="the side of a run the jokers go to, where either would do"
    )


class Swap(Tagged):
    """rummy51: give the natural card a run's joker stands for and take the joker."""

    type: Literal["swap"] = "swap"
    meld: Annotated[str, Field(min_length=1, max_length=32)]
    card: CardCode


class Discard(Tagged):
    """Put one card on the discard pile; this ends the turn."""

    type: Literal["discard"] = "discard"
    card: CardCode


Move = Annotated[Draw | Meld | LayOff | Swap | Discard, Field(discriminator="type")]


class ShownDraw(Draw):
    """A draw as the table shows it (`last_move`, the log, records): it names the card when
    that was face up."""

    card: CardCode | None = Field(
        None,
        description="the card taken from the discard pile; a stock draw names none "
        "(except in the drawing seat's own view)",
        exclude_if=lambda card: card is None,  # named or left out, as `move_to_json` does
    )


# A move as a view shows it: the moves' union, with a draw that may name its card.
ShownMove = Annotated[ShownDraw | Meld | LayOff | Swap | Discard, Field(discriminator="type")]


def _shown_move_schema(source: Any, handler: Any) -> core_schema.CoreSchema:
    # Kept as its wire form (a dict, as `move_to_json` makes it): the engine and the bots
    # read it so, and a view dumps it as it is. Checked and described as a `ShownMove`.
    return core_schema.no_info_after_validator_function(
        move_to_json,
        handler.generate_schema(ShownMove),
        serialization=core_schema.plain_serializer_function_ser_schema(_as_it_is),
    )


def _shown_move_json_schema(schema: core_schema.CoreSchema, handler: Any) -> Any:
    # The union's, in both modes (the serializer above, a function, would say "anything").
    return handler(schema["schema"])


def _as_it_is(value: Any) -> Any:
    return value


# The type of `last_move.move`: a `ShownMove` in JSON Schema, its JSON form in Python.
ShownMoveData = Annotated[
    dict[str, str | list[str] | list[list[str]]], GetPydanticSchema(_shown_move_schema)
]
VoteKind = TypeAliasType("VoteKind", Literal["next_hand", "new_match"])

_MOVE_ADAPTER: TypeAdapter[Move] = TypeAdapter(Move)
_SHOWN_ADAPTER: TypeAdapter[ShownMove] = TypeAdapter(ShownMove)


def parse_move(data: Any) -> Move:
    """Read a move from its JSON form.

    Raises:
        InvalidMove: the object is not one of the five move shapes.

    >>> parse_move({"type": "discard", "card": "QS"})
    Discard(type='discard', card='QS')
    """
    try:
        return _MOVE_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidMove(f"malformed move: {where}: {first['msg']}") from None


def parse_shown_move(data: Any) -> ShownMove:
    """Read a move as the table shows it (a log's, a record's): a draw may name its card.

    Raises:
        InvalidMove: the object is not one of the five move shapes.

    >>> parse_shown_move({"type": "draw", "source": "discard", "card": "7H"}).card
    '7H'
    """
    try:
        return _SHOWN_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidMove(f"malformed move: {where}: {first['msg']}") from None


def move_to_json(move: Move) -> dict[str, Any]:
    """The wire form of a move (`end` is left out when unset)."""
    return move.model_dump(mode="json", exclude_none=True)
