"""Engine benchmark: random complete hands per variant and player count, one core.

Each hand is dealt from a fixed seed and played by choosing uniformly among the legal moves
of the fast engine (`rules.fast`); a "move" is one `generate` (legal moves) plus one
`Game.apply`. Prints hands/s, moves/s and legal-move calls/s per "<variant>-<players>";
`--json` prints one JSON object with those figures instead. Rates are per second of this
process's CPU time (`time.process_time`), so other load on the machine skews them less.

    .venv/bin/python bench/engine.py [--seconds 2.0] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import fast  # noqa: E402
from rules.variants import VARIANTS  # noqa: E402


def run(variant: str, players: int, seconds: float) -> dict[str, float]:
    """Play random hands of one variant for about `seconds`; return the rates."""
    rng = random.Random(f"bench-{variant}-{players}")
    hands = moves = legal_calls = 0
    elapsed = 0.0
    seed_no = 0
    while elapsed < seconds:
        game = fast.new_fast_game(variant, players, seed=seed_no.to_bytes(8, "big"))
        seed_no += 1
        t0 = time.process_time()
        generate = fast.generate
        choice = rng.choice
        while game.phase < fast.HAND_OVER:
            seat = game.turn
            legal = generate(game, seat)
            game.apply(seat, choice(legal))
            moves += 1
        elapsed += time.process_time() - t0
        legal_calls = moves
        hands += 1
    return {
        "hands_per_s": round(hands / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
        "legal_calls_per_s": round(legal_calls / elapsed, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, float]] = {}
    for name, rs in VARIANTS.items():
        for players in range(rs.min_players, rs.max_players + 1):
            key = f"{name}-{players}"
            results[key] = run(name, players, args.seconds)
            if not args.json:
                r = results[key]
                print(
                    f"{key:10s} {r['hands_per_s']:9.1f} hands/s {r['moves_per_s']:10.1f} "
                    f"moves/s {r['legal_calls_per_s']:10.1f} legal_moves calls/s",
                    flush=True,
                )
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
