"""`seat_view`: the one place where a `GameState` becomes what one seat may see.

Before the hand ends a view shows only that seat's hand, the counts of the others, the
table, the top discard and the commitment to the hand's shuffle; never another hand, the
stock's order or a seed. After the hand `hand_result.hands` reveals every hand.
"""

from __future__ import annotations

from rules.errors import InvalidMove
from rules.legal import legal_summary
from rules.shuffle import commitment
from rules.state import GameState
from rules.view import HandResultView, MeldView, SeatView


def seat_view(state: GameState, seat: int) -> SeatView:
    """What `seat` sees of `state` (API.md's `state`, without the room's own fields).

    `commitment` is `rules.shuffle.commitment(hand_seed)`: SHA-256 hex of
    ``b"shake256-fisher-yates-v1" + b":" + hand_seed`` (the raw 32 seed bytes).

    Raises:
        InvalidMove: `seat` is not a seat of this game.
    """
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidMove(f"there is no seat {seat} in a {state.players}-player game")
    hr = state.hand_result
    result = (
        None
        if hr is None
        else HandResultView(
            reason=hr.reason, winner=hr.winner, points=hr.points, hands=hr.hands, rummy=hr.rummy
        )
    )
    my_turn = state.turn == seat and state.phase in ("draw", "play")
    must_play = ("JK",) * state.jokers_taken if my_turn else ()
    view = SeatView(
        variant=state.variant,
        players=state.players,
        seat=seat,
        phase=state.phase,
        turn=state.turn,
        dealer=state.dealer,
        hand=state.hands[seat],
        hand_counts=tuple(len(h) for h in state.hands),
        stock_count=len(state.stock),
        discard_top=state.discard[-1] if state.discard else None,
        discard_count=len(state.discard),
        melds=tuple(
            MeldView(id=m.id, cards=m.cards, kind=m.kind, stands_for=m.stands_for)
            for m in state.melds
        ),
        scores=state.scores,
        hand_number=state.hand_number,
        turns_completed=state.turns_completed,
        opened=state.opened,
        drawn_from_discard=state.drawn_from_discard,
        last_move=state.last_move,
        hand_result=result,
        match_winner=state.match_winner,
        votes=state.votes,
        must_play=must_play,
        has_played=state.has_played,
        stock_exhaustions=state.stock_exhaustions,
        commitment=commitment(bytes.fromhex(state.hand_seed)),
    )
    if not my_turn:
        return view
    return view.model_copy(update={"legal": legal_summary(view)})
