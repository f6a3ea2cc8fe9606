"""Tune the expert: its match and hand results against other bots with chosen settings.

Match win rates are noisy (a match is a handful of hands); the figures to tune on are the
per-hand ones over the same deals: hands won and the points margin per hand over the others
(classic/basic: points scored, higher is better; rummy51: penalty points, lower is better).

    python bench/tune.py --variant rummy51 --players expert,greedy,greedy,greedy \
        --matches 300 --seed 5 --set tempo=24 --set samples=8

`--set key=value` passes a keyword to `ExpertStrategy` (numbers, true/false, none); the
samples default to the tournament's. Deterministic for a seed, like `rummy tournament`.
From a git worktree, run it with PYTHONPATH=. so the worktree's `bots` is the one imported.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bots.strategy import Strategy
from bots.tournament import (
    PlayerStats,
    labels_for,
    parse_settings,
    play_match,
    tuned_strategy,
    wilson,
)


def _chunk(args: tuple[str, tuple[str, ...], int, list[int], dict[str, Any]]) -> list[PlayerStats]:
    variant, players, seed, indices, settings = args

    def factory(name: str) -> Strategy:
        return tuned_strategy(name, settings)

    total = [PlayerStats() for _ in players]
    for i in indices:
        for t, s in zip(total, play_match(variant, players, seed, i, factory), strict=True):
            t.merge(s)
    return total


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--players", default="expert,greedy")
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], help="key=value for ExpertStrategy")
    ap.add_argument("--tag", default="")
    args = ap.parse_args()
    settings = parse_settings(args.set)
    players = tuple(p.strip() for p in args.players.split(","))
    chunks = [list(range(i, min(args.matches, i + 5))) for i in range(0, args.matches, 5)]
    total = [PlayerStats() for _ in players]
    work = [(args.variant, players, args.seed, c, settings) for c in chunks]
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(_chunk, work):
            for t, s in zip(total, part, strict=True):
                t.merge(s)
    labels = labels_for(players)
    me = total[0]
    others = total[1:]
    pph = me.points / max(1, me.hands)
    opp = sum(o.points for o in others) / max(1, sum(o.hands for o in others))
    lo, hi = wilson(me.matches_won, args.matches)
    out = {
        "tag": args.tag,
        "settings": settings,
        "variant": args.variant,
        "players": labels,
        "matches": args.matches,
        "win_rate": round(me.matches_won / args.matches, 4),
        "ci95": [round(lo, 3), round(hi, 3)],
        "hands": me.hands,
        "hands_won_rate": round(me.hands_won / max(1, me.hands), 4),
        "points_per_hand": round(pph, 3),
        "margin_per_hand": round(pph - opp, 3),
    }
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
