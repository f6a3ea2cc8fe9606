"""`spectator_view`: what someone watching sees is exactly what every seat sees alike,
through whole random hands of every variant."""

from __future__ import annotations

import random

import pytest

import rules

CASES = [("classic", 2), ("basic", 3), ("rummy51", 2), ("rummy51", 4)]
OWN = {"seat", "hand", "legal", "must_play"}  # the parts of a view that are one seat's


def public(view: rules.SeatView) -> dict[str, object]:
    return {k: v for k, v in view.model_dump().items() if k not in OWN}


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_a_spectator_sees_what_every_seat_sees_and_no_card_of_a_hand(
    variant: str, players: int
) -> None:
    rng = random.Random(f"spectator-{variant}-{players}")
    state = rules.new_game(variant, players, seed=b"spectator-" + variant.encode())
    while True:
        watched = rules.spectator_view(state)
        assert watched.seat is None and watched.hand == () and watched.legal is None
        assert watched.must_play == ()
        assert watched.hand_counts == tuple(len(h) for h in state.hands)
        for seat in range(players):
            # The seat not to act sees no `must_play` and no `legal`: compare with each.
            assert public(watched) == public(rules.seat_view(state, seat))
        dumped = watched.model_dump_json()
        assert state.hand_seed not in dumped and state.seed not in dumped
        if state.phase not in ("draw", "play"):
            break
        moves = list(rules.legal_moves(rules.seat_view(state, state.turn)))
        state = rules.apply(state, state.turn, rng.choice(moves))
    assert watched.hand_result is not None  # after the hand, its result shows every hand
