"""`rules.replay_steps` and `rules.hand_from_deal`: a finished hand's steps, and its start
rebuilt from what a match record publishes (docs/record.md), over seeded playouts of every
variant."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from rules.reducer import deck_of

CASES = [("classic", 2), ("basic", 3), ("rummy51", 4)]


def _played(
    variant: str, players: int, seed: int
) -> tuple[rules.GameState, list[tuple[int, rules.Move]]]:
    state = rules.new_game(variant, players, seed=seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    moves = []
    while state.phase in ("draw", "play"):
        move = rng.choice(list(rules.legal_moves(rules.seat_view(state, state.turn))))
        moves.append((state.turn, move))
        state = rules.apply(state, state.turn, move)
    return state, moves


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_every_step_follows_its_move_and_the_last_is_the_hands_end(
    variant: str, players: int
) -> None:
    end, moves = _played(variant, players, 7)
    start = rules.hand_start(end)
    steps = rules.replay_steps(start, moves, [10 + i for i in range(len(moves))])
    assert len(steps) == len(moves) + 1 and steps[0].move is None and steps[0].version is None
    assert steps[0].hands == start.hands
    whole = Counter(deck_of(variant))
    for i, step in enumerate(steps):
        view = step.view
        assert view.seat is None and view.hand == () and view.legal is None
        assert view.hand_counts == tuple(map(len, step.hands))
        table = [c for h in step.hands for c in h] + [c for m in view.melds for c in m.cards]
        assert len(table) + view.stock_count + view.discard_count == sum(whole.values())
        if i:
            assert step.version == 9 + i and step.move is not None
            assert step.move.seat == moves[i - 1][0]
    assert steps[-1].view.hand_result == end.hand_result


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_hand_rebuilt_from_its_record_replays_to_the_same_end(variant: str, players: int) -> None:
    end, moves = _played(variant, players, 11)
    start = rules.hand_start(end)
    rebuilt = rules.hand_from_deal(
        variant,
        players,
        deal=rules.Deal(hands=start.hands, discard=start.discard, stock=start.stock),
        hand_seed=start.hand_seed,
        dealer=start.dealer,
        scores=start.scores,
        limit=start.limit,
    )
    assert rules.replay(rebuilt, moves).hand_result == end.hand_result
    assert rules.spectator_view(rebuilt).commitment == rules.spectator_view(start).commitment


def test_a_move_that_does_not_fit_is_refused() -> None:
    end, moves = _played("classic", 2, 3)
    start = rules.hand_start(end)
    with pytest.raises(rules.IllegalMove):
        rules.replay_steps(start, [moves[1], *moves])
    dealt = rules.Deal(hands=start.hands, discard=start.discard, stock=start.stock)
    with pytest.raises(ValueError, match="64 hex digits"):
        rules.hand_from_deal("classic", 2, deal=dealt, hand_seed="00", dealer=0, scores=(0, 0))
