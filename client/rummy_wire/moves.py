"""Moves as a client sends them and as the table shows them (docs/api.md, "Moves"): a
discriminated union on `type`, and the votes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, GetPydanticSchema
from pydantic_core import core_schema
from typing_extensions import TypeAliasType

from rummy_wire.base import CardCode, Frozen

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


def _as_it_is(value: Any) -> Any:
    return value


# The type of `last_move.move`: a `ShownMove` in JSON Schema, its JSON form in Python.
ShownMoveData = Annotated[
    dict[str, str | list[str] | list[list[str]]], GetPydanticSchema(_shown_move_schema)
]
VoteKind = TypeAliasType("VoteKind", Literal["next_hand", "new_match"])


def move_to_json(move: Move) -> dict[str, Any]:
    """The wire form of a move (`end` is left out when unset)."""
    return move.model_dump(mode="json", exclude_none=True)
