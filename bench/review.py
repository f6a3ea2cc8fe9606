"""Hand review benchmark: 20 finished hands (greedy bots, fixed seeds), each reviewed for the
seat that lost it, as the server reviews a hand (`app.reviews`: the seat's views, then
`bots.review.review_hand` in one process).

Prints each hand's decisions with a cost (`cost ± uncertainty`, or `all N` where the estimate
was above the hand's N points at stake and capped to them), the points at stake in the
hand, the time from request to ready (steps built + review, wall clock), and at the end the
median and max of those times and whether any cost exceeded its hand's points at stake.
Run it on a quiet machine; the goal is a median and a max under 2 s.

    .venv/bin/python bench/review.py [--hands 20] [--variant classic] [--players 2]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from app.turns.reviews import steps_of  # noqa: E402
from app.views import LogHand, LogMove  # noqa: E402
from bots.greedy import GreedyStrategy  # noqa: E402
from bots.review import review_hand, stake_of  # noqa: E402


def played_hand(variant: str, players: int, seed: int) -> LogHand:
    """One hand of greedy bots from a fixed seed, as the room log would hold it."""
    digest = hashlib.sha256(f"bench-review:{seed}".encode()).digest()
    start = rules.new_game(variant, players, seed=digest)
    state, bot = start, GreedyStrategy()
    moves: list[LogMove] = []
    while state.phase in ("draw", "play"):
        view = rules.seat_view(state, state.turn)
        move = bot.choose(view, list(rules.legal_moves(view)), Random(len(moves)))
        moves.append(LogMove(version=len(moves) + 1, seat=state.turn, move=move))
        state = rules.apply(state, state.turn, move)
    assert state.hand_result is not None
    return LogHand(
        hand=0,
        start_version=0,
        end_version=len(moves),
        start=start,
        moves=moves,
        votes=[],
        result=state.hand_result,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    times, over = [], 0
    for seed in range(args.hands):
        hand = played_hand(args.variant, args.players, seed)
        result = hand.result
        assert result is not None
        seat = next(s for s in range(args.players) if s != result.winner)
        began = time.perf_counter()
        decisions = review_hand(steps_of(hand, seat), stake=stake_of(result))
        took = time.perf_counter() - began
        times.append(took)
        stake = stake_of(result)
        costs = [
            f"all {d.cost:g}" if d.capped else f"{d.cost:g}±{d.spread:g}"
            for d in decisions
            if d.better is not None
        ]
        over += sum(d.cost > stake for d in decisions)
        print(f"hand {seed:2}: seat {seat}, stake {stake:3}, {took:5.2f} s, costs {costs}")
    print(f"time to ready: median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    print(f"costs above the points at stake: {over}")


if __name__ == "__main__":
    main()
