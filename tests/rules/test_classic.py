"""classic (RULES.md "Rummy online with a friend"): one test per rule sentence, on fixed
deals. Seat 0 starts the first hand (the last seat deals)."""

from __future__ import annotations

import pytest

import rules
from tests.kit.scenarios import discard, draw, game, layoff, meld, play, rejected, with_fields

V = "classic"


def test_exactly_two_players_ten_cards_each_one_discard_face_up() -> None:
    s = rules.new_game(V, 2, seed=b"deal")
    assert [len(h) for h in s.hands] == [10, 10]
    assert len(s.discard) == 1 and len(s.stock) == 31
    for players in (1, 3, 4):
        with pytest.raises(rules.IllegalMove) as info:
            rules.new_game(V, players, seed=b"deal")
        assert info.value.code == "invalid_setup"


def test_a_turn_draws_then_may_meld_then_discards() -> None:
    s = game(V, [["7H", "8H", "9H", "KS"], ["2C", "3C", "4C", "QD"]], ["5D"], ["6S"])
    rejected(s, 0, meld(["7H", "8H", "9H"]), "must_draw_first")
    rejected(s, 0, discard("KS"), "must_draw_first")
    rejected(s, 1, draw(), "not_your_turn")
    s = play(s, 0, draw())
    assert s.hands[0] == ("7H", "8H", "9H", "KS", "6S") and s.phase == "play"
    rejected(s, 0, draw("discard"), "already_drawn")
    s = play(s, 0, meld(["7H", "8H", "9H"]), discard("KS"))
    assert (s.turn, s.phase, s.discard[-1], s.turns_completed) == (1, "draw", "KS", 1)


def test_the_card_taken_from_the_discard_pile_cannot_be_discarded_that_turn() -> None:
    s = game(V, [["3D", "4D", "KS", "QC"], ["2C", "3C", "4C", "QD"]], ["5D"])
    s = play(s, 0, draw("discard"))
    msg = rejected(s, 0, discard("5D"), "cannot_discard_drawn_card")
    assert "five of diamonds" in msg
    # ... but it may be melded
    s = play(s, 0, meld(["3D", "4D", "5D"]), discard("KS"))
    assert s.hands[0] == ("QC",)


def test_a_meld_leaving_only_the_drawn_discard_is_illegal() -> None:
    s = game(V, [["7H", "8H", "9H"], ["2C", "3C", "4C", "QD"]], ["5D"])
    s = play(s, 0, draw("discard"))
    rejected(s, 0, meld(["7H", "8H", "9H"]), "cannot_discard_drawn_card")
    moves = list(rules.legal_moves(rules.seat_view(s, 0)))
    assert rules.parse_move({"type": "meld", "melds": [["7H", "8H", "9H"]]}) not in moves


def test_sets_are_three_or_four_of_a_rank() -> None:
    s = game(V, [["KS", "KD", "KC", "KH", "2S", "2D", "5C"], ["3C", "4C"]], ["9D"])
    s = play(s, 0, draw())
    rejected(s, 0, meld(["2S", "2D"]), "invalid_meld")
    rejected(s, 0, meld(["2S", "2D", "5C"]), "invalid_meld")
    s = play(s, 0, meld(["KS", "KD", "KC", "KH"]))
    assert s.melds[0].kind == "set" and len(s.melds[0].cards) == 4


def test_runs_are_three_or_more_of_a_suit_ace_low_only() -> None:
    s = game(V, [["AS", "2S", "3S", "QH", "KH", "AH", "4D", "5D", "7D"], ["3C"]], ["9D"])
    s = play(s, 0, draw())
    rejected(s, 0, meld(["QH", "KH", "AH"]), "invalid_meld")
    rejected(s, 0, meld(["4D", "5D", "7D"]), "invalid_meld")
    rejected(s, 0, meld(["3S", "4D", "5D"]), "invalid_meld")
    s = play(s, 0, meld(["AS", "2S", "3S"]))
    assert s.melds[0].kind == "run" and s.melds[0].cards == ("AS", "2S", "3S")


def test_several_melds_may_be_laid_in_one_turn() -> None:
    hand = ["7H", "8H", "9H", "KS", "KD", "KC", "2D"]
    s = game(V, [hand, ["3C"]], ["9D"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"], ["KS", "KD", "KC"]))
    assert [m.id for m in s.melds] == ["m1", "m2"]
    assert s.opened[0] and not s.opened[1]


def _opponent_melds_first() -> rules.GameState:
    s = game(V, [["5C", "6C"], ["2C", "3C", "4C", "9S", "KD"]], ["8H"], ["JD", "QS", "7C"])
    s = play(s, 0, draw(), discard("JD"))
    return play(s, 1, draw(), meld(["2C", "3C", "4C"]), discard("QS"))


def test_laying_off_onto_the_opponents_meld_before_ones_own_first_meld() -> None:
    s = _opponent_melds_first()
    assert not s.opened[0]
    s = play(s, 0, draw(), layoff("m1", "5C"))
    assert s.melds[0].cards == ("2C", "3C", "4C", "5C")


def test_melds_are_never_rearranged_lay_offs_go_at_the_ends() -> None:
    s = _opponent_melds_first()
    s = play(s, 0, draw())
    rejected(s, 0, layoff("m1", "6C"), "invalid_layoff")
    rejected(s, 0, layoff("m9", "5C"), "meld_not_found")
    rejected(s, 0, layoff("m1", "AD"), "card_not_in_hand")


def test_the_hand_ends_the_moment_a_player_lays_off_the_last_card() -> None:
    s = _opponent_melds_first()
    s = play(s, 0, draw(), layoff("m1", "5C", "6C", "7C"))
    r = s.hand_result
    assert r is not None and (r.reason, r.winner, r.points) == ("out", 0, (19, 0))
    assert s.melds[0].cards == ("2C", "3C", "4C", "5C", "6C", "7C")


def test_going_out_by_melding_scores_every_card_left_even_complete_melds() -> None:
    s = game(V, [["7H", "8H", "9H", "TH"], ["QS", "QD", "QC", "5S"]], ["2D"], ["JH"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H", "TH", "JH"]))
    r = s.hand_result
    assert r is not None and (r.reason, r.winner, r.points, r.rummy) == ("out", 0, (35, 0), False)
    assert s.scores == (35, 0) and s.phase == "hand_over"
    assert r.hands == ((), ("QS", "QD", "QC", "5S"))
    rejected(s, 1, draw(), "wrong_phase")


def test_going_out_by_discarding_the_last_card_ace_one_faces_ten() -> None:
    s = game(V, [["7H", "8H", "9H"], ["AS", "KD", "7C"]], ["2D"], ["2S"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert s.hand_result is not None and s.hand_result.points == (18, 0)


def test_empty_stock_reshuffles_the_discard_pile_except_its_top_on_the_next_draw() -> None:
    pack = rules.reducer.deck_of(V)
    # Everything dealt except 6 discards and a 1-card stock.
    pile = ["2C", "3D", "4H", "5S", "9C", "TD"]
    stock = ["JS"]
    rest = [c for c in pack if c not in pile + stock]
    s = game(V, [rest[:22], rest[22:]], pile, stock, rest=False)
    s = play(s, 0, draw())
    assert s.stock == () and s.stock_exhaustions == 1
    s = play(s, 0, discard("JS"))
    s = play(s, 1, draw("stock"))
    assert s.discard == ("JS",)  # the top card stays
    assert len(s.stock) == len(pile) - 1  # the rest became the stock, one drawn
    assert sorted((*s.stock, s.hands[1][-1])) == sorted(pile)
    assert s.reshuffles == 1


def test_when_the_top_discard_is_all_that_is_left_the_player_takes_it() -> None:
    pack = rules.reducer.deck_of(V)
    rest = [c for c in pack if c != "9C"]
    s = game(V, [rest[:26], rest[26:]], ["9C"], [], rest=False)
    view = rules.seat_view(s, 0)
    assert {m.model_dump()["source"] for m in rules.legal_moves(view)} == {"stock", "discard"}
    s = play(s, 0, draw("stock"))
    assert s.hands[0][-1] == "9C" and s.discard == ()
    rejected(s, 0, discard("9C"), "cannot_discard_drawn_card")


def test_house_nothing_at_all_left_to_draw_is_a_draw() -> None:
    pack = rules.reducer.deck_of(V)
    s = game(V, [pack[:26], pack[26:]], [], [], rest=False)
    assert s.hand_result is not None and s.hand_result.reason == "draw"
    assert s.hand_result.points == (0, 0) and s.phase == "hand_over"


def test_after_200_completed_turns_the_hand_is_a_draw() -> None:
    s = game(V, [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"])
    s = with_fields(s, turns_completed=199)
    s = play(s, 0, draw(), discard("KS"))
    r = s.hand_result
    assert r is not None and (r.reason, r.winner, r.points) == ("draw", None, (0, 0))
    assert s.scores == (0, 0) and s.phase == "hand_over"


def test_199_completed_turns_are_not_yet_a_draw() -> None:
    s = game(V, [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"])
    s = with_fields(s, turns_completed=198)
    s = play(s, 0, draw(), discard("KS"))
    assert s.phase == "draw" and s.turns_completed == 199


def test_first_to_100_after_a_hand_wins_the_match() -> None:
    s = game(V, [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    s = with_fields(s, scores=(90, 99))
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert s.scores == (103, 99) and s.phase == "match_over" and s.match_winner == (0,)
    s = game(V, [["7H", "8H", "9H"], ["AS", "2D", "3C"]], ["3D"], ["2S"])
    s = with_fields(s, scores=(90, 0))
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert s.scores == (96, 0) and s.phase == "hand_over" and s.match_winner is None


def test_scores_carry_over_and_the_dealer_alternates() -> None:
    s = game(V, [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    assert (s.dealer, s.turn) == (1, 0)
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    both = frozenset({0, 1})
    s = rules.vote(s, 0, "next_hand", both)
    assert s.phase == "hand_over" and s.votes.next_hand == (0,)
    s = rules.vote(s, 1, "next_hand", both)
    assert (s.hand_number, s.dealer, s.turn, s.phase) == (2, 0, 1, "draw")
    assert s.scores == (13, 0) and [len(h) for h in s.hands] == [10, 10]
    assert s.votes.next_hand == () and s.fixed_deal is None


def test_new_round_during_a_hand_restarts_the_match_at_zero() -> None:
    s = game(V, [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    s = with_fields(s, scores=(40, 30), hand_number=3, dealer=0, turn=1)
    both = frozenset({0, 1})
    with pytest.raises(rules.IllegalMove) as info:
        rules.vote(s, 0, "next_hand", both)
    assert info.value.code == "wrong_phase"
    s = rules.vote(s, 1, "new_match", both)
    assert s.scores == (40, 30)
    s = rules.vote(s, 0, "new_match", both)
    assert (s.scores, s.hand_number, s.dealer, s.turn) == ((0, 0), 1, 1, 0)


def test_a_local_room_holder_decides_alone() -> None:
    s = game(V, [["7H", "8H", "9H"], ["AS", "2D", "KC"]], ["3D"], ["2S"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    s = rules.vote(s, 0, "next_hand", frozenset({0}))
    assert s.hand_number == 2 and s.phase == "draw"
