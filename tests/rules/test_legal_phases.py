"""The view's `legal` in each phase of a turn (docs/api.md "v1.1 additions"): the sources
to draw from, then the discards, melds, lay-offs with their end and swaps; nothing for the
seat not to act or after the hand. On fixed deals through the public API."""

from __future__ import annotations

import rules
from tests.kit.scenarios import discard, draw, game, meld, play, run_on_table, swap


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
    s = run_on_table(["3H", "7H", "8C", "8D", "8S"])
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
