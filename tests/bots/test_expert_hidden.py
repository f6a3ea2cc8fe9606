"""The expert decides from its seat's view only: hidden cards dealt otherwise change nothing.

At every decision of a few hands, the cards the seat cannot see (other hands, the stock's order,
the buried discards) are dealt again at random (`rules.determinize`, with the match seed so the
view's shuffle commitment stays the same). The seat's view must be the same, and so must the
expert's move, searched with the same random stream: a bot that read one hidden card would
sooner or later choose differently.
"""

from __future__ import annotations

import hashlib
from random import Random

import pytest

import rules
from bots.expert import ExpertStrategy
from bots.greedy import GreedyStrategy


def _redeal(state: rules.GameState, seat: int, rng: Random) -> rules.GameState:
    """The same game as `seat` sees it, with every card it cannot see dealt again."""
    view = rules.seat_view(state, seat)
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h]
    hidden += list(state.stock) + list(state.discard[:-1])
    rng.shuffle(hidden)
    others: list[list[str]] = []
    for s, h in enumerate(state.hands):
        others.append([] if s == seat else [hidden.pop() for _ in h])
    stock = [hidden.pop() for _ in state.stock]
    discard = hidden + list(state.discard[-1:])
    return rules.determinize(view, others, stock, discard, bytes.fromhex(state.seed))


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("rummy51", 3)])
def test_expert_moves_do_not_depend_on_hidden_cards(variant: str, players: int) -> None:
    checked = 0
    for hand in range(2):
        seed = hashlib.sha256(f"hidden:{variant}:{hand}".encode()).digest()
        state = rules.new_game(variant, players, seed=seed)
        greedy, shuffler = GreedyStrategy(), Random(hand)
        for step in range(400):
            view = rules.seat_view(state, 0)
            if view.phase not in ("draw", "play"):
                break
            seat = view.turn
            view = rules.seat_view(state, seat)
            legal = list(rules.legal_moves(view))
            if seat == 0 and len(legal) > 1:
                other = _redeal(state, seat, shuffler)
                assert other.hands != state.hands or other.stock != state.stock
                other_view = rules.seat_view(other, seat)
                assert other_view == view
                moves = [
                    ExpertStrategy(budget_ms=None, samples=3).choose(v, legal, Random(step))
                    for v in (view, other_view)
                ]
                assert moves[0] == moves[1]
                checked += 1
            move = greedy.choose(view, legal, Random(step))
            state = rules.apply(state, seat, move)
    assert checked >= 10
