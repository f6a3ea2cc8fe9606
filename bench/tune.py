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

from bots.tournament import parse_settings, run


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
    players = [p.strip() for p in args.players.split(",")]
    summary = run(args.variant, players, args.matches, args.seed, jobs=args.jobs, settings=settings)
    me, *others = summary.values()
    opp_hands = sum(o["hands"] for o in others)
    opp = sum(o["mean_points_per_hand"] * o["hands"] for o in others) / max(1, opp_hands)
    out = {
        "tag": args.tag,
        "settings": settings,
        "variant": args.variant,
        "players": list(summary),
        "matches": args.matches,
        "win_rate": round(me["win_rate"], 4),
        "ci95": [round(x, 3) for x in me["ci95"]],
        "hands": me["hands"],
        "hands_won_rate": round(me["hands_won"] / max(1, me["hands"]), 4),
        "points_per_hand": round(me["mean_points_per_hand"], 3),
        "margin_per_hand": round(me["mean_points_per_hand"] - opp, 3),
    }
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
