"""basic (RULES.md "Basic Rummy"): one test per rule sentence, on fixed deals."""

from __future__ import annotations

import pytest

import rules
from rules.reducer import deck_of
from tests.kit.scenarios import discard, draw, game, layoff, meld, play, rejected, with_fields

V = "basic"
HEARTS = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7)])
def test_two_to_four_players_ten_cards_with_two_seven_with_three_or_four(
    players: int, size: int
) -> None:
    s = rules.new_game(V, players, seed=b"deal")
    assert [len(h) for h in s.hands] == [size] * players
    assert len(s.discard) == 1 and len(s.stock) == 52 - players * size - 1
    assert (s.dealer, s.turn) == (players - 1, 0)


def test_five_players_are_refused() -> None:
    with pytest.raises(rules.IllegalMove) as info:
        rules.new_game(V, 5, seed=b"deal")
    assert info.value.code == "invalid_setup"


def test_ace_is_low_only() -> None:
    s = game(V, [["QH", "KH", "AH", "2S"], ["3C"]], ["9D"])
    s = play(s, 0, draw())
    rejected(s, 0, meld(["QH", "KH", "AH"]), "invalid_meld")


def test_laying_off_anywhere_and_before_ones_own_first_meld() -> None:
    s = game(V, [["5C", "9D", "TD"], ["2C", "3C", "4C", "9S", "KD"], ["JS", "JC"]], ["8H"],
             ["QD", "QS", "2D", "7C"])  # fmt: skip
    s = play(s, 0, draw(), discard("QD"))
    s = play(s, 1, draw(), meld(["2C", "3C", "4C"]), discard("QS"))
    s = play(s, 2, draw(), discard("2D"))
    s = play(s, 0, draw(), layoff("m1", "5C"))
    assert s.melds[0].cards == ("2C", "3C", "4C", "5C") and not s.opened[0]


def test_going_out_by_melding_every_card() -> None:
    s = game(V, [["7H", "8H", "9H", "KS", "KD"], ["5S", "2D"]], ["3C"], ["KC"])
    s = with_fields(s, has_played=(True, False))  # no rummy bonus in this test
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"], ["KS", "KD", "KC"]))
    r = s.hand_result
    assert r is not None and (r.reason, r.winner, r.points, r.rummy) == ("out", 0, (7, 0), False)


def test_going_out_by_discarding_the_last_card() -> None:
    s = game(V, [["7H", "8H", "9H"], ["5S", "2D"]], ["3C"], ["KC"])
    s = with_fields(s, has_played=(True, False))
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("KC"))
    assert s.hand_result is not None and s.hand_result.points == (7, 0)


def test_the_winner_scores_every_opponents_cards() -> None:
    s = game(V, [["7H", "8H", "9H"], ["5S"], ["KD", "2D"]], ["3C"], ["KC"])
    s = with_fields(s, has_played=(True, False, False))
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("KC"))
    assert s.hand_result is not None and s.hand_result.points == (17, 0, 0)
    assert s.scores == (17, 0, 0)


def test_going_rummy_doubles_the_points() -> None:
    s = game(V, [["7H", "8H", "9H", "KS", "KD", "KC"], ["5S", "2D"]], ["3C"], ["QC"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"], ["KS", "KD", "KC"]), discard("QC"))
    r = s.hand_result
    assert r is not None and (r.points, r.rummy) == ((14, 0), True)


def test_no_rummy_after_melding_in_an_earlier_turn() -> None:
    s = game(V, [["7H", "8H", "9H", "KS", "KD", "KC"], ["5S", "2D"]], ["3C"], ["QC", "6D", "2C"])
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("QC"))
    assert s.has_played == (True, False)
    s = play(s, 1, draw(), discard("6D"))
    s = play(s, 0, draw(), meld(["KS", "KD", "KC"]), discard("2C"))
    r = s.hand_result
    assert r is not None and (r.winner, r.rummy, r.points) == (0, False, (7, 0))


def _exhausting_deal() -> rules.GameState:
    """Two hands of 20, a 10-card discard pile, a 2-card stock."""
    pile = ["2C", "3D", "4H", "5S", "9C", "TD", "JH", "QS", "KC", "AD"]
    stock = ["JS", "8D"]
    rest = [c for c in deck_of(V) if c not in pile + stock]
    return game(V, [rest[:20], rest[20:]], pile, stock, rest=False)


def test_first_exhaustion_rebuilds_the_stock_from_the_whole_pile_at_the_end_of_the_turn() -> None:
    s = _exhausting_deal()
    s = play(s, 0, draw(), discard("JS"))
    s = play(s, 1, draw())
    assert s.stock == () and s.stock_exhaustions == 1 and len(s.discard) == 11
    s = play(s, 1, discard("8D"))
    assert s.discard == () and len(s.stock) == 12 and s.phase == "draw"
    assert sorted(s.stock) == sorted([*_exhausting_deal().discard, "JS", "8D"])
    rejected(s, 0, draw("discard"), "nothing_to_draw")
    assert [m.model_dump() for m in rules.legal_moves(rules.seat_view(s, 0))] == [
        {"type": "draw", "source": "stock"}
    ]


def test_second_exhaustion_ends_the_hand_in_a_stalemate_at_the_end_of_that_turn() -> None:
    s = _exhausting_deal()
    s = play(s, 0, draw(), discard("JS"))
    s = play(s, 1, draw(), discard("8D"))
    turns = 0
    while s.phase == "draw":
        seat = s.turn
        s = play(s, seat, draw("stock"))
        if not s.stock:
            assert s.phase == "play"  # the player still finishes the turn
        s = play(s, seat, discard(s.hands[seat][-1]))
        turns += 1
    assert turns == 12
    r = s.hand_result
    assert r is not None and (r.reason, r.winner, r.points) == ("stalemate", None, (0, 0))
    assert s.scores == (0, 0)


def test_no_stalemate_when_the_player_who_empties_the_stock_again_goes_out() -> None:
    pack = deck_of(V)
    rest = [c for c in pack if c not in ("7H", "8H", "9H", "5S", "2D")]
    s = game(V, [["7H", "8H"], ["5S", "2D"]], rest, ["9H"], rest=False)
    s = with_fields(s, stock_exhaustions=1, has_played=(True, True))
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]))
    assert s.hand_result is not None and s.hand_result.reason == "out"
    assert s.hand_result.points == (7, 0)


def test_one_card_each_and_nothing_fits_the_table_is_a_stalemate() -> None:
    s = game(V, [[*HEARTS, "KD"], ["5S"]], ["3C"], ["QC"])
    s = play(s, 0, draw(), meld(HEARTS), discard("QC"))
    r = s.hand_result
    assert r is not None and (r.reason, r.points) == ("stalemate", (0, 0))


def test_one_card_each_but_a_card_somewhere_fits_goes_on() -> None:
    s = game(V, [[*HEARTS[:-1], "KD"], ["5S"]], ["3C"], ["QC"])
    s = play(s, 0, draw(), meld(HEARTS[:-1]), discard("QC"))
    assert s.hand_result is None and s.phase == "draw" and s.turn == 1  # KH is in the stock


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 150), (4, 200)])
def test_match_target_by_player_count(players: int, target: int) -> None:
    hands = [["7H", "8H", "9H"], ["KS"], ["KD"], ["KC"]][:players]
    s = game(V, hands, ["3C"], ["2S"])
    s = with_fields(s, scores=(target - 10,) + (0,) * (players - 1), has_played=(True,) * players)
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert s.phase == "match_over" and s.match_winner == (0,)
    assert s.scores[0] == target - 10 + 10 * (players - 1)
    s = game(V, hands, ["3C"], ["2S"])
    s = with_fields(s, scores=(target - 11 - 10 * (players - 2),) + (0,) * (players - 1),
                    has_played=(True,) * players)  # fmt: skip
    s = play(s, 0, draw(), meld(["7H", "8H", "9H"]), discard("2S"))
    assert s.phase == "hand_over" and s.scores[0] == target - 1


def test_house_after_400_completed_turns_the_hand_is_a_draw() -> None:
    s = game(V, [["7H", "8H", "KS"], ["2C", "3C", "QD"]], ["5D"])
    s = with_fields(s, turns_completed=399)
    s = play(s, 0, draw(), discard("KS"))
    r = s.hand_result
    assert r is not None and (r.reason, r.points) == ("draw", (0, 0))
