"""docs/api.md "v1.2 additions", Clarified: `end` on a lay-off settles the side of the jokers
only; natural cards go where their rank fits, and a lay-off is refused only when no
placement is valid. On fixed deals through the public API; seat 0 acts first."""

from __future__ import annotations

import pytest

import rules
from tests.kit.scenarios import discard, draw, game, layoff, meld, play, rejected


def _queen_high_run(hand_b: list[str]) -> rules.GameState:
    """rummy51: seat 0 opened with TH JH QH and three kings; seat 1 has drawn 4D and opened
    with three queens and three aces, and still holds `hand_b` (plus 4D)."""
    hand_a = ["TH", "JH", "QH", "KS", "KD", "KC", "5C"]
    openers = ["QS", "QD", "QC", "AS", "AD", "AC"]
    s = game("rummy51", [hand_a, [*openers, *hand_b]], ["3C"], ["2D", "4D"])
    s = play(s, 0, draw(), meld(["TH", "JH", "QH"], ["KS", "KD", "KC"]), discard("5C"))
    return play(s, 1, draw(), meld(["QS", "QD", "QC"], ["AS", "AD", "AC"]))


def test_end_high_puts_the_joker_high_and_the_natural_where_it_fits_low() -> None:
    s = rules.apply(_queen_high_run(["9H", "JK", "7C"]), 1, layoff("m1", "JK", "9H", end="high"))
    assert s.melds[0].cards == ("9H", "TH", "JH", "QH", "JK")
    assert s.melds[0].stands_for == ("9H", "TH", "JH", "QH", "KH")
    assert sorted(s.hands[1]) == ["4D", "7C"]


def test_end_low_puts_the_joker_low_and_the_natural_where_it_fits_high() -> None:
    s = rules.apply(_queen_high_run(["KH", "JK", "7C"]), 1, layoff("m1", "JK", "KH", end="low"))
    assert s.melds[0].cards == ("JK", "TH", "JH", "QH", "KH")
    assert s.melds[0].stands_for == ("9H", "TH", "JH", "QH", "KH")


@pytest.mark.parametrize(("end", "stands"), [("low", "7H"), ("high", "KH")])
def test_naturals_fill_their_own_places_and_the_joker_goes_to_end(end: str, stands: str) -> None:
    s = _queen_high_run(["8H", "9H", "JK", "7C"])
    after = rules.apply(s, 1, layoff("m1", "8H", "JK", "9H", end=end))
    run = after.melds[0]
    assert run.cards[:2] == ("8H", "9H") or run.cards[1:3] == ("8H", "9H")
    assert run.stands_for[run.cards.index("JK")] == stands


@pytest.mark.parametrize(("hand", "card", "end"), [("9H", "9H", "high"), ("KH", "KH", "low")])
def test_a_lone_natural_card_goes_where_it_fits_whatever_end_says(
    hand: str, card: str, end: str
) -> None:
    s = rules.apply(_queen_high_run([hand, "JK", "7C"]), 1, layoff("m1", card, end=end))
    assert card in s.melds[0].cards
    assert len(s.melds[0].cards) == 4


def test_refused_only_when_no_placement_is_valid() -> None:
    s = _queen_high_run(["9H", "JK", "7C"])
    rejected(s, 1, layoff("m1", "7C", "JK", end="high"), "invalid_layoff")
    rejected(s, 1, layoff("m1", "7C", end="low"), "invalid_layoff")
    rejected(s, 1, layoff("m1", "9H", "9H", end="low"), "card_not_in_hand")


def test_a_joker_that_cannot_go_to_end_is_refused() -> None:
    """A run that already reaches the high ace has no room above: a joker asked high has
    nowhere to go, even though it would fit low."""
    hand_a = ["QH", "KH", "AH", "KS", "KD", "KC", "5C"]
    hand_b = ["QS", "QD", "QC", "AS", "AD", "AC", "JK", "7C", "8C"]
    s = game("rummy51", [hand_a, hand_b], ["3C"], ["2D", "4D"])
    s = play(s, 0, draw(), meld(["QH", "KH", "AH"], ["KS", "KD", "KC"]), discard("5C"))
    s = play(s, 1, draw(), meld(["QS", "QD", "QC"], ["AS", "AD", "AC"]))
    rejected(s, 1, layoff("m1", "JK", end="high"), "invalid_layoff")
    low = rules.apply(s, 1, layoff("m1", "JK", end="low"))
    assert low.melds[0].stands_for == ("JH", "QH", "KH", "AH")


def test_legal_lists_the_joker_and_the_natural_at_opposite_ends() -> None:
    s = _queen_high_run(["9H", "JK", "7C"])
    listed = [
        m
        for m in rules.legal_moves(rules.seat_view(s, 1))
        if isinstance(m, rules.LayOff) and sorted(m.cards) == ["9H", "JK"]
    ]
    assert sorted(m.end or "any" for m in listed) == ["high", "low"]
    for move in listed:  # each one listed is accepted, the joker at its end
        run = rules.apply(s, 1, move).melds[0]
        assert run.cards[0] == ("JK" if move.end == "low" else "9H")
