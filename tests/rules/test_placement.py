"""Where cards go on the table (docs/api.md "v1.1 additions", RULES.md "Settled since
(v1.1)"): a meld sent in any order is arranged, a lay-off may extend a run at both ends.
One test per sentence, on fixed deals through the public API. Seat 0 acts first."""

from __future__ import annotations

import pytest

import rules
from tests.kit.scenarios import (
    discard,
    draw,
    game,
    layoff,
    meld,
    play,
    rejected,
    run_on_table,
)


def _table(state: rules.GameState) -> list[list[str]]:
    return [list(m.cards) for m in state.melds]


# ---- melds in any order ----------------------------------------------------------------


def test_a_run_sent_in_hand_order_is_arranged_by_rank() -> None:
    s = play(game("classic", [["3C", "AC", "2C", "9D", "KS"], ["4H"]], ["5S"]), 0, draw())
    s = rules.apply(s, 0, meld(["3C", "AC", "2C"]))
    assert _table(s) == [["AC", "2C", "3C"]]
    assert s.melds[0].kind == "run"
    assert s.last_move is not None
    assert s.last_move.move == {"type": "meld", "melds": [["3C", "AC", "2C"]]}


def test_a_joker_goes_where_it_makes_the_run_valid() -> None:
    hand = ["7H", "5H", "JK", "QS", "QD", "QH", "KS", "KD", "KC", "9C"]
    s = play(game("rummy51", [hand, ["2S"]], ["4D"]), 0, draw())
    s = rules.apply(s, 0, meld(["7H", "5H", "JK"], ["QS", "QD", "QH"], ["KS", "KD", "KC"]))
    assert _table(s)[0] == ["5H", "JK", "7H"]
    assert s.melds[0].stands_for == ("5H", "6H", "7H")


def test_the_ace_of_an_arranged_run_goes_high_when_low_cannot_work() -> None:
    s = play(game("rummy51", [["KH", "AH", "QH", "KS", "KD", "KC", "9C"], ["2S"]], ["4D"]), 0,
             draw())  # fmt: skip
    s = rules.apply(s, 0, meld(["KH", "AH", "QH"], ["KS", "KD", "KC"]))
    assert _table(s)[0] == ["QH", "KH", "AH"]


@pytest.mark.parametrize(
    ("sent", "table", "stands"),
    [
        (["JK", "7H", "8H"], ["JK", "7H", "8H"], ("6H", "7H", "8H")),
        (["7H", "8H", "JK"], ["7H", "8H", "JK"], ("7H", "8H", "9H")),
        (["8H", "JK", "7H"], ["7H", "8H", "JK"], ("7H", "8H", "9H")),  # no hint: high
        (["JK", "8H", "7H"], ["7H", "8H", "JK"], ("7H", "8H", "9H")),  # read descending
        (["JK", "8H", "6H", "7H"], ["JK", "6H", "7H", "8H"], ("5H", "6H", "7H", "8H")),
    ],
)
def test_where_a_joker_fits_either_end_the_order_sent_decides(
    sent: list[str], table: list[str], stands: tuple[str, ...]
) -> None:
    hand = ["6H", "7H", "8H", "JK", "QS", "QD", "QH", "9C"]
    s = play(game("rummy51", [hand, ["2S"]], ["4D"]), 0, draw())
    s = rules.apply(s, 0, meld(sent, ["QS", "QD", "QH"]))
    assert _table(s)[0] == table and s.melds[0].stands_for == stands


def test_five_and_two_jokers_sent_with_no_other_hint_is_the_set() -> None:
    hand = ["5H", "JK", "JK", "QS", "QD", "QH", "KC", "KD", "KS", "9C"]
    s = play(game("rummy51", [hand, ["2S"]], ["4D"]), 0, draw())
    s = rules.apply(s, 0, meld(["5H", "JK", "JK"], ["QS", "QD", "QH"], ["KC", "KD", "KS"]))
    assert s.melds[0].kind == "set"
    assert [c[0] for c in s.melds[0].stands_for] == ["5", "5", "5"]


def test_that_set_is_worth_15_towards_the_opening() -> None:
    hand = ["5H", "JK", "JK", "3S", "4S", "5S", "6S", "7S", "8S", "9C"]
    s = play(game("rummy51", [hand, ["2S"]], ["4D"]), 0, draw())
    # As the run 5-6-7 it would be 18, and 18 + 33 reaches 51.
    message = rejected(
        s, 0, meld(["5H", "JK", "JK"], ["3S", "4S", "5S", "6S", "7S", "8S"]), "opening_below_51"
    )
    assert "total 48" in message


def test_cards_that_make_no_run_in_any_order_are_refused() -> None:
    s = play(game("classic", [["AC", "2C", "KC", "9D", "KS"], ["4H"]], ["5S"]), 0, draw())
    rejected(s, 0, meld(["KC", "AC", "2C"]), "invalid_meld")  # nothing wraps
    s51 = play(game("rummy51", [["KH", "AH", "2H", "9C"], ["4H"]], ["5S"]), 0, draw())
    rejected(s51, 0, meld(["2H", "KH", "AH"]), "invalid_meld")


# ---- lay-offs at both ends -------------------------------------------------------------


def test_a_layoff_may_extend_a_run_at_both_ends_at_once() -> None:
    s = rules.apply(run_on_table(["3H", "7H", "2C", "9C"]), 1, layoff("m1", "3H", "7H"))
    assert _table(s) == [["3H", "4H", "5H", "6H", "7H"]]
    assert s.hands[1] == ("2C", "9C", "QD")


def test_several_cards_at_both_ends_in_any_order() -> None:
    s = run_on_table(["8H", "2H", "3H", "7H", "9C"])
    s = rules.apply(s, 1, layoff("m1", "8H", "2H", "7H", "3H"))
    assert _table(s) == [["2H", "3H", "4H", "5H", "6H", "7H", "8H"]]


def _rummy51run_on_table() -> rules.GameState:
    """Seat 0 opened with 8H 9H TH and three kings; seat 1 opened with queens and aces and
    still holds 7H JH JK 2C 3D."""
    hand_a = ["8H", "9H", "TH", "KS", "KD", "KC", "5C"]
    hand_b = ["QS", "QD", "QH", "AS", "AD", "AC", "7H", "JH", "JK", "2C"]
    s = game("rummy51", [hand_a, hand_b], ["4D"], ["3C", "3D"])
    s = play(s, 0, draw(), meld(["8H", "9H", "TH"], ["KS", "KD", "KC"]), discard("5C"))
    return play(s, 1, draw(), meld(["QS", "QD", "QH"], ["AS", "AD", "AC"]))


def test_a_joker_left_over_at_both_ends_goes_high_unless_end_says_low() -> None:
    s = _rummy51run_on_table()
    high = rules.apply(s, 1, layoff("m1", "7H", "JH", "JK"))
    assert high.melds[0].stands_for == ("7H", "8H", "9H", "TH", "JH", "QH")
    assert high.melds[0].cards == ("7H", "8H", "9H", "TH", "JH", "JK")
    low = rules.apply(s, 1, layoff("m1", "7H", "JH", "JK", end="low"))
    assert low.melds[0].stands_for == ("6H", "7H", "8H", "9H", "TH", "JH")
    assert low.melds[0].cards == ("JK", "7H", "8H", "9H", "TH", "JH")


def test_a_layoff_whose_cards_leave_a_gap_is_refused() -> None:
    s = run_on_table(["2H", "8H", "9C", "TC"])
    rejected(s, 1, layoff("m1", "2H", "8H"), "invalid_layoff")


def test_end_low_with_a_card_that_only_fits_high_puts_it_high() -> None:
    # v1.1 refused this; v1.2 settles `end` for jokers only (tests/rules/test_layoff_jokers.py).
    s = run_on_table(["7H", "9C", "TC"])
    assert _table(rules.apply(s, 1, layoff("m1", "7H", end="low"))) == [["4H", "5H", "6H", "7H"]]
