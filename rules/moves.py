"""Moves as the rules read them: the wire's shapes (rummy_wire.moves, docs/api.md "Moves"),
defined there once, and reading one from its JSON form with the rules' own error."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.errors import InvalidMove
from rummy_wire.base import SENT_WHOLE, CardCode, Frozen
from rummy_wire.moves import (
    Discard,
    Draw,
    DrawSource,
    End,
    LayOff,
    Meld,
    Move,
    ShownDraw,
    ShownMove,
    ShownMoveData,
    Swap,
    Tagged,
    VoteKind,
    move_to_json,
)

__all__ = [
    "SENT_WHOLE",
    "CardCode",
    "Discard",
    "Draw",
    "DrawSource",
    "End",
    "Frozen",
    "LayOff",
    "Meld",
    "Move",
    "ShownDraw",
    "ShownMove",
    "ShownMoveData",
    "Swap",
    "Tagged",
    "VoteKind",
    "move_to_json",
    "parse_move",
    "parse_shown_move",
]

_MOVE_ADAPTER: TypeAdapter[Move] = TypeAdapter(Move)
_SHOWN_ADAPTER: TypeAdapter[ShownMove] = TypeAdapter(ShownMove)


def parse_move(data: Any) -> Move:
    """Read a move from its JSON form.

    Raises:
        InvalidMove: the object is not one of the five move shapes.

    >>> parse_move({"type": "discard", "card": "QS"})
    Discard(type='discard', card='QS')
    """
    move: Move = _parse(_MOVE_ADAPTER, data)
    return move


def parse_shown_move(data: Any) -> ShownMove:
    """Read a move as the table shows it (a log's, a record's): a draw may name its card.

    Raises:
        InvalidMove: the object is not one of the five move shapes.

    >>> parse_shown_move({"type": "draw", "source": "discard", "card": "7H"}).card
    '7H'
    """
    move: ShownMove = _parse(_SHOWN_ADAPTER, data)
    return move


def _parse(adapter: TypeAdapter[Any], data: Any) -> Any:
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidMove(f"malformed move: {where}: {first['msg']}") from None
