"""Replays of finished hands: each step's public table, and a hand's start rebuilt from its
published parts (a match record, docs/record.md).

A replay is only ever shown for a hand that is over, whose log already reveals every hand,
the stock and the seed: so a step shows every seat's cards (`hands`) beside the table as a
spectator saw it then (`view`). The browser draws these steps; it never moves a card itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.moves import Move
from rules.reducer import apply, new_game
from rules.state import Deal, GameState, LastMove
from rules.view import spectator_view
from rummy_wire.records import ReplayStep

__all__ = ["BLANK_SEED", "ReplayStep", "hand_from_deal", "replay_steps"]

# A hand's start published without the match seed (every later hand derives from it): the
# log blanks it the same way, and replaying a hand needs only the hand's own seed.
BLANK_SEED = "0" * 64
_HEX = frozenset("0123456789abcdef")


def _step(state: GameState, move: LastMove | None, version: int | None) -> ReplayStep:
    view = spectator_view(state)
    return ReplayStep(version=version, move=move, view=view, hands=state.hands)


def replay_steps(
    start: GameState,
    moves: Iterable[tuple[int, Move]],
    versions: Sequence[int | None] = (),
) -> tuple[ReplayStep, ...]:
    """One step per move from `start` (`rules.replay`'s arguments), the deal first.
    `versions[i]`, when given, is the room's version of move i.

    Raises:
        IllegalMove: a move does not fit the hand (the log or record was altered).
    """
    state = start
    steps = [_step(state, None, None)]
    for i, (seat, move) in enumerate(moves):
        state = apply(state, seat, move)
        steps.append(_step(state, state.last_move, versions[i] if i < len(versions) else None))
    return tuple(steps)


def hand_from_deal(
    variant: str,
    players: int,
    *,
    deal: Deal,
    hand_seed: str,
    dealer: int,
    scores: Sequence[int],
    limit: int | None = None,
    hand_number: int = 1,
) -> GameState:
    """A hand as dealt, from what a match record publishes of it: the deal, the hand's
    seed (stock reshuffles during the hand derive from it), the dealer (the seat on their
    left plays first) and the scores before it.

    Raises:
        KeyError: unknown variant.
        InvalidSetup: players or limit outside the variant's range.
        InvalidDeal: a deal that is not exactly the variant's pack.
        ValueError: a seed that is not 32 bytes of hex, a dealer or scores that do not fit.
    """
    seed = hand_seed.lower()
    if len(seed) != 64 or not set(seed) <= _HEX:
        raise ValueError("a hand seed is 64 hex digits")
    if not 0 <= dealer < players or len(scores) != players:
        raise ValueError(f"dealer and scores must fit {players} players")
    dealt = new_game(variant, players, seed=bytes.fromhex(seed), deal=deal, limit=limit)
    fields = dealt.model_dump()
    fields.update(
        seed=BLANK_SEED,
        hand_seed=seed,
        fixed_deal=None,
        dealer=dealer,
        turn=(dealer + 1) % players,
        scores=tuple(scores),
        hand_number=hand_number,
    )
    # Validated afresh: the engine behind `dealt` was made for other fields.
    return GameState.model_validate(fields)
