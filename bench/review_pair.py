"""`bench/review.py`'s time to ready, this checkout against another, on CPU time.

Each round runs, for each checkout in turn (the order turned round every round), a fresh
process that imports that checkout's `rules`, `bots` and `bench/review.py` and reviews the
same hands as `bench/review.py` does (greedy hands from fixed seeds, each reviewed for a seat
that lost it), timing every review on the process's CPU clock (`time.process_time`), which
other load on the machine skews less than the wall clock `review.py` prints. It also hashes
every review's decisions, so that the two checkouts can be seen to judge alike. Prints each
round's median and total CPU per review and the medians of the round-by-round ratios.

    .venv/bin/python bench/review_pair.py --tree /path/to/older/checkout [--rounds 3] \
        [--hands 20] [--variant rummy51] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNIPPET = """
import hashlib, json, statistics, sys, time
sys.path[:0] = [{tree!r}, {bench!r}]
import review
times, h = [], hashlib.sha256()
for seed in range({hands}):
    hand = review.played_hand({variant!r}, {players}, seed)
    seat = next(s for s in range({players}) if s != hand.result.winner)
    steps = review.steps_of(hand, seat)
    began = time.process_time()
    decisions = review.review_hand(steps, stake=review.stake_of(hand.result))
    times.append(time.process_time() - began)
    h.update(repr([(d.cost, d.spread, d.capped, d.better) for d in decisions]).encode())
out = {{"median": statistics.median(times), "total": sum(times), "hash": h.hexdigest()}}
print(json.dumps(out))
"""


def one_run(tree: Path, args: argparse.Namespace) -> dict[str, float | str]:
    code = SNIPPET.format(
        tree=str(tree),
        bench=str(tree / "bench"),
        hands=args.hands,
        variant=args.variant,
        players=args.players,
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=tree
    ).stdout
    result: dict[str, float | str] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--variant", default="rummy51")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    trees = {"ours": ROOT, "tree": args.tree.resolve()}
    runs: dict[str, list[dict[str, float | str]]] = {name: [] for name in trees}
    for rnd in range(args.rounds):
        for name in list(trees)[:: 1 if rnd % 2 == 0 else -1]:
            r = one_run(trees[name], args)
            runs[name].append(r)
            print(
                f"round {rnd + 1} {name}: median {float(r['median']) * 1000:.0f} ms, total "
                f"{float(r['total']):.2f} s of CPU, decisions {str(r['hash'])[:12]}",
                flush=True,
            )
    for key in ("median", "total"):
        pairs = zip(runs["ours"], runs["tree"], strict=True)
        ratios = [float(a[key]) / float(b[key]) for a, b in pairs]
        rounds = " ".join(f"{x:.2f}" for x in ratios)
        print(f"ours/tree {key} CPU per review: {statistics.median(ratios):.2f}x ({rounds})")
    same = {r["hash"] for rs in runs.values() for r in rs}
    print("the same decisions in every run" if len(same) == 1 else "DECISIONS DIFFER")


if __name__ == "__main__":
    main()
