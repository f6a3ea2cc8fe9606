"""docs/api.md "v1.1 additions" and RULES.md "Settled since (v1.1)", one test per sentence, on
fixed deals through the public API. Seat 0 acts first."""

from __future__ import annotations

import pytest

import rules
from tests.kit.scenarios import discard, draw, game, layoff, meld, play, rejected, swap, with_fields


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


def _run_on_table(hand_b: list[str]) -> rules.GameState:
    """Seat 0 lays 4H 5H 6H and discards; seat 1 has drawn (classic)."""
    s = game("classic", [["4H", "5H", "6H", "KS", "9D"], hand_b], ["5S"], ["QC", "QD"])
    s = play(s, 0, draw(), meld(["6H", "4H", "5H"]), discard("KS"))
    return play(s, 1, draw())


def test_a_layoff_may_extend_a_run_at_both_ends_at_once() -> None:
    s = rules.apply(_run_on_table(["3H", "7H", "2C", "9C"]), 1, layoff("m1", "3H", "7H"))
    assert _table(s) == [["3H", "4H", "5H", "6H", "7H"]]
    assert s.hands[1] == ("2C", "9C", "QD")


def test_several_cards_at_both_ends_in_any_order() -> None:
    s = _run_on_table(["8H", "2H", "3H", "7H", "9C"])
    s = rules.apply(s, 1, layoff("m1", "8H", "2H", "7H", "3H"))
    assert _table(s) == [["2H", "3H", "4H", "5H", "6H", "7H", "8H"]]


def _rummy51_run_on_table() -> rules.GameState:
    """Seat 0 opened with 8H 9H TH and three kings; seat 1 opened with queens and aces and
    still holds 7H JH JK 2C 3D."""
    hand_a = ["8H", "9H", "TH", "KS", "KD", "KC", "5C"]
    hand_b = ["QS", "QD", "QH", "AS", "AD", "AC", "7H", "JH", "JK", "2C"]
    s = game("rummy51", [hand_a, hand_b], ["4D"], ["3C", "3D"])
    s = play(s, 0, draw(), meld(["8H", "9H", "TH"], ["KS", "KD", "KC"]), discard("5C"))
    return play(s, 1, draw(), meld(["QS", "QD", "QH"], ["AS", "AD", "AC"]))


def test_a_joker_left_over_at_both_ends_goes_high_unless_end_says_low() -> None:
    s = _rummy51_run_on_table()
    high = rules.apply(s, 1, layoff("m1", "7H", "JH", "JK"))
    assert high.melds[0].stands_for == ("7H", "8H", "9H", "TH", "JH", "QH")
    assert high.melds[0].cards == ("7H", "8H", "9H", "TH", "JH", "JK")
    low = rules.apply(s, 1, layoff("m1", "7H", "JH", "JK", end="low"))
    assert low.melds[0].stands_for == ("6H", "7H", "8H", "9H", "TH", "JH")
    assert low.melds[0].cards == ("JK", "7H", "8H", "9H", "TH", "JH")


def test_a_layoff_whose_cards_leave_a_gap_is_refused() -> None:
    s = _run_on_table(["2H", "8H", "9C", "TC"])
    rejected(s, 1, layoff("m1", "2H", "8H"), "invalid_layoff")


def test_end_low_with_a_card_that_only_fits_high_puts_it_high() -> None:
    # v1.1 refused this; v1.2 settles `end` for jokers only (tests/rules/test_layoff_jokers.py).
    s = _run_on_table(["7H", "9C", "TC"])
    assert _table(rules.apply(s, 1, layoff("m1", "7H", end="low"))) == [["4H", "5H", "6H", "7H"]]


# ---- a discard draw is named ------------------------------------------------------------


def test_a_discard_draw_names_the_card_for_every_seat() -> None:
    s = game("basic", [["4H", "9C", "TC"], ["2S", "3S", "4S"], ["5D", "6D", "7D"]], ["8D", "KH"])
    s = rules.apply(s, 0, draw("discard"))
    named = {"type": "draw", "source": "discard", "card": "KH"}
    for seat in range(3):
        view = rules.seat_view(s, seat)
        assert view.last_move is not None and view.last_move.model_dump() == {
            "seat": 0,
            "move": named,
        }
    after = rules.apply(s, 0, discard("9C"))  # the state with the named draw reads back
    assert after.last_move is not None
    assert after.last_move.move == {"type": "discard", "card": "9C"}


def test_a_stock_draw_names_no_card() -> None:
    s = game("classic", [["4H", "9C", "TC"], ["2S", "3S", "4S"]], ["8D"], ["QS"])
    s = rules.apply(s, 0, draw())
    for seat in range(2):
        view = rules.seat_view(s, seat)
        assert view.last_move is not None
        assert view.last_move.move == {"type": "draw", "source": "stock"}
    assert "QS" in rules.seat_view(s, 0).hand and "QS" not in rules.seat_view(s, 1).hand


def test_a_named_discard_draw_survives_the_stored_state_and_a_replay() -> None:
    s = game("classic", [["4H", "9C", "TC"], ["2S", "3S", "4S"]], ["8D"], ["QS"])
    moves = [(0, draw("discard"))]
    end = rules.replay(rules.hand_start(s), moves)
    stored = rules.GameState.model_validate_json(end.model_dump_json())
    assert stored == end and stored.last_move is not None
    assert stored.last_move.move["card"] == "8D"
    assert rules.apply(stored, 0, discard("9C")).discard[-1] == "9C"


# ---- legal --------------------------------------------------------------------------


def test_legal_in_the_draw_phase_lists_the_sources_only() -> None:
    s = game("classic", [["4H", "9C", "TC"], ["2S", "3S", "4S"]], ["8D"], ["QS"])
    legal = rules.seat_view(s, 0).legal
    assert legal is not None
    assert legal.model_dump() == {
        "draw": ("stock", "discard"),
        "discard": (),
        "layoffs": (),
        "swaps": (),
        "melds": (),
        "must_play": (),
        "opening": None,
    }
    assert rules.seat_view(s, 1).legal is None


def test_legal_in_the_play_phase_names_discards_melds_and_layoffs_with_their_end() -> None:
    s = _run_on_table(["3H", "7H", "8C", "8D", "8S"])
    legal = rules.seat_view(s, 1).legal
    assert legal is not None and legal.draw == ()
    assert set(legal.discard) == {"3H", "7H", "8C", "8D", "8S", "QD"}
    assert ("8C", "8D", "8S") in legal.melds
    assert {(x.card, x.meld, x.end) for x in legal.layoffs} == {
        ("3H", "m1", "low"),
        ("7H", "m1", "high"),
    }
    assert legal.swaps == () and legal.opening is None


def test_legal_never_offers_the_drawn_discard_as_the_discard() -> None:
    s = game("classic", [["4H", "9C", "TC"], ["2S", "3S", "4S"]], ["8D"], ["QS"])
    s = rules.apply(s, 0, draw("discard"))
    legal = rules.seat_view(s, 0).legal
    assert legal is not None and "8D" not in legal.discard and "9C" in legal.discard


def test_legal_is_null_after_the_hand() -> None:
    s = game("classic", [["4H", "5H", "6H"], ["2S", "3S", "4S"]], ["8D"], ["QS"])
    s = play(s, 0, draw(), meld(["4H", "5H", "6H"]), discard("QS"))
    assert s.phase == "hand_over"
    assert [rules.seat_view(s, seat).legal for seat in range(2)] == [None, None]


def test_legal_in_rummy51_shows_the_opening_the_swaps_and_the_jokers_to_play() -> None:
    hand_a = ["QS", "QD", "QH", "7S", "JK", "9S", "KH", "5C"]
    hand_b = ["KS", "KD", "KC", "AS", "AD", "AC", "8S", "2C", "3C"]
    s = game("rummy51", [hand_a, hand_b], ["2D"], ["4H", "4D"])
    first = rules.seat_view(s, 0).legal
    assert first is not None and first.opening == rules.Opening(needed=51, opened=False)
    s = play(s, 0, draw())
    playing = rules.seat_view(s, 0).legal
    assert playing is not None and playing.melds == ()  # no single meld reaches 51 alone
    s = play(s, 0, meld(["QS", "QD", "QH"], ["7S", "JK", "9S"]), discard("KH"))
    s = play(s, 1, draw())
    closed = rules.seat_view(s, 1).legal
    assert closed is not None and closed.swaps == () and closed.layoffs == ()  # not opened
    s = play(s, 1, meld(["KS", "KD", "KC"], ["AS", "AD", "AC"]))
    opened = rules.seat_view(s, 1).legal
    assert opened is not None and opened.opening == rules.Opening(needed=51, opened=True)
    assert opened.swaps == (rules.LegalSwap(card="8S", meld="m2"),)
    s = rules.apply(s, 1, swap("m2", "8S"))
    taken = rules.seat_view(s, 1).legal
    assert taken is not None and taken.must_play == ("JK",) and taken.discard == ()
    assert rules.LegalLayoff(card="JK", meld="m2", end="high") in taken.layoffs


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
