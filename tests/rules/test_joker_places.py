"""A seat's `legal.melds` lists every single meld the hand can lay, a run with a joker in the
place of a card the hand holds included (issue 46 item 9): holding 8H 9H TH and a joker,
8H-JK-TH (the joker as 9H) is listed, laid as listed, and counted at its value before
rummy51's opening; the bots' meld search and `legal_moves` stay as they were."""

from __future__ import annotations

import rules
from tests.kit.scenarios import draw, game, meld, play

HAND = ["8H", "TH", "JK", "9H", "KS", "KD", "KC", "QS", "QD", "QC", "3D", "4S", "6C"]


def _opened() -> rules.GameState:
    state = game("rummy51", [HAND, ["5C"]], ["4C"], ["2D"])
    return play(state, 0, draw(), meld(["KS", "KD", "KC"], ["QS", "QD", "QC"]))


def test_a_run_with_the_joker_in_a_held_cards_place_is_listed_and_lays() -> None:
    state = _opened()
    legal = rules.seat_view(state, 0).legal
    assert legal is not None and ("8H", "JK", "TH") in legal.melds
    after = play(state, 0, meld(["8H", "JK", "TH"]))
    run = after.melds[-1]
    assert run.cards == ("8H", "JK", "TH") and run.stands_for == ("8H", "9H", "TH")
    assert "9H" in after.hands[0]


def test_before_the_opening_it_counts_at_the_card_it_stands_for() -> None:
    state = play(game("rummy51", [HAND, ["5C"]], ["4C"], ["2D"]), 0, draw())
    legal = rules.seat_view(state, 0).legal
    assert legal is not None and legal.opening is not None
    values = {m.cards: m.value for m in legal.opening.melds}
    assert values[("8H", "JK", "TH")] == 27 == values[("8H", "9H", "TH")]


def test_legal_moves_stay_as_the_bots_search_them() -> None:
    view = rules.seat_view(_opened(), 0)
    melds = {m.melds[0] for m in rules.legal_moves(view) if isinstance(m, rules.Meld)}
    assert ("8H", "JK", "TH") not in melds and ("8H", "9H", "TH") in melds
    assert view.legal is not None
    assert set(view.legal.melds) - melds == {("8H", "JK", "TH")}
