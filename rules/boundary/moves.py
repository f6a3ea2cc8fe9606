"""The boundary for moves and table melds: API moves (`rules.moves`) <-> engine move tuples,
their wire form, table melds' models <-> `TMeld`, a fixed deal's model -> engine tuples."""

from __future__ import annotations

import functools
from typing import Literal

from rules.boundary.carried import trusted
from rules.cards import CODES, code_to_int, codes, ints
from rules.engine.fields import (
    DISCARD,
    DRAW,
    LAYOFF,
    MELD,
    SRC_DISCARD,
    SRC_STOCK,
    SWAP,
    FastMove,
    FixedDeal,
)
from rules.errors import InvalidMove, MeldNotFound
from rules.melds import END_ANY, END_HIGH, END_LOW, TMeld
from rules.moves import Discard, Draw, LayOff, Meld, Move, Swap, parse_move
from rules.state import Deal, LastMove, TableMeld

_END_OF = {None: END_ANY, "low": END_LOW, "high": END_HIGH}
_END_NAME: dict[int, Literal["low", "high"] | None] = {
    END_ANY: None,
    END_LOW: "low",
    END_HIGH: "high",
}


def meld_id(text: str) -> int:
    """The engine id of a meld id such as ``"m7"``.

    Raises:
        MeldNotFound: not a meld id this engine hands out.
    """
    digits = text[1:]
    # ASCII only: "²" is a digit to str.isdigit, and int() refuses it.
    if digits and text[0] == "m" and digits.isascii() and digits.isdigit():
        return int(digits)
    raise MeldNotFound(f"there is no meld {text!r} on the table")


def to_fast_move(move: Move) -> FastMove:
    """The engine tuple of an API move.

    Raises:
        MeldNotFound: a meld id in a malformed form.
        InvalidMove: not a move object.
    """
    if isinstance(move, Draw):
        return (DRAW, SRC_STOCK if move.source == "stock" else SRC_DISCARD)
    if isinstance(move, Discard):
        return (DISCARD, code_to_int(move.card))
    if isinstance(move, Meld):
        return (MELD, tuple(ints(g) for g in move.melds))
    if isinstance(move, LayOff):
        return (LAYOFF, meld_id(move.meld), ints(move.cards), _END_OF[move.end])
    if isinstance(move, Swap):
        return (SWAP, meld_id(move.meld), code_to_int(move.card))
    raise InvalidMove(f"not a move: {move!r}")


def to_api_move(move: FastMove) -> Move:
    """The API move of an engine tuple (built as validation would build it, unvalidated)."""
    kind = move[0]
    if kind == DRAW:
        return _DRAWS[move[1]]
    if kind == DISCARD:
        return _DISCARDS[move[1]]
    if kind == MELD:
        return trusted(
            Meld, {"type": "meld", "melds": tuple(map(codes, move[1]))}, None, ("melds",)
        )
    if kind == LAYOFF:
        fields = {
            "type": "layoff",
            "meld": f"m{move[1]}",
            "cards": codes(move[2]),
            "end": _END_NAME[move[3]],
        }
        return trusted(LayOff, fields, None, ("meld", "cards", "end"))
    return trusted(
        Swap,
        {"type": "swap", "meld": f"m{move[1]}", "card": CODES[move[2]]},
        None,
        ("meld", "card"),
    )


# Moves are frozen, so every draw and discard is one shared object (by SRC_* and card int).
_DRAWS: tuple[Draw, Draw] = (Draw(source="stock"), Draw(source="discard"))
_DISCARDS: tuple[Discard, ...] = tuple(Discard(card=code) for code in CODES)


def last_move_from_json(lm: LastMove | None) -> tuple[int, FastMove] | None:
    """The engine form of a view's or state's `last_move` (a discard draw keeps its card)."""
    if lm is None:
        return None
    data = dict(lm.move)
    card = data.pop("card", None) if data.get("type") == "draw" else None
    move = to_fast_move(parse_move(data))
    if isinstance(card, str):
        move = (*move, code_to_int(card))
    return (lm.seat, move)


def meld_from_model(t: TableMeld) -> TMeld:
    """The engine form of a meld of the state or of a view."""
    return _engine_meld(t.id, t.kind, t.cards, t.stands_for)


# Every view and every move of a room converts the same table melds again; TMelds are
# immutable, so one per distinct meld is shared (bounded, for a long-running server).
@functools.lru_cache(maxsize=8192)
def _engine_meld(
    text_id: str, kind: str, card_codes: tuple[str, ...], stand_codes: tuple[str, ...]
) -> TMeld:
    cards = ints(card_codes)
    stands = ints(stand_codes)
    mid = meld_id(text_id)
    if kind == "run":
        suit = stands[0] // 13
        # A run that starts with a king-high ace cannot exist; an ace at the start is low.
        low = stands[0] % 13 + 1
        return TMeld(mid, True, suit, low, low + len(stands) - 1, cards, stands)
    rank = stands[0] % 13 + 1
    return TMeld(mid, False, rank, rank, rank, cards, stands)


def deal_to_fast(deal: Deal) -> FixedDeal:
    return (tuple(ints(h) for h in deal.hands), ints(deal.discard), ints(deal.stock))


def move_json(move: FastMove) -> dict[str, str | list[str] | list[list[str]]]:
    """The wire form of an engine move (what `move_to_json` gives for its API move)."""
    kind = move[0]
    if kind == DRAW:
        if len(move) > 2:  # a discard draw names the card (it was face up)
            return {"type": "draw", "source": "discard", "card": CODES[move[2]]}
        return {"type": "draw", "source": "stock" if move[1] == SRC_STOCK else "discard"}
    if kind == DISCARD:
        return {"type": "discard", "card": CODES[move[1]]}
    if kind == MELD:
        return {"type": "meld", "melds": [[CODES[c] for c in g] for g in move[1]]}
    if kind == LAYOFF:
        out: dict[str, str | list[str] | list[list[str]]] = {
            "type": "layoff",
            "meld": f"m{move[1]}",
            "cards": [CODES[c] for c in move[2]],
        }
        end = _END_NAME[move[3]]
        if end is not None:
            out["end"] = end
        return out
    return {"type": "swap", "meld": f"m{move[1]}", "card": CODES[move[2]]}
