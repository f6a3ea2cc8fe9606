"""The engine benchmark's anchor: OpenSpiel's gin_rummy (C++) driven from Python with
uniformly random legal actions, every game from a clone of one initial state.

Runs in a venv of its own that holds `open-spiel` (`bench/vs_openspiel.py` makes it); it
imports nothing of this project. Each game is `root.clone()`, then until the game ends: at a
chance node (the deal, each stock draw) an outcome sampled by its probability
(`pyspiel.sample_action`), else one of `legal_actions()` chosen uniformly. A decision is one
non-chance action. Rates are per second of this process's CPU time (`time.process_time`),
counting whole games, the clone and the chance nodes included.

    .venv-openspiel/bin/python bench/openspiel_gin.py [--seconds 2.0] [--json]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import time

import pyspiel  # type: ignore[import-not-found]  # only in .venv-openspiel


def run(seconds: float, seed: int = 1) -> dict[str, float | str]:
    """Play random games of gin_rummy for about `seconds` of CPU; return the rates."""
    game = pyspiel.load_game("gin_rummy")
    root = game.new_initial_state()
    rng = random.Random(seed)
    choice, uniform, sample = rng.choice, rng.random, pyspiel.sample_action
    games = decisions = 0
    elapsed = 0.0
    while elapsed < seconds:
        t0 = time.process_time()
        for _ in range(20):
            state = root.clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample(state.chance_outcomes(), uniform())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
            games += 1
        elapsed += time.process_time() - t0
    return {
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_game": round(decisions / games, 1),
        "open_spiel": importlib.metadata.version("open-spiel"),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    r = run(args.seconds, args.seed)
    if args.json:
        print(json.dumps(r))
    else:
        print(
            f"gin_rummy  {r['games_per_s']:9.1f} games/s {r['decisions_per_s']:10.1f} "
            f"decisions/s ({r['decisions_per_game']} a game)"
        )


if __name__ == "__main__":
    main()
