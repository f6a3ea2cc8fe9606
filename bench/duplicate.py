"""Duplicate hands: every deal played once with the tested bot in each seat, the field in the
others, so the luck of the deal cancels out of the comparison.

A match's win rate mixes the bots' play with the luck of a handful of deals, and two settings
of the expert meet different hands once their matches diverge (a rummy51 match ends when
someone passes the limit): 100-match runs of one setting at two sample counts differed by ten
points of hands won. Here deal `d` (from `--seed` and `d`) is the first hand of a new match,
played `n` times, the tested bot sitting in seat 0, 1, ... in turn; every bot's random stream
derives from (seed, deal, seat). Two settings meet the very same deals in the very same seats,
so their difference is measured on paired hands (`--against` prints it with its 95% CI).

    python bench/duplicate.py --variant rummy51 --players expert,greedy,greedy,greedy \
        --deals 200 --set samples=16 --against samples=8

Prints, per setting: hands won (share of the `deals * n` hands, where a fair share is 1/n),
mean points per hand (penalty points in rummy51: lower is better) and the mean margin over the
field. `--set key=value` passes a keyword to `ExpertStrategy` for the tested (first) player.
Deterministic for a seed and any `--jobs`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

import rules
from bots.tournament import parse_settings, play_turn, tuned_strategy

Settings = dict[str, Any]
Watch = Callable[[rules.GameState, int, rules.GameState], None]


def _deal_seed(seed: int, deal: int) -> bytes:
    return hashlib.sha256(f"rummy-duplicate:{seed}:{deal}".encode()).digest()


def play_hand(
    variant: str,
    players: list[str],
    seed: int,
    deal: int,
    hero: int,
    settings: Settings,
    watch: Watch | None = None,
) -> tuple[bool, int, float]:
    """Deal `deal` with `players[0]` in seat `hero` and the others after it in order.

    `watch(before, seat, after)`, if given, sees every move's states (`bench/race.py`).
    Returns (the hero went out, the hero's points, the field's mean points)."""
    n = len(players)
    names = [players[(s - hero) % n] for s in range(n)]
    bots = [tuned_strategy(name, settings if s == hero else {}) for s, name in enumerate(names)]
    rngs = [Random(f"{seed}:{deal}:{s}") for s in range(n)]
    state = rules.new_game(variant, n, seed=_deal_seed(seed, deal))
    while True:
        public = rules.seat_view(state, 0)
        if public.phase in ("hand_over", "match_over"):
            result = public.hand_result
            assert result is not None
            won = result.winner == hero and result.reason == "out"
            field = [p for s, p in enumerate(result.points) if s != hero]
            return won, result.points[hero], sum(field) / len(field)
        seat = public.turn
        before = state
        state, _ = play_turn(state, seat, bots, rngs[seat])
        if watch is not None:
            watch(before, seat, state)


def _deal(
    args: tuple[str, list[str], int, int, list[Settings]],
) -> list[list[tuple[bool, int, float]]]:
    variant, players, seed, deal, configs = args
    n = len(players)
    return [
        [play_hand(variant, players, seed, deal, hero, cfg) for hero in range(n)] for cfg in configs
    ]


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def deal_arguments(description: str) -> argparse.ArgumentParser:
    """A parser with the arguments that choose the deals and the players (`bench/race.py`
    plays the same deals)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--variant", default="rummy51")
    ap.add_argument("--players", default="expert,greedy,greedy,greedy")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], help="key=value for the tested expert")
    return ap


def main() -> int:
    ap = deal_arguments(__doc__.split("\n\n")[0])
    ap.add_argument(
        "--against",
        action="append",
        default=None,
        help="key=value (repeatable): a second setting played on the same deals and seats",
    )
    ap.add_argument("--save", help="write every hand's outcome here (JSON), to pair later runs")
    ap.add_argument("--pair", help="a file --save wrote (same deals): print the difference")
    args = ap.parse_args()
    players = [p.strip() for p in args.players.split(",")]
    configs = [parse_settings(args.set)]
    if args.against is not None:
        configs.append(parse_settings([a for a in args.against if a]))
    work = [(args.variant, players, args.seed, d, configs) for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        per_deal = list(pool.map(_deal, work))
    n = len(players)
    won, margin = _outcomes(args.variant, per_deal, len(configs))
    for c, cfg in enumerate(configs):
        w, w_ci = _mean_ci(won[c])
        m, m_ci = _mean_ci(margin[c])
        print(
            json.dumps(
                {
                    "variant": args.variant,
                    "players": players,
                    "settings": cfg,
                    "hands": len(won[c]),
                    "fair_share": round(1 / n, 4),
                    "hands_won": round(w, 4),
                    "hands_won_ci95": round(w_ci, 4),
                    "margin_per_hand": round(m, 3),
                    "margin_ci95": round(m_ci, 3),
                }
            ),
            flush=True,
        )
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"won": won[0], "margin": margin[0], "settings": configs[0]}, f)
    if len(configs) == 2:
        _print_pair("set minus against", won, margin)
    if args.pair:
        with open(args.pair) as f:
            other = json.load(f)
        k = min(len(won[0]), len(other["won"]))
        _print_pair(
            f"set minus {other['settings']}",
            [won[0][:k], other["won"][:k]],
            [margin[0][:k], other["margin"][:k]],
        )
    return 0


def _outcomes(
    variant: str, per_deal: list[Any], settings: int
) -> tuple[list[list[float]], list[list[float]]]:
    """Per setting: each hand won (1.0) or not, and its margin (better is positive: fewer
    penalty points, or more points scored, than the field)."""
    penalty = rules.playout.fast_rules(variant).penalty
    won: list[list[float]] = [[] for _ in range(settings)]
    margin: list[list[float]] = [[] for _ in range(settings)]
    for deal in per_deal:
        for c, hands in enumerate(deal):
            for went_out, pts, field in hands:
                won[c].append(1.0 if went_out else 0.0)
                margin[c].append(field - pts if penalty else pts - field)
    return won, margin


def _print_pair(label: str, won: list[list[float]], margin: list[list[float]]) -> None:
    dw, dw_ci = _mean_ci([a - b for a, b in zip(won[0], won[1], strict=True)])
    dm, dm_ci = _mean_ci([a - b for a, b in zip(margin[0], margin[1], strict=True)])
    print(
        json.dumps(
            {
                "paired_difference": label,
                "hands": len(won[0]),
                "hands_won": round(dw, 4),
                "hands_won_ci95": round(dw_ci, 4),
                "margin_per_hand": round(dm, 3),
                "margin_ci95": round(dm_ci, 3),
            }
        )
    )


if __name__ == "__main__":
    sys.exit(main())
