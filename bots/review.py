"""A hand review: each of one seat's decisions judged by the hard bot from that seat's views.

`review_hand(steps, samples)` takes the hand as the seat lived it: every view it was shown, in
order, each with the seat's own move made from it (or None while others moved). Nothing else
goes in, so the review cannot teach with hindsight: the hands revealed at the end, the stock's
order and the other seats' cards are simply not there.

For each own move the expert (with its memory of the earlier views) picks its move; where that
differs, both are played out over the same determinized samples (`bots.search`) and the gap in
their values, in points, is the decision's `cost`. The sample count bounds the work and keeps a
review reproducible: its random stream derives from the views' versions, not from anything
hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from bots.expert import ExpertStrategy
from bots.explain import explain
from bots.knowledge import Knowledge
from bots.search import evaluate
from rules import legal_moves, playout

if TYPE_CHECKING:
    from rules import Move, SeatView

REVIEW_SAMPLES = 12


@dataclass(frozen=True)
class Step:
    """One view the seat was shown, and its own move from it (None: another seat moved)."""

    version: int
    view: SeatView
    move: Move | None


@dataclass(frozen=True)
class Decision:
    version: int
    move: Move
    better: Move | None
    cost: float
    reasons: dict[str, str]


def review_hand(steps: Sequence[Step], samples: int = REVIEW_SAMPLES) -> list[Decision]:
    """Every own decision of `steps` with the hard bot's choice and its estimated cost."""
    expert = ExpertStrategy(budget_ms=None, samples=samples)
    out: list[Decision] = []
    for step in steps:
        view = step.view
        expert.observe(view)
        if step.move is None:
            continue
        legal = list(legal_moves(view))
        rng = Random(f"review:{view.hand_number}:{step.version}")
        better = expert.suggest(view, legal, rng)
        if better == step.move or len(legal) < 2:
            out.append(Decision(step.version, step.move, None, 0.0, explain(view, step.move)))
            continue
        memory = expert.book.get(view)
        know = Knowledge(view, memory, playout.fast_rules(view.variant))
        ev = expert.evaluation(view, know)
        lines = [[playout.to_fast_move(step.move)], [playout.to_fast_move(better)]]
        values, used = evaluate(know, lines, rng, ev.cost, samples=samples, horizon=view.players)
        cost = max(0.0, values[1] - values[0]) if used else 0.0
        out.append(Decision(step.version, step.move, better, round(cost, 1), explain(view, better)))
    return out
