"""Moves as the API sends them (../shared/API.md): a discriminated union on `type`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rules.errors import InvalidMove

CARD_PATTERN = r"^(?:[A2-9TJQK][CDHS]|JK)$"
CardCode = Annotated[str, Field(pattern=CARD_PATTERN, examples=["7H", "TD", "JK"])]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Draw(Frozen):
    """Take the top card of the stock or of the discard pile."""

    type: Literal["draw"] = "draw"
    source: Literal["stock", "discard"]


class Meld(Frozen):
    """Lay one or more new melds, their cards in any order (the server arranges them; where a
    joker could stand at either end, the order given decides)."""

    type: Literal["meld"] = "meld"
    melds: tuple[Annotated[tuple[CardCode, ...], Field(min_length=1, max_length=14)], ...] = Field(
        min_length=1, max_length=8
    )


class LayOff(Frozen):
    """Add cards from the hand to a meld on the table, at either or both ends of a run."""

    type: Literal["layoff"] = "layoff"
    meld: Annotated[str, Field(min_length=1, max_length=32)]
    cards: tuple[CardCode, ...] = Field(min_length=1, max_length=13)
    end: Literal["low", "high"] | None = None


class Swap(Frozen):
    """rummy51: give the natural card a run's joker stands for and take the joker."""

    type: Literal["swap"] = "swap"
    meld: Annotated[str, Field(min_length=1, max_length=32)]
    card: CardCode


class Discard(Frozen):
    """Put one card on the discard pile; this ends the turn."""

    type: Literal["discard"] = "discard"
    card: CardCode


Move = Annotated[Draw | Meld | LayOff | Swap | Discard, Field(discriminator="type")]
VoteKind = Literal["next_hand", "new_match"]

_MOVE_ADAPTER: TypeAdapter[Move] = TypeAdapter(Move)


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


def move_to_json(move: Move) -> dict[str, Any]:
    """The wire form of a move (`end` is left out when unset)."""
    return move.model_dump(mode="json", exclude_none=True)
