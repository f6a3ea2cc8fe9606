"""Legal moves, computed from what the seat to act can see: `legal_moves(view)` yields API
moves from a `SeatView` only, so bots never need the full state.

The listing itself (what is listed, per phase, and its bounds) is
`rules.engine.generate.generate`, which works on the engine form; `game_from_view` rebuilds
that form from a view.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.boundary.carried import form_of
from rules.boundary.moves import meld_from_model, to_api_move
from rules.cards import JOKER, code_to_int, ints
from rules.engine.fields import DRAW_PHASE, PHASE_INTS, PLAY_PHASE, FastMove
from rules.engine.game import Game
from rules.engine.generate import generate
from rules.engine.switches import fast_rules
from rules.moves import Move
from rules.view import SeatView


def game_from_view(view: SeatView) -> Game:
    """A `Game` holding only what `view` shows: enough for `generate` for the viewer.

    Other hands, the stock and the buried discards are placeholders (jokers); never apply
    moves of other seats to it.
    """
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(ints(view.hand))
    top = ints((view.discard_top,)) if view.discard_top else ()
    return Game(
        fast_rules(view.variant),
        view.players,
        b"",
        limit=view.limit,
        hand_number=view.hand_number,
        stock_exhaustions=view.stock_exhaustions,
        hands=hands,
        stock=[JOKER] * view.stock_count,
        discard=[JOKER] * (view.discard_count - len(top)) + list(top),
        melds=[meld_from_model(m) for m in view.melds],
        next_meld_id=1 + max((int(m.id[1:]) for m in view.melds), default=0),
        phase=PHASE_INTS.get(view.phase, 0),
        turn=view.turn,
        dealer=view.dealer,
        scores=list(view.scores),
        turns_completed=view.turns_completed,
        opened=list(view.opened),
        has_played=list(view.has_played) or [False] * view.players,
        drawn_from_discard=code_to_int(view.drawn_from_discard) if view.drawn_from_discard else -1,
        jokers_taken=len(view.must_play),
        match_winner=view.match_winner,
    )


def legal_moves(view: SeatView) -> Iterator[Move]:
    """Every legal move of the viewing seat now, from its view only (bounded; module doc).

    Empty when it is not this seat's turn or the hand is over.
    """
    if view.turn != view.seat or view.phase not in ("draw", "play"):
        return iter(())
    # `seat_view` leaves the moves behind `legal` with the view; any other view (one the
    # app built around it, one decoded from JSON) gets them on the first call.
    form = form_of(view)
    moves: tuple[FastMove, ...] | None = form.value if form is not None else None
    if moves is None:
        g = game_from_view(view)
        if g.phase not in (DRAW_PHASE, PLAY_PHASE):
            return iter(())
        moves = tuple(generate(g, view.seat))
        if form is not None:
            form.value = moves
    return map(to_api_move, moves)
