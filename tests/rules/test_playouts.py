"""Seeded random playouts through the public API: every variant and player count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from rules.reducer import deck_of
from tests.kit.scenarios import EVERY_TABLE, all_cards

CASES = EVERY_TABLE


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_random_hand_plays_to_a_result_and_replays(variant: str, players: int) -> None:
    rng = random.Random(f"{variant}-{players}")
    state = rules.new_game(variant, players, seed=b"playout-" + variant.encode())
    start = rules.hand_start(state)
    pack = Counter(deck_of(variant))
    log: list[tuple[int, rules.Move]] = []
    while state.phase in ("draw", "play"):
        view = rules.seat_view(state, state.turn)
        moves = list(rules.legal_moves(view))
        assert moves, f"no legal move in {state.phase}"
        move = rng.choice(moves)
        log.append((state.turn, move))
        state = rules.apply(state, state.turn, move)
        assert all_cards(state) == pack
    assert state.hand_result is not None
    assert rules.replay(start, log) == state
    assert rules.GameState.model_validate_json(state.model_dump_json()) == state
