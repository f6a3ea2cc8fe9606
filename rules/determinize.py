"""Determinization for bots: a full game consistent with a seat's view and guesses for the
cards it cannot see (other hands, the stock's order, the buried discards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.boundary.moves import last_move_from_json
from rules.boundary.state import state_of
from rules.cards import cards_name, ints, is_code
from rules.engine.game import Game
from rules.errors import InvalidDeal
from rules.legal import game_from_view
from rules.shuffle import hand_seed
from rules.state import GameState
from rules.view import SeatView


def determinize_game(
    view: SeatView,
    others: Sequence[Sequence[str]],
    stock: Sequence[str],
    discard: Sequence[str],
    seed: bytes,
) -> Game:
    """Engine form of `determinize` (no pydantic: for thousands of playouts).

    Raises:
        InvalidDeal: the guesses do not fit the view or do not conserve the pack.
    """
    n = view.players
    if len(others) != n:
        raise InvalidDeal(f"need {n} hands in `others`, got {len(others)}")
    for group in (*others, stock, discard):
        for code in group:
            if not is_code(code):
                raise InvalidDeal(f"not a card code: {code!r}")
    if others[view.seat]:
        raise InvalidDeal("others[seat] must be empty: the viewer's hand comes from the view")
    for i, h in enumerate(others):
        if i != view.seat and len(h) != view.hand_counts[i]:
            raise InvalidDeal(f"seat {i} holds {view.hand_counts[i]} cards, not {len(h)}")
    if len(stock) != view.stock_count:
        raise InvalidDeal(f"the stock holds {view.stock_count} cards, not {len(stock)}")
    if len(discard) != view.discard_count:
        raise InvalidDeal(f"the discard pile holds {view.discard_count} cards, not {len(discard)}")
    if discard and discard[-1] != view.discard_top:
        raise InvalidDeal(f"the discard pile's top is {view.discard_top}, not {discard[-1]}")
    g = game_from_view(view)
    for i, h in enumerate(others):
        if i != view.seat:
            g.hands[i] = list(ints(h))
    g.stock = list(ints(stock))
    g.discard = list(ints(discard))
    seen = Counter(c for h in g.hands for c in h)
    seen.update(g.stock)
    seen.update(g.discard)
    for m in g.melds:
        seen.update(m.cards)
    pack = Counter(g.r.deck)
    if seen != pack:
        missing = sorted((pack - seen).elements())
        extra = sorted((seen - pack).elements())
        raise InvalidDeal(
            "the cards do not add up to the pack: "
            f"missing [{cards_name(missing)}], extra [{cards_name(extra)}]"
        )
    g.seed = bytes(seed)
    g.hand_seed = hand_seed(g.seed, g.match_number, g.hand_number)
    lm = view.last_move
    g.last_move = last_move_from_json(lm)
    if lm is not None and lm.seat == view.turn and view.phase == "play":
        g.laid_off_this_turn = lm.move.get("type") in ("layoff", "swap")
        g.played_this_turn = lm.move.get("type") in ("layoff", "swap", "meld")
    return g


def determinize(
    view: SeatView,
    others: Sequence[Sequence[str]],
    stock: Sequence[str],
    discard: Sequence[str],
    seed: bytes,
) -> GameState:
    """A full `GameState` consistent with `view`, given guesses for the hidden cards.

    `others[i]` is seat i's hand (``[]`` for the viewing seat), `stock` lists the stock top
    first, `discard` the pile bottom first ending with the visible top. Reshuffles and later
    hands of the result derive from `seed`. A turn's history before `view.last_move` is not
    in a view, so whether the player laid off earlier this turn is read from that move only.

    Raises:
        InvalidDeal: wrong counts, a wrong top discard, or the cards do not make exactly
            the variant's pack together with the view's hand and the table.
    """
    return state_of(determinize_game(view, others, stock, discard, seed))


__all__ = ["determinize", "determinize_game"]
