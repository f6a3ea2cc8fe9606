"""rummy51's penalty limit (RULES.md "rummy51 match length"): 101, 201 or 301, 101 by
default, refused for a variant without one, and the match ends when a seat reaches it."""

from __future__ import annotations

import pytest

import rules
from tests.kit.scenarios import discard, draw, game, meld, play, with_fields


@pytest.mark.parametrize("limit", [101, 201, 301])
def test_rummy51_keeps_its_penalty_limit(limit: int) -> None:
    s = rules.new_game("rummy51", 2, seed=b"limit", limit=limit)
    assert s.limit == limit and rules.seat_view(s, 1).limit == limit


def test_rummy51_defaults_to_101() -> None:
    assert rules.new_game("rummy51", 2, seed=b"limit").limit == 101
    assert rules.new_game("classic", 2, seed=b"limit").limit is None
    assert rules.get_variant("rummy51").penalty_limit == 101


@pytest.mark.parametrize(
    ("variant", "limit", "words"),
    [
        ("rummy51", 150, "one of 101, 201, 301"),
        ("classic", 101, "only rummy51"),
        ("basic", 201, "only rummy51"),
    ],  # fmt: skip
)
def test_a_limit_the_variant_does_not_take_is_refused(variant: str, limit: int, words: str) -> None:
    with pytest.raises(rules.InvalidSetup) as info:
        rules.new_game(variant, 2, seed=b"limit", limit=limit)
    assert info.value.code == "invalid_setup" and words in info.value.message


def _rummy_out(limit: int, scores: tuple[int, int]) -> rules.GameState:
    """Seat 0 goes rummy; seat 1 is left with 79 points in hand (+25 for the rummy)."""
    hand_a = ["QS", "QD", "QH", "KS", "KD", "KH"]
    hand_b = ["AC", "AD", "AH", "AS", "JK", "KC"]
    s = game("rummy51", [hand_a, hand_b], ["2D"], ["9C"])
    s = with_fields(s, limit=limit, scores=scores)
    return play(s, 0, draw(), meld(["QS", "QD", "QH"], ["KS", "KD", "KH"]), discard("9C"))


@pytest.mark.parametrize(
    ("limit", "scores", "phase"),
    [
        (101, (0, 0), "match_over"),
        (201, (0, 0), "hand_over"),
        (201, (0, 100), "match_over"),
        (301, (0, 100), "hand_over"),
        (301, (0, 200), "match_over"),
    ],  # fmt: skip
)
def test_the_match_ends_at_the_limit_of_the_game(
    limit: int, scores: tuple[int, int], phase: str
) -> None:
    s = _rummy_out(limit, scores)
    assert s.scores == (scores[0], scores[1] + 104)
    assert s.phase == phase
    assert (s.match_winner == (0,)) == (phase == "match_over")
