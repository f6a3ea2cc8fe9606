"""A hand review: each of one seat's decisions judged by the hard bot from that seat's views.

`review_hand(steps, samples)` takes the hand as the seat lived it: every view it was shown, in
order, each with the seat's own move made from it (or None while others moved). Nothing else
goes in, so the review cannot teach with hindsight: the hands revealed at the end, the stock's
order and the other seats' cards are simply not there.

What a decision costs is measured in the hand's *net result* for the seat (`net_result`): its
points minus the mean of its opponents' points, or in a penalty variant the opponents' mean
penalty minus its own. For each own move the expert (with its memory of the earlier views)
picks its move; where that differs, both are played out over the same determinized samples of
what the seat could not see, for one round of turns, and each end is valued in that currency
(`net_value`): exactly, where the hand ended in the round, else by the expert's price of every
hand. The mean of the paired differences is the decision's `cost`, the change in the net
result the better move was worth from what the seat knew then, with `spread` its uncertainty
(one standard error of that mean): "about 12 points, ± 4". In a hand the seat won it is what
the better move would have added ("could have won 12 more"); it is an expectation over the
hand's possible courses, so it is not bounded by what this one course scored. The sample count
bounds the work and keeps a review reproducible: its random stream derives from the views'
versions, not from anything hidden. `bench/review.py --calibrate` checks what it is for:
following the hint gives almost no costly decision, random play many.
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
from rules.playout import Game

if TYPE_CHECKING:
    from collections.abc import Callable

    from rules import Move, SeatView

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
    cost: float  # the net result `better` was worth more than `move`, in points (0: none)
    reasons: dict[str, str]
    spread: float = 0.0  # the cost's uncertainty, in points (one standard error)


def net_result(points: Sequence[int], seat: int, penalty: bool) -> float:
    """A finished hand's net result for `seat`: its points minus the mean of its opponents';
    with `penalty` scoring (points against), the opponents' mean minus its own.

    >>> net_result([8, 0], 0, False), net_result([0, 8], 0, False)
    (8.0, -8.0)
    >>> net_result([0, 30, 12], 0, True), net_result([0, 30, 12], 1, True)
    (21.0, -24.0)
    """
    others = [p for s, p in enumerate(points) if s != seat]
    mean = sum(others) / max(1, len(others))
    return mean - points[seat] if penalty else points[seat] - mean


def net_value(g: Game, me: int, price: Callable[[Sequence[int]], float]) -> float:
    """A rollout's end in the currency of `net_result`, for seat `me`.

    `leaf_value` (the search's) is the opponents' mean price minus ours, a finished hand
    priced by what each seat pays, the winner's score counting for it. With penalty scoring
    that is the net result itself. Where the winner scores, every finished hand prices at
    twice it (the winner's gain counts for it and, paid, against each loser): halved, it is
    the net result, and an unfinished one's price difference halved is its expectation in
    a race either seat may win.
    """
    value = leaf_value(g, me, price)
    return value if g.r.penalty else value / 2


def paired_gain(
    know: Knowledge,
    made: Move,
    better: Move,
    rng: Random,
    price: Callable[[Sequence[int]], float],
    samples: int,
) -> tuple[float, float]:
    """How much `better` is worth more than `made` to the seat's net result, over `samples`
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
            values.append(net_value(g, me, price))
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


def review_hand(steps: Sequence[Step], samples: int = REVIEW_SAMPLES) -> list[Decision]:
    """Every own decision of `steps` with the hard bot's choice and what it was worth more
    to the seat's net result of the hand (its estimated `cost`)."""
    expert = ExpertStrategy(budget_ms=None, samples=CHOICE_SAMPLES)
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
        if gain - 2 * error <= 0:
            # Not better by two standard errors on these samples (one let noise through: a
            # hand of 10 points drew six "costly" decisions): the move made stands, at no cost.
            out.append(Decision(step.version, step.move, None, 0.0, explain(view, step.move)))
            continue
        reasons = _reasons(view, step.move, better)
        out.append(
            Decision(step.version, step.move, better, round(gain, 1), reasons, round(error, 1))
        )
    return out
