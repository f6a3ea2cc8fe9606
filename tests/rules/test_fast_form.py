"""The fast path of the pydantic API gives exactly what full validation gives.

A state the rules made carries its engine `Game` and is built without validating again; a
seat view carries the engine moves behind its `legal`. Over random hands of every variant
and player count (votes and new hands included), each such state and view must equal, field
for field and type for type, the same data validated from JSON, and a state decoded from
JSON (no engine form yet) must lead to the same views and the same next states.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import rules
from rules import playout
from rules.legal import game_from_view
from tests.kit.scenarios import EVERY_TABLE

CASES = EVERY_TABLE
HANDS = 3  # per case, or as many as end in MOVES moves (at least one)
MOVES = 800


def _decoded(state: rules.GameState) -> rules.GameState:
    return rules.GameState.model_validate_json(state.model_dump_json())


def _same_model(made: rules.GameState | rules.SeatView, checked: object) -> None:
    """`made` equals `checked` (the same data validated) in value and type."""
    assert made == checked
    assert type(made) is type(checked)
    assert made.model_dump() == checked.model_dump()  # type: ignore[attr-defined]
    assert made.model_dump_json() == checked.model_dump_json()  # type: ignore[attr-defined]
    if isinstance(made, rules.GameState):  # every field given, as a decoded state has them
        assert made.model_fields_set == checked.model_fields_set  # type: ignore[attr-defined]


def _check_views(state: rules.GameState, decoded: rules.GameState) -> list[rules.Move]:
    """Every seat's view of the fast state against validation; the legal moves of the seat
    to act (empty once the hand is over)."""
    to_act: list[rules.Move] = []
    for seat in range(state.players):
        view = rules.seat_view(state, seat)
        _same_model(view, rules.SeatView.model_validate_json(view.model_dump_json()))
        _same_model(view, rules.seat_view(decoded, seat))
        # What the view carries besides its fields: the engine moves of its own `legal`,
        # exactly what its visible fields give, and nothing else.
        carried = [form.value for form in (view.__pydantic_private__ or {}).values()]
        if view.legal is None:
            assert carried == [None]
        else:
            assert carried == [tuple(playout.generate(game_from_view(view), seat))]
        moves = list(rules.legal_moves(view))
        relearnt = list(rules.legal_moves(rules.SeatView.model_validate(view.model_dump())))
        assert moves == relearnt
        assert [rules.move_to_json(m) for m in moves] == [
            rules.move_to_json(rules.parse_move(rules.move_to_json(m))) for m in moves
        ]
        if moves:
            to_act = moves
    spectator = rules.spectator_view(state)
    _same_model(spectator, rules.SpectatorView.model_validate_json(spectator.model_dump_json()))
    return to_act


def _refused(state: rules.GameState) -> rules.Move:
    """A move `state`'s seat to act may not make now (a second draw, a discard undrawn)."""
    if state.phase == "play":
        return rules.Draw(source="stock")
    return rules.Discard(card=state.hands[state.turn][0])


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_the_fast_path_gives_what_full_validation_gives(variant: str, players: int) -> None:
    rng = random.Random(f"fast-form-{variant}-{players}")
    voters = frozenset(range(players))
    state = rules.new_game(variant, players, seed=f"ff-{variant}-{players}".encode())
    hands = moves = 0
    while hands < HANDS and (moves < MOVES or not hands):
        decoded = _decoded(state)
        _same_model(state, decoded)
        _same_model(state, rules.GameState.model_validate(state.model_dump()))
        assert state.model_fields_set == set(rules.GameState.model_fields)
        legal = _check_views(state, decoded)
        if not legal:  # the hand is over: everybody votes for the next one (or a new match)
            hands += 1
            kind = "new_match" if state.phase == "match_over" else "next_hand"
            for seat in range(players):
                state = rules.vote(state, seat, kind, voters)
            continue
        seat = state.turn
        before = state.model_dump_json()
        with pytest.raises(rules.IllegalMove):
            rules.apply(state, seat, _refused(state))
        move, other = rng.choice(legal), rng.choice(legal)
        after = rules.apply(state, seat, move)
        _same_model(after, rules.apply(decoded, seat, move))
        _same_model(rules.apply(state, seat, other), rules.apply(decoded, seat, other))
        assert state.model_dump_json() == before  # neither the refusal nor the moves changed it
        _same_model(rules.apply(state, seat, move), after)
        if rng.random() < 0.02:  # a vote for a new match that not everyone casts
            after = rules.vote(after, rng.randrange(players), "new_match", voters)
        state = after
        moves += 1
    assert hands >= 1 and moves > 100


def test_a_copy_with_other_fields_does_not_keep_the_old_engine_form() -> None:
    state = rules.new_game("classic", 2, seed=b"copy")
    rules.seat_view(state, state.turn)  # the engine form is made and kept
    blank = "0" * len(state.seed)
    changed = state.model_copy(update={"seed": blank, "turn": 1 - state.turn})
    assert rules.seat_view(changed, changed.turn).legal is not None
    assert rules.seat_view(changed, state.turn).legal is None
    after = rules.apply(changed, changed.turn, rules.Draw(source="stock"))
    assert after.seed == blank and after.turn == changed.turn
    fresh = rules.apply(_decoded(state), state.turn, rules.Draw(source="discard"))
    for same in (
        state.model_copy(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
    ):
        _same_model(rules.apply(same, state.turn, rules.Draw(source="discard")), fresh)


def test_a_game_copy_copies_every_slot() -> None:
    g = playout.new_fast_game("rummy51", 3, seed=b"slots")
    g.apply(g.turn, (playout.DRAW, playout.SRC_DISCARD))
    c = g.copy()
    name: str
    for name in playout.Game.__slots__:
        assert getattr(c, name) == getattr(g, name), name
        value = getattr(c, name)
        if isinstance(value, list):
            assert value is not getattr(g, name), name
    assert all(a is not b for a, b in zip(c.hands, g.hands, strict=True))
