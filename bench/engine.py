"""Engine benchmark: random complete hands per variant and player count, one core.

Each hand is dealt from a fixed seed and played by choosing uniformly among the legal moves
of the fast engine (`rules.playout`); a "move" is one `generate` (legal moves) plus one
`Game.apply`. Prints hands/s, moves/s and legal-move calls/s (`generate` alone) per
"<variant>-<players>"; `--json` prints one JSON object with those figures instead. Rates
are per second of this process's CPU time (`time.process_time`), so other load on the
machine skews them less.

    .venv/bin/python bench/engine.py [--seconds 2.0] [--json] [--api]

`--api` plays through the public pydantic API instead (`rules.seat_view` +
`rules.legal_moves` + `rules.apply` per move): what the server and bots pay per move. Each
state comes from `rules.apply` and so carries its engine `Game`, as a live room's state does
in the server's snapshot cache (a state decoded from JSON pays one conversion first).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from rules import playout  # noqa: E402
from rules.variants import VARIANTS  # noqa: E402


def run(variant: str, players: int, seconds: float) -> dict[str, float]:
    """Play random hands of one variant for about `seconds`; return the rates.

    hands/s and moves/s time whole hands (each move: `generate` + `Game.apply`).
    legal_moves calls/s times `generate` alone, over positions saved from a replay of the
    first hands (the saving is not timed).
    """
    rng = random.Random(f"bench-{variant}-{players}")
    hands = moves = 0
    elapsed = 0.0
    seed_no = 0
    generate = playout.generate
    choice = rng.choice
    while elapsed < seconds:
        game = playout.new_fast_game(variant, players, seed=seed_no.to_bytes(8, "big"))
        seed_no += 1
        t0 = time.process_time()
        while game.phase < playout.HAND_OVER:
            seat = game.turn
            game.apply(seat, choice(generate(game, seat)))
            moves += 1
        elapsed += time.process_time() - t0
        hands += 1
    legal_calls = 0
    legal_time = 0.0
    pick = random.Random(f"legal-{variant}-{players}")
    for n in range(seed_no):
        if legal_time >= seconds / 4:
            break
        game = playout.new_fast_game(variant, players, seed=n.to_bytes(8, "big"))
        positions = []
        while game.phase < playout.HAND_OVER:
            positions.append(game.copy())
            game.apply(game.turn, pick.choice(generate(game, game.turn)))
        t0 = time.process_time()
        for pos in positions:
            generate(pos, pos.turn)
        legal_time += time.process_time() - t0
        legal_calls += len(positions)
    return {
        "hands_per_s": round(hands / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
        "legal_calls_per_s": round(legal_calls / legal_time, 1),
    }


def run_api(variant: str, players: int, seconds: float) -> dict[str, float]:
    """Like `run`, through the public pydantic API (a seat view per move)."""
    rng = random.Random(f"bench-{variant}-{players}")
    hands = moves = 0
    elapsed = 0.0
    seed_no = 0
    while elapsed < seconds:
        state = rules.new_game(variant, players, seed=seed_no.to_bytes(8, "big"))
        seed_no += 1
        t0 = time.process_time()
        while state.phase in ("draw", "play"):
            seat = state.turn
            legal = list(rules.legal_moves(rules.seat_view(state, seat)))
            state = rules.apply(state, seat, rng.choice(legal))
            moves += 1
        elapsed += time.process_time() - t0
        hands += 1
    return {
        "hands_per_s": round(hands / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
        "legal_calls_per_s": round(moves / elapsed, 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--api", action="store_true", help="through the pydantic API")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, float]] = {}
    for name, rs in VARIANTS.items():
        for players in range(rs.min_players, rs.max_players + 1):
            key = f"{name}-{players}"
            results[key] = (run_api if args.api else run)(name, players, args.seconds)
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
