"""Every strategy only ever returns one of the legal moves, in every variant."""

from __future__ import annotations

import hashlib
from random import Random

import pytest

import rules
from bots import LEVELS, STRATEGY_NAMES, get_strategy
from bots.expert import ExpertStrategy
from tests.kit.scenarios import EVERY_TABLE

SETUPS = EVERY_TABLE


def play_hand(variant: str, names: list[str], seed: int, max_moves: int = 3000) -> int:
    """One hand with these strategies; asserts each choice is legal. Returns moves played."""
    n = len(names)
    bots = [
        ExpertStrategy(budget_ms=None, samples=3) if name == "expert" else get_strategy(name)
        for name in names
    ]
    rngs = [Random(seed * 10 + s) for s in range(n)]
    state = rules.new_game(variant, n, seed=hashlib.sha256(str(seed).encode()).digest())
    for played in range(max_moves):
        public = rules.seat_view(state, 0)
        if public.phase in ("hand_over", "match_over"):
            return played
        seat = public.turn
        view = rules.seat_view(state, seat)
        legal = list(rules.legal_moves(view))
        move = bots[seat].choose(view, legal, rngs[seat])
        assert move in legal, (names[seat], view.phase, move)
        state = rules.apply(state, seat, move)
    pytest.fail(f"hand did not end in {max_moves} moves")


@pytest.mark.parametrize(("variant", "players"), SETUPS)
@pytest.mark.parametrize("name", ["random", "greedy", "easy"])
def test_simple_strategies_play_legal_moves(variant: str, players: int, name: str) -> None:
    mix = [name, "greedy", "random", "greedy"][:players]
    for seed in range(4):
        play_hand(variant, mix, seed)


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_expert_plays_legal_moves(variant: str, players: int) -> None:
    mix = ["expert", "greedy", "expert", "random"][:players]
    for seed in range(2):
        play_hand(variant, mix, 100 + seed)


def test_names_and_levels() -> None:
    assert STRATEGY_NAMES == ("random", "greedy", "expert")
    assert LEVELS == ("easy", "medium", "hard")
    assert type(get_strategy("medium")) is type(get_strategy("greedy"))
    assert isinstance(get_strategy("hard"), ExpertStrategy)
    with pytest.raises(ValueError):
        get_strategy("grandmaster")


def test_choose_without_legal_moves_is_an_error() -> None:
    state = rules.new_game("classic", 2, seed=b"x" * 32)
    view = rules.seat_view(state, 1)
    for name in STRATEGY_NAMES + LEVELS:
        with pytest.raises(ValueError):
            get_strategy(name).choose(view, [], Random(1))
