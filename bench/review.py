"""Hand review benchmark, in two modes.

Time to ready (the default): 20 finished hands (greedy bots, fixed seeds), each reviewed for
the seat that lost it, as the server reviews a hand (`app.turns.reviews`: the seat's views,
then `bots.review.review_hand` in one process). Prints each hand's net result for that seat
and its costly decisions (`cost ± uncertainty`, in points of the net result), the time from
request to ready (steps built + review, wall clock), and at the end the median and max of
those times. Run it on a quiet machine; the goal is a median and a max under 2 s.

    .venv/bin/python bench/review.py [--hands 20] [--variant classic] [--players 2]

Calibration (`--calibrate`): what the review is for. Per variant, the same deals are played
twice by seat 0 against greedy bots (the lobby's "medium"): once following the hint (the hard
bot's move, as `GET /hint` gives it, bounded by samples so a seed reproduces it) and once
choosing uniformly among the legal moves; each hand is reviewed for seat 0. It prints the
costly decisions per hand of each (those the page lists: a better move worth more than zero),
their mean cost and the decisions per hand. Following the hint must stay near 0 costly
decisions per hand, random play far above it.

    .venv/bin/python bench/review.py --calibrate [--hands 12] [--variant classic --players 2]
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
from app.turns.reviews import outcome, steps_of  # noqa: E402
from app.views import LogHand, LogMove  # noqa: E402
from bots.expert import ExpertStrategy  # noqa: E402
from bots.greedy import GreedyStrategy  # noqa: E402
from bots.random_bot import RandomStrategy  # noqa: E402
from bots.review import Decision, review_hand  # noqa: E402
from bots.strategy import Strategy  # noqa: E402

# The players of each variant's calibration: classic is for two; basic and rummy51 are
# mostly played by three or four, whose hands are longer (and random play's far longer).
CALIBRATION_PLAYERS = {"classic": 2, "basic": 3, "rummy51": 3}
# The hint's samples: the server's hint searches for up to 150 ms (bots.SERVER_BUDGET_MS),
# which on this machine is about this many; bounded by samples, a seed reproduces it.
HINT_SAMPLES = 24
# A hand of random play may never end on its own before rules' safety limit: cut it there.
MAX_MOVES = 3000


def played_hand(
    variant: str, players: int, seed: int, seat0: Strategy | None = None, tag: str = "bench-review"
) -> LogHand:
    """One hand from a fixed seed, as the room log would hold it: seat 0 plays `seat0`
    (greedy when None), every other seat greedy."""
    digest = hashlib.sha256(f"{tag}:{seed}".encode()).digest()
    start = rules.new_game(variant, players, seed=digest)
    state, greedy = start, GreedyStrategy()
    rng = Random(seed)
    moves: list[LogMove] = []
    while state.phase in ("draw", "play") and len(moves) < MAX_MOVES:
        view = rules.seat_view(state, state.turn)
        bot = seat0 if seat0 is not None and state.turn == 0 else greedy
        move = bot.choose(view, list(rules.legal_moves(view)), rng)
        moves.append(LogMove(version=len(moves) + 1, seat=state.turn, move=move))
        state = rules.apply(state, state.turn, move)
    return LogHand(
        hand=0,
        start_version=0,
        end_version=len(moves),
        start=start,
        moves=moves,
        votes=[],
        result=state.hand_result,
    )


def costly(decisions: list[Decision]) -> list[Decision]:
    """The decisions the page lists: a better move worth more than the one made."""
    return [d for d in decisions if d.better is not None and d.cost > 0]


def time_to_ready(args: argparse.Namespace) -> None:
    times = []
    for seed in range(args.hands):
        hand = played_hand(args.variant, args.players, seed)
        result = hand.result
        assert result is not None
        seat = next(s for s in range(args.players) if s != result.winner)
        began = time.perf_counter()
        decisions = review_hand(steps_of(hand, seat))
        took = time.perf_counter() - began
        times.append(took)
        net = outcome(hand, seat)["net"]
        costs = [f"{d.cost:g}±{d.spread:g}" for d in costly(decisions)]
        print(f"hand {seed:2}: seat {seat}, net {net:+6.1f}, {took:5.2f} s, costs {costs}")
    print(f"time to ready: median {statistics.median(times):.2f} s, max {max(times):.2f} s")


def calibrate_one(variant: str, players: int, hands: int) -> None:
    rows = {}
    for name in ("hint", "random"):
        found, costs, decided, took = 0, [], 0, 0.0
        for seed in range(hands):
            seat0: Strategy = (
                ExpertStrategy(budget_ms=None, samples=HINT_SAMPLES)
                if name == "hint"
                else RandomStrategy()
            )
            hand = played_hand(variant, players, seed, seat0, tag=f"calibrate-{variant}")
            began = time.perf_counter()
            decisions = review_hand(steps_of(hand, 0))
            took += time.perf_counter() - began
            listed = costly(decisions)
            found += len(listed)
            costs += [d.cost for d in listed]
            decided += len(decisions)
        mean = statistics.mean(costs) if costs else 0.0
        rows[name] = found / hands
        print(
            f"{variant:8} {players}p {name:6}: {found / hands:5.2f} costly decisions a hand "
            f"(mean cost {mean:4.1f}), {decided / hands:5.1f} decisions a hand, "
            f"review {took / hands:4.2f} s a hand"
        )
    ratio = rows["random"] / rows["hint"] if rows["hint"] else float("inf")
    print(f"{variant:8} {players}p random/hint: {ratio:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="hint-following vs random")
    parser.add_argument("--hands", type=int, default=None, help="20; calibrating: 12")
    parser.add_argument("--variant", default=None, help="classic; calibrating: all three")
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    if not args.calibrate:
        args.hands = args.hands or 20
        args.variant = args.variant or "classic"
        args.players = args.players or 2
        time_to_ready(args)
        return
    variants = [args.variant] if args.variant else list(CALIBRATION_PLAYERS)
    for variant in variants:
        players = args.players or CALIBRATION_PLAYERS.get(variant, 2)
        calibrate_one(variant, players, args.hands or 12)


if __name__ == "__main__":
    main()
