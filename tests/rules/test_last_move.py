"""A discard draw is named in `last_move` for every seat, a stock draw names no card (docs/api.md
"v1.1 additions"); on fixed deals through the public API. Seat 0 acts first."""

from __future__ import annotations

import rules
from tests.kit.scenarios import discard, draw, game


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
