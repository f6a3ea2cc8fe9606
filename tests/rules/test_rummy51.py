"""rummy51 (RULES.md "Rummy with jokers and a 51-point opening"): one test per rule
sentence, on fixed deals. Seat 0 acts first."""

from __future__ import annotations

import pytest

import rules
from rules.cards import code_to_int
from rules.melds import read_meld
from rules.reducer import deck_of
from tests.kit.scenarios import discard, draw, game, layoff, meld, play, rejected, swap, with_fields

V = "rummy51"
OPEN_A = (["QS", "QD", "QH"], ["7S", "8S", "9S"])  # 30 + 24 = 54


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_106_cards_13_each_one_discard(players: int) -> None:
    s = rules.new_game(V, players, seed=b"deal")
    assert [len(h) for h in s.hands] == [13] * players and len(s.discard) == 1
    assert len(s.stock) == 106 - 13 * players - 1
    assert sorted(deck_of(V)).count("JK") == 2 and len(deck_of(V)) == 106


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(rules.IllegalMove) as info:
        rules.new_game(V, players, seed=b"deal")
    assert info.value.code == "invalid_setup"


def _opened(hand_a: list[str], hand_b: list[str], stock: list[str]) -> rules.GameState:
    """Seat 0 opens with OPEN_A in its first turn (drawing and discarding KD)."""
    s = game(V, [[*OPEN_A[0], *OPEN_A[1], *hand_a], hand_b], ["2C"], ["KD", *stock])
    return play(s, 0, draw(), meld(*OPEN_A), discard("KD"))


def test_a_set_has_all_suits_different_a_joker_stands_for_a_missing_suit() -> None:
    s = game(V, [["5H", "5H", "5S", "JK", "5D", "5C", "8C"], ["2S"]], ["9D"])
    s = play(s, 0, draw())
    rejected(s, 0, meld(["5H", "5H", "5S"]), "invalid_meld")
    rejected(s, 0, meld(["5H", "5S", "5D", "5C", "JK"]), "invalid_meld")  # never above 4
    m = read_meld([code_to_int(c) for c in ("5H", "5S", "JK")], True, True)
    assert not m.is_run and [c % 13 for c in m.stands] == [4, 4, 4]


def test_runs_ace_low_or_high_never_wrapping() -> None:
    ace_high = [code_to_int(c) for c in ("QH", "KH", "AH")]
    ace_low = [code_to_int(c) for c in ("AH", "2H", "3H")]
    wrap = [code_to_int(c) for c in ("KH", "AH", "2H")]
    assert read_meld(ace_high, True, True).is_run and read_meld(ace_low, True, True).is_run
    with pytest.raises(rules.IllegalMove) as info:
        read_meld(wrap, True, True)
    assert info.value.code == "invalid_meld"


def test_a_meld_needs_a_natural_card_several_jokers_are_allowed() -> None:
    with pytest.raises(rules.IllegalMove):
        read_meld([52, 52, 52], True, True)
    m = read_meld([code_to_int(c) for c in ("5H", "JK", "JK", "8H")], True, True)
    assert m.is_run and (m.low, m.high) == (5, 8)


def test_opening_must_total_51_with_a_joker_worth_the_card_it_stands_for() -> None:
    hand = ["2S", "JK", "4S", "TH", "JH", "QH", "KH", "TS", "QS", "6D", "7D", "8D", "9C"]
    s = game(V, [hand, ["3C"]], ["9D"])
    s = play(s, 0, draw())
    # 2-3-4 (joker as 3) + 10-J-Q-K = 9 + 40 = 49: a joker worth 25 would make it 71.
    msg = rejected(s, 0, meld(["2S", "JK", "4S"], ["TH", "JH", "QH", "KH"]), "opening_below_51")
    assert "49" in msg
    # 10-J-Q (joker as the jack) + 6-7-8 = 30 + 21 = 51 exactly.
    s2 = play(s, 0, meld(["TS", "JK", "QS"], ["6D", "7D", "8D"]))
    assert s2.opened == (True, False)
    assert s2.melds[0].stands_for == ("TS", "JS", "QS")


def test_legal_moves_offer_an_opening_of_exactly_51_in_two_melds() -> None:
    hand = ["2S", "JK", "4S", "TH", "JH", "QH", "KH", "TS", "QS", "6D", "7D", "8D", "9C"]
    s = play(game(V, [hand, ["3C"]], ["9D"]), 0, draw())
    openings = {
        tuple(sorted(tuple(sorted(cards)) for cards in m.melds))
        for m in rules.legal_moves(rules.seat_view(s, 0))
        if isinstance(m, rules.Meld)
    }
    # 10-J-Q of hearts and 6-7-8 of diamonds: 30 + 21, the least that opens.
    assert (("6D", "7D", "8D"), ("JH", "QH", "TH")) in openings


def test_a_single_meld_of_51_opens() -> None:
    s = game(V, [["9H", "TH", "JH", "QH", "KH", "AH", "2C"], ["3C"]], ["9D"])
    s = play(s, 0, draw())
    rejected(s, 0, meld(["9H", "TH", "JH", "QH", "KH"]), "opening_below_51")  # 49
    s = play(s, 0, meld(["9H", "TH", "JH", "QH", "KH", "AH"]))  # ace high counts 10: 59
    assert s.opened[0]


def test_before_opening_no_lay_off_and_no_joker_taken() -> None:
    s = game(V, [["TC", "6C", "2D", "3H", "8D"], ["9C", "JK", "JC", "QC", "KC", "AC", "4D", "6H"]],
             ["2C"], ["KD", "5S", "4C"])  # fmt: skip
    s = play(s, 0, draw(), discard("KD"))
    s = play(s, 1, draw(), meld(["9C", "JK", "JC", "QC", "KC", "AC"]), discard("5S"))
    s = play(s, 0, draw())
    rejected(s, 0, swap("m1", "TC"), "not_opened")
    rejected(s, 0, layoff("m1", "TC"), "not_opened")


def test_after_opening_a_player_lays_off_onto_any_meld() -> None:
    s = _opened(["TS", "JD", "3H"], ["JC", "JS", "JH", "KC", "KS", "KH", "6H"], ["2D"])
    s = play(s, 1, draw(), meld(["JC", "JS", "JH"], ["KC", "KS", "KH"]), discard("2D"))
    s = play(s, 0, draw(), layoff("m2", "TS"), layoff("m3", "JD"))
    assert s.melds[1].cards == ("7S", "8S", "9S", "TS")
    assert s.melds[2].cards == ("JC", "JS", "JH", "JD")


def _swap_ready() -> rules.GameState:
    s = _opened(["TC", "2D", "3H"], ["9C", "JK", "JC", "QC", "KC", "AC", "4D", "6H"], ["5S", "4C"])
    s = play(s, 1, draw(), meld(["9C", "JK", "JC", "QC", "KC", "AC"]), discard("5S"))
    return play(s, 0, draw())


def test_an_opened_player_swaps_a_runs_joker_and_must_play_it_this_turn() -> None:
    s = _swap_ready()
    rejected(s, 0, swap("m3", "2D"), "invalid_swap")
    rejected(s, 0, swap("m1", "TC"), "invalid_swap")  # m1 is a set
    s = play(s, 0, swap("m3", "TC"))
    assert s.melds[2].cards == ("9C", "TC", "JC", "QC", "KC", "AC")
    assert "JK" in s.hands[0] and s.jokers_taken == 1
    view = rules.seat_view(s, 0)
    assert view.must_play == ("JK",)
    assert not any(m.type == "discard" for m in rules.legal_moves(view))
    rejected(s, 0, discard("2D"), "must_play_joker")
    s = play(s, 0, layoff("m2", "JK", end="high"))
    assert s.melds[1].stands_for == ("7S", "8S", "9S", "TS")
    s = play(s, 0, discard("2D"))
    assert s.turn == 1


def test_a_jokers_place_follows_card_order_and_end_settles_its_side() -> None:
    s = _swap_ready()
    s = play(s, 0, swap("m3", "TC"), layoff("m2", "JK", end="low"))
    assert s.melds[1].cards == ("JK", "7S", "8S", "9S")
    assert s.melds[1].stands_for == ("6S", "7S", "8S", "9S")


def _set_with_jokers(set_cards: list[str], hand_a: list[str]) -> rules.GameState:
    hand_b = [*set_cards, "TD", "JD", "QD", "KD", "6H", "3C"]
    s = _opened(hand_a, hand_b, ["2D", "4C"])
    s = play(s, 1, draw(), meld(set_cards, ["TD", "JD", "QD", "KD"]), discard("2D"))
    return play(s, 0, draw())


def test_laying_off_both_missing_suits_frees_a_sets_joker() -> None:
    s = _set_with_jokers(["5H", "5S", "JK"], ["5D", "5C", "3H", "8H"])
    s = play(s, 0, layoff("m3", "5D", "5C"))
    assert sorted(s.melds[2].cards) == ["5C", "5D", "5H", "5S"]
    assert s.hands[0].count("JK") == 1 and s.jokers_taken == 1
    rejected(s, 0, discard("3H"), "must_play_joker")
    s = play(s, 0, layoff("m2", "JK"), discard("3H"))
    assert s.turn == 1


def test_laying_off_one_missing_suit_closes_the_set_and_the_joker_stays() -> None:
    s = _set_with_jokers(["5H", "5S", "JK"], ["5D", "5C", "3H", "8H"])
    s = play(s, 0, layoff("m3", "5D"))
    assert len(s.melds[2].cards) == 4 and "JK" in s.melds[2].cards
    rejected(s, 0, layoff("m3", "5C"), "invalid_layoff")


def test_a_set_with_two_jokers_and_its_two_missing_suits_frees_one_joker() -> None:
    s = _set_with_jokers(["5H", "JK", "JK"], ["5D", "5C", "3H", "8H"])
    s = play(s, 0, layoff("m3", "5D", "5C"))
    assert sorted(s.melds[2].cards) == ["5C", "5D", "5H", "JK"]
    assert s.hands[0].count("JK") == 1 and s.jokers_taken == 1


def test_freeing_a_joker_that_no_meld_could_take_is_refused_k_a_2_does_not_wrap() -> None:
    # Only full sets on the table, and 2S KS in hand: K-A-2 does not wrap, so the freed joker
    # would have nowhere to go and no discard would be legal. Refused, and not offered.
    hand = ["AD", "AS", "AC", "AH", "QH", "QS", "JK", "2S", "KS", "7D", "QC", "QD", "4H"]
    s = game(V, [hand, ["3C", "6H", "9D"]], ["5C"], ["9C", "3D", "8C"])
    s = play(s, 0, draw(), meld(["AD", "AS", "AC", "AH"], ["QH", "QS", "JK"]), discard("9C"))
    s = play(s, 1, draw(), discard("3D"))
    s = play(s, 0, draw())  # 8C
    rejected(s, 0, layoff("m2", "QC", "QD"), "must_play_joker")
    moves = rules.legal_moves(rules.seat_view(s, 0))
    assert not any(m.type == "layoff" and len(m.cards) == 2 for m in moves)


# Seat 0 opens with four aces and four kings; seat 1 with QH QS JK, 8C 8D 8H and four
# sevens, then discards 9D. Once seat 0 lays off 8S, only the queens' meld has room for a
# joker, and QC QD free that joker: it must find a place in seat 0's hand.
_ACES, _KINGS = ["AD", "AS", "AC", "AH"], ["KH", "KS", "KD", "KC"]
_SEAT_1_MELDS = (["QH", "QS", "JK"], ["8C", "8D", "8H"], ["7C", "7D", "7H", "7S"])


def _queens_joker_to_free(hand_a: list[str], stock: list[str]) -> rules.GameState:
    b = [c for m in _SEAT_1_MELDS for c in m] + ["2D", "3D", "9D"]
    s = game(V, [[*_ACES, *_KINGS, *hand_a], b], ["6C"], ["2C", "4C", *stock])
    s = play(s, 0, draw(), meld(_ACES, _KINGS), discard("2C"))
    return play(s, 1, draw(), meld(*_SEAT_1_MELDS), discard("9D"))


def test_freeing_a_joker_whose_only_meld_leaves_the_discard_taken_is_refused() -> None:
    # After the lay-off, 5H 5S JK would be the joker's only meld, and it leaves 9D, taken
    # from the pile this turn and so not to be discarded: accepting it froze the turn.
    s = _queens_joker_to_free(["QC", "QD", "5H", "5S", "8S"], [])
    s = play(s, 0, draw("discard"), layoff("m4", "8S"))  # 9D
    rejected(s, 0, layoff("m3", "QC", "QD"), "must_play_joker")
    moves = rules.legal_moves(rules.seat_view(s, 0))
    assert not any(m.type == "layoff" and len(m.cards) == 2 for m in moves)
    s = play(s, 0, discard("5H"))
    assert s.turn == 1


def test_a_freed_joker_may_be_melded_with_the_other_joker_and_one_natural_card() -> None:
    s = _queens_joker_to_free(["QC", "QD", "5H", "JK", "8S"], ["6D"])
    s = play(s, 0, draw(), layoff("m4", "8S"), layoff("m3", "QC", "QD"))
    assert sorted(s.hands[0]) == ["5H", "6D", "JK", "JK"] and s.jokers_taken == 1
    moves = list(rules.legal_moves(rules.seat_view(s, 0)))
    melds = [m for m in moves if isinstance(m, rules.Meld)]
    assert melds == moves  # no discard while holding the joker
    assert ["5H", "JK", "JK"] in [sorted(m.melds[0]) for m in melds]
    s = play(s, 0, meld(["5H", "JK", "JK"]), discard("6D"))
    assert s.hand_result is not None and s.hand_result.winner == 0


def test_going_out_must_end_with_a_discard_not_a_lay_off() -> None:
    s = _opened(["TS", "JS"], ["4D", "6H", "9D"], ["5C", "QS"])
    s = play(s, 1, draw(), discard("5C"))
    s = play(s, 0, draw())  # QS
    rejected(s, 0, layoff("m2", "TS", "JS", "QS"), "must_discard_to_go_out")
    moves = list(rules.legal_moves(rules.seat_view(s, 0)))
    assert all(len(getattr(m, "cards", ())) < 3 for m in moves)
    s = play(s, 0, layoff("m2", "TS", "JS"), discard("QS"))
    assert s.hand_result is not None and s.hand_result.winner == 0


def test_going_out_must_end_with_a_discard_not_a_meld() -> None:
    s = _opened(["2H", "3H"], ["4D", "6H", "9D"], ["5C", "4H"])
    s = play(s, 1, draw(), discard("5C"))
    s = play(s, 0, draw())  # 4H
    rejected(s, 0, meld(["2H", "3H", "4H"]), "must_discard_to_go_out")


def test_going_rummy_needs_no_51_and_gives_every_other_player_25() -> None:
    hand = ["2S", "3S", "4S", "2H", "2D", "2C", "3H", "3D", "3C", "4H", "4D", "4C", "KS"]
    s = game(V, [hand, ["AS", "JK", "5H"]], ["9D"], ["5S"])
    s = play(s, 0, draw())
    melds = (["2S", "3S", "4S", "5S"], ["2H", "2D", "2C"], ["3H", "3D", "3C"], ["4H", "4D", "4C"])
    s = play(s, 0, meld(*melds))  # 41 points, but it leaves one card: going rummy
    assert s.hands[0] == ("KS",)
    s = play(s, 0, discard("KS"))
    r = s.hand_result
    assert r is not None and (r.reason, r.winner, r.rummy) == ("out", 0, True)
    assert r.points == (0, 11 + 25 + 5 + 25) and s.scores == (0, 66)


def test_below_51_without_going_rummy_is_refused() -> None:
    hand = ["2S", "3S", "4S", "2H", "2D", "2C", "3H", "3D", "3C", "4H", "4D", "4C", "KS"]
    s = game(V, [hand, ["AS", "JK", "5H"]], ["9D"], ["5S"])
    s = play(s, 0, draw())
    rejected(s, 0, meld(["2S", "3S", "4S", "5S"], ["2H", "2D", "2C"]), "opening_below_51")


def test_going_rummy_with_an_opening_of_51_or_more_counts_too() -> None:
    s = game(V, [[*OPEN_A[0], *OPEN_A[1], "KS", "KH", "KC"], ["4D"]], ["2C"], ["7D"])
    s = play(s, 0, draw(), meld(*OPEN_A, ["KS", "KH", "KC"]), discard("7D"))
    r = s.hand_result
    assert r is not None and r.rummy and r.points == (0, 4 + 25)


def test_no_rummy_after_laying_off_in_the_turn() -> None:
    s = game(V, [[*OPEN_A[0], *OPEN_A[1], "TS"], ["4D"]], ["2C"], ["7D"])
    s = play(s, 0, draw(), meld(*OPEN_A), layoff("m2", "TS"), discard("7D"))
    r = s.hand_result
    assert r is not None and not r.rummy and r.points == (0, 4)


def test_penalties_ace_11_joker_25_faces_10_and_the_hand_ends_at_once() -> None:
    s = _opened(["TS"], ["AS", "JK", "KH", "2D", "5C"], ["3D", "JS"])
    s = play(s, 1, draw(), discard("3D"))
    s = play(s, 0, draw(), layoff("m2", "TS"), discard("JS"))
    r = s.hand_result
    assert r is not None and (r.winner, r.rummy) == (0, False)
    assert r.points == (0, 11 + 25 + 10 + 2 + 5) and s.phase == "hand_over"
    rejected(s, 1, draw(), "wrong_phase")


def test_the_match_ends_at_101_the_lowest_total_wins() -> None:
    s = _opened(["TS"], ["KH", "2D"], ["3D", "JS"])
    s = with_fields(s, scores=(40, 90))
    s = play(s, 1, draw(), discard("3D"))
    s = play(s, 0, draw(), layoff("m2", "TS"), discard("JS"))
    assert s.scores == (40, 102) and s.phase == "match_over" and s.match_winner == (0,)


def test_a_tie_for_the_lowest_total_shares_the_win() -> None:
    hands = [[*OPEN_A[0], *OPEN_A[1], "TS"], ["KH"], ["9S", "3C"]]
    s = game(V, hands, ["2C"], ["KD", "3D", "4D", "JS"])
    s = with_fields(s, scores=(20, 10, 95))
    s = play(s, 0, draw(), meld(*OPEN_A), discard("KD"))
    s = play(s, 1, draw(), discard("3D"))
    s = play(s, 2, draw(), discard("4D"))
    s = play(s, 0, draw(), layoff("m2", "TS"), discard("JS"))
    assert s.scores == (20, 20, 107) and s.match_winner == (0, 1)


def test_empty_stock_the_pile_except_the_last_discard_becomes_the_stock() -> None:
    pile = ["2C", "3D", "4H", "5S", "9C", "TD", "JH", "QS", "KC", "AD"]
    rest = list(deck_of(V))
    for c in [*pile, "JS"]:
        rest.remove(c)
    s = game(V, [rest[:48], rest[48:]], pile, ["JS"], rest=False)
    s = play(s, 0, draw())
    assert s.stock == () and s.discard[-1] == "AD"
    s = play(s, 0, discard("JS"))
    assert s.discard == ("JS",) and sorted(s.stock) == sorted(pile)
    assert s.turn == 1 and s.reshuffles == 1


def test_house_after_400_completed_turns_the_hand_is_a_draw_without_penalties() -> None:
    s = game(V, [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"])
    s = with_fields(s, turns_completed=399)
    s = play(s, 0, draw(), discard("KS"))
    r = s.hand_result
    assert r is not None and (r.reason, r.points) == ("draw", (0, 0)) and s.scores == (0, 0)


def test_a_swap_that_would_leave_nothing_to_discard_is_refused() -> None:
    s = _opened(["TC"], ["9C", "JK", "JC", "QC", "KC", "AC", "4D", "6H"], ["5S"])
    s = play(s, 1, draw(), meld(["9C", "JK", "JC", "QC", "KC", "AC"]), discard("5S"))
    s = play(s, 0, draw("discard"))  # 5S, which cannot be discarded this turn
    rejected(s, 0, swap("m3", "TC"), "must_play_joker")
    assert not any(m.type == "swap" for m in rules.legal_moves(rules.seat_view(s, 0)))


def test_legal_moves_offer_going_rummy_when_every_card_could_be_melded() -> None:
    hand = ["2S", "3S", "4S", "2H", "2D", "2C", "3H", "3D", "3C", "4H", "4D", "4C", "5S"]
    s = game(V, [hand, ["AS", "JK", "5H"]], ["9D"], ["6S"])
    s = play(s, 0, draw())
    moves = [m for m in rules.legal_moves(rules.seat_view(s, 0)) if m.type == "meld"]
    rummy = [m for m in moves if sum(len(x) for x in m.melds) == 13]
    assert rummy and all(sum(len(x) for x in m.melds) < 14 for m in moves)
    for m in rummy:
        after = rules.apply(s, 0, m)
        assert len(after.hands[0]) == 1


def test_going_rummy_penalises_every_other_player_with_three_players() -> None:
    hand = ["2S", "3S", "4S", "2H", "2D", "2C", "3H", "3D", "3C", "4H", "4D", "4C", "KS"]
    s = game(V, [hand, ["AS"], ["QD", "9C"]], ["9D"], ["5S"])
    melds = (["2S", "3S", "4S", "5S"], ["2H", "2D", "2C"], ["3H", "3D", "3C"], ["4H", "4D", "4C"])
    s = play(s, 0, draw(), meld(*melds), discard("KS"))
    r = s.hand_result
    assert r is not None and r.rummy and r.points == (0, 11 + 25, 19 + 25)


def test_equal_codes_are_interchangeable_for_the_drawn_discard() -> None:
    s = game(V, [["7H", "2C", "9S"], ["3D"]], ["7H"])
    s = play(s, 0, draw("discard"))
    s = play(s, 0, discard("7H"))  # the other 7H: one 7H stays in hand
    assert s.hands[0].count("7H") == 1 and s.turn == 1


def test_lay_off_cards_may_be_given_descending() -> None:
    s = _opened(["6S", "5S", "3H"], ["4D", "6H", "9D"], ["2D"])
    s = play(s, 1, draw(), discard("2D"))
    s = play(s, 0, draw(), layoff("m2", "6S", "5S"))
    assert s.melds[1].cards == ("5S", "6S", "7S", "8S", "9S")
