"""The expert's rummy51 opening is held in hand until it goes out, or an opponent gets close.

Laid down, its melds would be lay-off targets for three opponents; held, they cost it no turn,
since the opening, the lay-offs and the last discard all fit in the turn it goes out. Played
through the rules from fixed deals: seat 0 holds 60 points of sets and seven loose cards.
A natural that a table run's joker stands for counts as that joker in the turn it opens.
"""

from __future__ import annotations

from random import Random

import pytest

import rules
from bots.expert import ExpertStrategy
from bots.explain import explain

OPENING = ["KH", "KS", "KD", "QC", "QD", "QH"]  # 60 points: a legal opening
LOOSE = ["2C", "4D", "6S", "8H", "TC", "3S", "5H"]  # nothing melds with these


def _pack() -> list[str]:
    ruleset = rules.get_variant("rummy51")
    one = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    return one * ruleset.decks + ["JK"] * ruleset.jokers


def _game(hero: list[str], others: list[int], draw: str) -> rules.GameState:
    """Seat 0 holds `hero` and draws `draw` from the stock; seat i > 0 holds others[i-1] cards."""
    left = _pack()
    for card in [*hero, draw, "9D"]:
        left.remove(card)
    # Nothing the opponents hold melds with the hero's cards: low clubs and diamonds would;
    # they get the spades and hearts from the top of what is left, in pack order.
    hands = [list(hero)]
    for n in others:
        hands.append([left.pop() for _ in range(n)])
    deal = rules.Deal(hands=hands, discard=("9D",), stock=(draw, *left))
    return rules.new_game("rummy51", 1 + len(others), seed=bytes(32), deal=deal)


def _play_turn(state: rules.GameState) -> tuple[rules.GameState, list[str], str]:
    """Seat 0's whole turn by the expert: the state after it, the types of the moves it made
    and the hint's reason (English) for its last move."""
    expert = ExpertStrategy(budget_ms=None, samples=4)
    rng = Random(1)
    kinds: list[str] = []
    reason = ""
    while state.phase in ("draw", "play") and state.turn == 0:
        view = rules.seat_view(state, 0)
        move = expert.choose(view, list(rules.legal_moves(view)), rng)
        kinds.append(move.type)
        reason = explain(view, move)["en"]
        state = rules.apply(state, 0, move)
    return state, kinds, reason


def test_the_opening_stays_in_hand_while_every_opponent_is_far_from_out() -> None:
    state, kinds, reason = _play_turn(_game(OPENING + LOOSE, [13, 13, 13], draw="7C"))
    assert "meld" not in kinds
    assert kinds[0] == "draw" and kinds[-1] == "discard"
    assert state.melds == ()
    assert not rules.seat_view(state, 0).opened[0]
    # The hint says why it discards with an opening in hand.
    assert "your melds stay in your hand until you can go out" in reason


def test_the_opening_goes_down_once_an_opponent_is_close_to_out() -> None:
    state, kinds, _ = _play_turn(_game(OPENING + LOOSE, [13, 4, 13], draw="7C"))
    assert "meld" in kinds
    assert rules.seat_view(state, 0).opened[0]


def test_a_held_opening_goes_out_in_the_turn_it_can() -> None:
    # The opening, one run from the drawn card and one card to throw: out in one turn.
    state, kinds, reason = _play_turn(_game(OPENING + ["5C", "6C", "2D"], [13, 13, 13], draw="7C"))
    assert "meld" in kinds
    result = state.hand_result
    assert result is not None and result.winner == 0 and result.reason == "out"
    assert "stay in your hand" not in reason


def _move(**fields: object) -> rules.Move:
    return rules.parse_move(fields)


def _after_a_joker_run(hero: list[str], draw: str, thrown: str = "2H") -> rules.GameState:
    """Two players. Seat 0 holds `hero`; seat 1 opens with a run whose joker stands for JS
    and throws `thrown`; then seat 0 is to draw, `draw` from the stock."""
    run = ["9S", "TS", "JK", "QS", "KS", "AS"]
    filler = ["3D", "4D", "6C", "8C", "3H", "4H", "6D"]
    left = _pack()
    for card in [*hero, *run, *filler, "9D", "4S", thrown, draw]:
        left.remove(card)
    deal = rules.Deal(
        hands=(tuple(hero), (*run, *filler)), discard=("9D",), stock=("4S", thrown, draw, *left)
    )
    state = rules.new_game("rummy51", 2, seed=bytes(32), deal=deal)
    for seat, moves in (
        (0, [_move(type="draw", source="stock"), _move(type="discard", card="4S")]),
        (1, [_move(type="draw", source="stock"), _move(type="meld", melds=[run])]),
        (1, [_move(type="discard", card=thrown)]),
    ):
        for move in moves:
            state = rules.apply(state, seat, move)
    return state


def test_a_held_natural_takes_the_tables_joker_to_go_out() -> None:
    # 60 points of sets, a run that the drawn 10 completes, 5H 5C, and the JS a table run's
    # joker stands for: opened, the swap gives the joker that makes 5H 5C a set; 2C is thrown.
    hero = OPENING + ["7D", "8D", "9D", "5H", "5C", "JS", "2C"]
    state = _after_a_joker_run(hero, draw="TD")
    assert rules.seat_view(state, 0).melds[0].stands_for[2] == "JS"
    state, kinds, _ = _play_turn(state)
    assert "swap" in kinds
    result = state.hand_result
    assert result is not None and result.winner == 0 and result.reason == "out"


@pytest.mark.parametrize("search", [True, False])
def test_the_natural_for_a_tables_joker_is_taken_from_the_pile(search: bool) -> None:
    hero = OPENING + ["7D", "8D", "9D", "5H", "5C", "2C", "3C"]
    state = _after_a_joker_run(hero, draw="TD", thrown="JS")
    view = rules.seat_view(state, 0)
    move = ExpertStrategy(budget_ms=None, samples=4, search=search).choose(
        view, list(rules.legal_moves(view)), Random(1)
    )
    assert move == _move(type="draw", source="discard")
    assert "wins you the joker" in explain(view, move)["en"]
