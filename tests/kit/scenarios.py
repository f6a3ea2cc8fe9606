"""The engine's scenarios: every variant at every player count (`EVERY_TABLE`), games dealt
exactly so, moves from short calls, and an assertion for rejected moves."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import rules
from tests.kit.deals import fixed_deal

# Every variant at every player count it allows, (variant, players): what a test that must
# hold "in every variant" runs over, read from the rules so a new variant joins it.
EVERY_TABLE = [
    (name, players)
    for name, ruleset in rules.VARIANTS.items()
    for players in range(ruleset.min_players, ruleset.max_players + 1)
]


def game(
    variant: str,
    hands: Sequence[Sequence[str]],
    discard: Sequence[str] = (),
    stock: Sequence[str] = (),
    *,
    rest: bool = True,
    seed: bytes = b"scenario",
) -> rules.GameState:
    """A new game of `variant` dealt exactly like this (players = number of hands)."""
    deal = rules.Deal.model_validate(
        fixed_deal(variant, hands, discard, stock, full_hands=False, rest=rest)
    )
    return rules.new_game(variant, len(hands), seed=seed, deal=deal)


def draw(source: str = "stock") -> rules.Move:
    return rules.parse_move({"type": "draw", "source": source})


def discard(card: str) -> rules.Move:
    return rules.parse_move({"type": "discard", "card": card})


def meld(*melds: Sequence[str]) -> rules.Move:
    return rules.parse_move({"type": "meld", "melds": [list(m) for m in melds]})


def layoff(meld_id: str, *cards: str, end: str | None = None) -> rules.Move:
    data: dict[str, Any] = {"type": "layoff", "meld": meld_id, "cards": list(cards)}
    if end:
        data["end"] = end
    return rules.parse_move(data)


def swap(meld_id: str, card: str) -> rules.Move:
    return rules.parse_move({"type": "swap", "meld": meld_id, "card": card})


def play(state: rules.GameState, seat: int, *moves: rules.Move) -> rules.GameState:
    """Apply several moves of one seat in order."""
    for move in moves:
        state = rules.apply(state, seat, move)
    return state


def rejected(state: rules.GameState, seat: int, move: rules.Move, code: str) -> str:
    """Assert the move is rejected with `code` and changes nothing; return the message."""
    before = state.model_dump()
    with pytest.raises(rules.IllegalMove) as info:
        rules.apply(state, seat, move)
    assert info.value.code == code, f"{info.value.code}: {info.value.message}"
    assert state.model_dump() == before
    return info.value.message


def with_fields(state: rules.GameState, **fields: Any) -> rules.GameState:
    """The state with some fields replaced, validated again (e.g. scores before a hand)."""
    return rules.GameState.model_validate(state.model_dump() | fields)


def run_on_table(hand_b: list[str]) -> rules.GameState:
    """A classic hand where seat 0 has laid 4H 5H 6H and discarded; seat 1, holding
    `hand_b`, has drawn."""
    s = game("classic", [["4H", "5H", "6H", "KS", "9D"], hand_b], ["5S"], ["QC", "QD"])
    s = play(s, 0, draw(), meld(["6H", "4H", "5H"]), discard("KS"))
    return play(s, 1, draw())


def all_cards(state: rules.GameState) -> Counter[str]:
    """Every card of the state, wherever it lies: hands, stock, discard pile and melds."""
    seen: Counter[str] = Counter()
    for h in state.hands:
        seen.update(h)
    seen.update(state.stock)
    seen.update(state.discard)
    for m in state.melds:
        seen.update(m.cards)
    return seen
