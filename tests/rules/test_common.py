"""RULES.md "Rules common to all variants", checked in each variant.

The melds used are worth at least 51 so that rummy51's opening allows them too.
"""

from __future__ import annotations

import pytest

import rules
from tests.kit.scenarios import discard, draw, game, layoff, meld, play, rejected, with_fields

VARIANTS = ["classic", "basic", "rummy51"]
OPENING = (["TH", "JH", "QH", "KH"], ["KS", "KD", "KC"])  # 40 + 30
A_HAND = [*OPENING[0], *OPENING[1], "2C", "5D"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_turn_is_draw_then_melds_then_one_discard_that_ends_it(variant: str) -> None:
    s = game(variant, [A_HAND, ["2S", "3S", "4D"]], ["9D"], ["6C"])
    rejected(s, 0, meld(*OPENING), "must_draw_first")
    rejected(s, 0, discard("2C"), "must_draw_first")
    rejected(s, 1, draw(), "not_your_turn")
    s = play(s, 0, draw())
    rejected(s, 0, draw(), "already_drawn")
    rejected(s, 1, discard("2S"), "not_your_turn")
    s = play(s, 0, meld(*OPENING))
    assert s.phase == "play" and s.turn == 0  # melding does not end the turn
    s = play(s, 0, discard("2C"))
    assert (s.turn, s.phase, s.discard[-1], s.hands[0]) == (1, "draw", "2C", ("5D", "6C"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_drawn_discard_may_be_melded_but_not_discarded(variant: str) -> None:
    hand = ["TS", "JS", "QS", "KS", "KD", "KC", "4H"]
    s = game(variant, [hand, ["2S", "3S", "4D"]], ["9S"])
    s = play(s, 0, draw("discard"))
    assert s.drawn_from_discard == "9S" and s.discard == ()
    rejected(s, 0, discard("9S"), "cannot_discard_drawn_card")
    s = play(s, 0, meld(["9S", "TS", "JS", "QS"], ["KS", "KD", "KC"]), discard("4H"))
    assert s.hand_result is not None and s.hand_result.winner == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_play_leaving_only_the_drawn_discard_is_illegal(variant: str) -> None:
    s = game(variant, [[*OPENING[0], *OPENING[1]], ["2S", "3S", "4D"]], ["9S"])
    s = play(s, 0, draw("discard"))
    rejected(s, 0, meld(*OPENING), "cannot_discard_drawn_card")
    listed = [m for m in rules.legal_moves(rules.seat_view(s, 0)) if m.type == "meld"]
    assert rules.parse_move({"type": "meld", "melds": OPENING}) not in listed


@pytest.mark.parametrize("variant", VARIANTS)
def test_anyone_lays_off_onto_any_meld_at_either_end(variant: str) -> None:
    hand_b = ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "2D"]  # 5..J of clubs = 55 points
    s = game(variant, [[*A_HAND, "4C", "QC"], hand_b], ["9D"], ["3D", "3H", "3S"])
    s = play(s, 0, draw(), meld(*OPENING), discard("3D"))
    s = play(s, 1, draw(), meld(hand_b[:7]), discard("3H"))
    s = play(s, 0, draw(), layoff("m3", "4C"), layoff("m3", "QC"))
    assert s.melds[2].cards == ("4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC")


@pytest.mark.parametrize("variant", VARIANTS)
def test_melds_are_never_rearranged(variant: str) -> None:
    s = game(variant, [[*A_HAND, "9H", "AD"], ["2S", "3S", "4D"]], ["9D"], ["AH"])
    s = play(s, 0, draw(), meld(*OPENING))
    # docs/api.md v1.2: `end` places jokers only; 9H extends the run where it fits, at its low end.
    low = rules.apply(s, 0, layoff("m1", "9H", end="high"))
    assert low.melds[0].cards == ("9H", *OPENING[0])
    rejected(s, 0, layoff("m2", "AD"), "invalid_layoff")
    rejected(s, 0, rules.parse_move({"type": "meld", "melds": [["9H", "TH", "JH"]]}),
             "card_not_in_hand")  # fmt: skip
    assert [m.cards for m in s.melds] == [tuple(OPENING[0]), tuple(OPENING[1])]


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_the_top_discard_can_be_taken(variant: str) -> None:
    s = game(variant, [A_HAND, ["2S", "3S", "4D"]], ["9D", "8D", "7S"])
    s = play(s, 0, draw("discard"))
    assert s.hands[0][-1] == "7S" and s.discard == ("9D", "8D")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_is_public_hands_and_stock_order_are_not(variant: str) -> None:
    s = game(variant, [A_HAND, ["2S", "3S", "4D"]], ["9D"], ["6C"])
    s = play(s, 0, draw(), meld(*OPENING))
    v = rules.seat_view(s, 1)
    assert v.hand == ("2S", "3S", "4D") and v.hand_counts == (3, 3)
    assert [m.cards for m in v.melds] == [tuple(OPENING[0]), tuple(OPENING[1])]
    assert v.discard_top == "9D" and v.stock_count == len(s.stock)
    text = v.model_dump_json()
    assert all(c not in text for c in ("2C", "5D", "6C"))  # seat 0's hand, stock


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_move_after_the_hand_ended_is_in_the_wrong_phase(variant: str) -> None:
    s = game(variant, [[*OPENING[0], *OPENING[1]], ["2S", "3S", "4D"]], ["9D"], ["6C"])
    s = play(s, 0, draw(), meld(*OPENING), discard("6C"))
    assert s.phase == "hand_over"
    rejected(s, 1, draw(), "wrong_phase")
    rejected(s, 0, discard("2S"), "wrong_phase")


@pytest.mark.parametrize(("variant", "players"),
                         [("classic", 2), ("basic", 3), ("basic", 4), ("rummy51", 4)])  # fmt: skip
def test_the_dealer_moves_left_each_hand_and_the_next_seat_starts(
    variant: str, players: int
) -> None:
    s = rules.new_game(variant, players, seed=b"rotation")
    assert (s.dealer, s.turn) == (players - 1, 0)
    everyone = frozenset(range(players))
    for hand in range(2, players + 3):
        over = rules.HandResult(reason="draw", winner=None, points=(0,) * players,
                                hands=s.hands, rummy=False)  # fmt: skip
        s = with_fields(s, phase="hand_over", hand_result=over.model_dump())
        for seat in range(players):
            s = rules.vote(s, seat, "next_hand", everyone)
        assert s.hand_number == hand
        assert s.dealer == (hand - 2) % players
        assert s.turn == (s.dealer + 1) % players
