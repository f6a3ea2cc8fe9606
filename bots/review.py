"""A hand review: each of one seat's decisions judged by the hard bot from that seat's views.

`review_hand(steps, samples)` takes the hand as the seat lived it: every view it was shown, in
order, each with the seat's own move made from it (or None while others moved). Nothing else
goes in, so the review cannot teach with hindsight: the hands revealed at the end, the stock's
order and the other seats' cards are simply not there.

For each own move the expert (with its memory of the earlier views) picks its move; where that
differs, both are played out over the same determinized samples and the mean of the paired
differences, in points, is the decision's `cost`, with `spread` its uncertainty (one standard
error of that mean): "about 12 points, ± 4". A cost is never more than the points at stake in
the hand (`stake_of`, known once the hand is over): no single decision can cost more than the
hand was worth. An estimate above the stake is `capped`: its cost is the whole stake. The
sample count bounds the work and keeps a review reproducible: its random stream derives from
the views' versions, not from anything hidden.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from bots.expert import ExpertStrategy
from bots.explain import explain
from bots.knowledge import Knowledge
from bots.rollout import play_out
from bots.search import leaf_value, sample_game
from rules import legal_moves, playout

if TYPE_CHECKING:
    from collections.abc import Callable

    from rules import HandResult, Move, SeatView

# Samples of the hidden cards for the expert's own choice, and for the cost of a move that
# differs from it (paired: both moves are played out on the same samples).
CHOICE_SAMPLES = 6
REVIEW_SAMPLES = 16


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
    spread: float = 0.0  # the cost's uncertainty, in points (one standard error)
    # The estimate was above the hand's points at stake: `cost` is the stake, all of it, and
    # there is no spread to show (clamping an estimate of 15 ± 7 to "1 ± 1" says nothing).
    capped: bool = False


def stake_of(result: HandResult) -> int:
    """The points at stake in a finished hand: the most any seat scored or paid in it."""
    return max((abs(p) for p in result.points), default=0)


def paired_gain(
    know: Knowledge,
    made: Move,
    better: Move,
    rng: Random,
    price: Callable[[Sequence[int]], float],
    samples: int,
) -> tuple[float, float]:
    """How many points `better` is worth more than `made` to the seat, over `samples`
    determinized deals of what it cannot see: (mean, standard error of the mean)."""
    me, lines = know.me, (playout.to_fast_move(made), playout.to_fast_move(better))
    gains: list[float] = []
    tries = 0
    while len(gains) < samples and tries < 2 * samples:
        tries += 1
        base = sample_game(know, rng)
        if base is None:
            continue
        values = []
        for move in lines:
            g = base.copy()
            g.apply(me, move)
            play_out(g, know.view.players)
            values.append(leaf_value(g, me, price))
        gains.append(values[1] - values[0])
    if len(gains) < 2:
        return 0.0, 0.0
    mean = sum(gains) / len(gains)
    var = sum((x - mean) ** 2 for x in gains) / (len(gains) - 1)
    return mean, math.sqrt(var / len(gains))


def _reasons(view: SeatView, made: Move, better: Move) -> dict[str, str]:
    """This decision's own words: what was played, what the better move does and why."""
    # The move made by what it did only (its own "why" argued for it); the better one in full.
    did, do = explain(view, made), explain(view, better)
    what = {lang: text.split(":")[0] for lang, text in did.items()}
    return {
        "en": f"You chose to {what['en']}. Better: {do['en']}.",
        "nl": f"Je koos: {what['nl']}. Beter: {do['nl']}.",
    }


def review_hand(
    steps: Sequence[Step], samples: int = REVIEW_SAMPLES, stake: int | None = None
) -> list[Decision]:
    """Every own decision of `steps` with the hard bot's choice and its estimated cost,
    each cost and its spread at most `stake` (the hand's points at stake) when given."""
    expert = ExpertStrategy(budget_ms=None, samples=CHOICE_SAMPLES)
    cap = math.inf if stake is None else float(stake)
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
        know = Knowledge(view, expert.book.get(view), playout.fast_rules(view.variant))
        price = expert.evaluation(view, know).cost
        gain, error = paired_gain(know, step.move, better, rng, price, samples)
        if gain - 2 * error <= 0 or cap == 0:
            # Not better by two standard errors on these samples (one let noise through: a
            # hand of 10 points drew six "costly" decisions), or nothing was at stake: the move made
            # stands, at no cost.
            out.append(Decision(step.version, step.move, None, 0.0, explain(view, step.move)))
            continue
        capped = gain > cap
        out.append(
            Decision(
                step.version,
                step.move,
                better,
                cap if capped else round(gain, 1),
                _reasons(view, step.move, better),
                # Uncapped, the error is under half the gain, so under the stake too.
                0.0 if capped else round(error, 1),
                capped,
            )
        )
    return out
