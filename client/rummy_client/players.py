"""A player for scripts that needs nothing but the view: `simple_player(view)` plays from the
view's own `legal` (docs/api.md, "A seat's view"), which the server computes for the seat
to act. It draws, lays what can be laid and discards its highest card: enough to finish a
match, not to win one. Pass it to `SeatClient.take_turn`, or write a better one."""

from __future__ import annotations

from rummy_wire import Discard, Draw, LayOff, Meld, Move, SeatView

# Highest first: the cards a simple player would rather not be caught holding.
_SHED_ORDER = "AKQJT98765432"


def simple_player(view: SeatView) -> Move:
    """A legal move for the seat to act in `view`.

    Raises:
        ValueError: it is not this seat's move (`legal` is null).
    """
    legal = view.legal
    if legal is None:
        raise ValueError("not this seat's move: the view has no `legal`")
    if legal.draw:
        return Draw(source="stock" if "stock" in legal.draw else legal.draw[0])
    if legal.melds:
        return Meld(melds=(legal.melds[0],))
    if legal.layoffs:
        first = legal.layoffs[0]
        return LayOff(meld=first.meld, cards=(first.card,), end=first.end)
    if not legal.discard:
        raise ValueError("no legal move in this view")
    return Discard(card=min(legal.discard, key=_shed_rank))


def _shed_rank(card: str) -> int:
    """Where `card` comes in the order of shedding (a joker last).

    >>> sorted(["4C", "JK", "KD", "AH"], key=_shed_rank)
    ['AH', 'KD', '4C', 'JK']
    """
    return len(_SHED_ORDER) if card == "JK" else _SHED_ORDER.index(card[0])
