"""The fast engine against its anchor, OpenSpiel's gin_rummy, side by side on CPU time.

For every variant and player count, each round runs `bench/openspiel_gin.py` (random
gin_rummy from a cloned start, decisions per CPU-second) and `bench/engine.py`'s `run` (the
figures `engine.py --json` prints: random hands of the fast engine, moves per CPU-second)
one right after the other, each in a fresh process, the order turned round every round so
that a machine speeding up or slowing down favours neither. It prints each round's ratio
(our moves/s over OpenSpiel's decisions/s) and the medians. `--tree DIR` adds the engine of
another checkout (a `git worktree` of an older commit) to the same interleaving: a
before/after ratio in one run. `--api --tree DIR` compares the two checkouts' `engine.py
--api` figures (moves through the pydantic API) the same way, without OpenSpiel.

OpenSpiel is installed, the first time, into a venv of its own (`.venv-openspiel` at the
top of the tree, git-ignored; never part of `make run`): `open-spiel` 2.0.2 from PyPI.

    .venv/bin/python bench/vs_openspiel.py [--rounds 3] [--seconds 2.0] \
        [--only rummy51-4 ...] [--tree /path/to/older/checkout] [--api] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = ROOT / ".venv-openspiel"
OPEN_SPIEL = "open-spiel==2.0.2"
CONFIGS = ("classic-2", "basic-2", "basic-3", "basic-4", "rummy51-2", "rummy51-3", "rummy51-4")
# `engine.run` of a tree, in a process whose path puts that tree first.
ENGINE_SNIPPET = (
    "import json, sys; sys.path.insert(0, {bench!r}); import engine; "
    "print(json.dumps(engine.{run}({variant!r}, {players}, {seconds})))"
)


def openspiel_python() -> Path:
    """The anchor's interpreter, made (venv + open-spiel) if it is not there yet."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"installing {OPEN_SPIEL} into {VENV} ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, OPEN_SPIEL], check=True)
    return python


def anchor(python: Path, seconds: float) -> float:
    """OpenSpiel's decisions per CPU-second, from a fresh process."""
    out = subprocess.run(
        [str(python), str(HERE / "openspiel_gin.py"), "--json", "--seconds", str(seconds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(json.loads(out)["decisions_per_s"])


def engine(tree: Path, config: str, seconds: float, api: bool = False) -> float:
    """The fast engine's moves per CPU-second for `config` (through the pydantic API with
    `api`), from a fresh process."""
    variant, players = config.rsplit("-", 1)
    code = ENGINE_SNIPPET.format(
        bench=str(tree / "bench"),
        run="run_api" if api else "run",
        variant=variant,
        players=int(players),
        seconds=seconds,
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=tree
    ).stdout
    return float(json.loads(out)["moves_per_s"])


def measure(
    configs: list[str], trees: dict[str, Path], rounds: int, seconds: float, api: bool = False
) -> dict[str, dict[str, list[float]]]:
    """Per config, per contestant ("openspiel", unless `api`, and each tree), one figure a
    round."""
    python = None if api else openspiel_python()
    anchor_name = [] if api else ["openspiel"]
    runs: dict[str, dict[str, list[float]]] = {
        c: {name: [] for name in [*anchor_name, *trees]} for c in configs
    }
    for rnd in range(rounds):
        order = configs if rnd % 2 == 0 else configs[::-1]
        for config in order:
            contestants = [*anchor_name, *trees]
            if rnd % 2:
                contestants.reverse()
            for who in contestants:
                if python is not None and who == "openspiel":
                    figure = anchor(python, seconds)
                else:
                    figure = engine(trees[who], config, seconds, api)
                runs[config][who].append(figure)
            line = " ".join(f"{who} {runs[config][who][-1]:,.0f}" for who in contestants)
            print(f"round {rnd + 1} {config:10s} {line}", file=sys.stderr, flush=True)
    return runs


def summary(runs: dict[str, dict[str, list[float]]], trees: list[str]) -> dict[str, object]:
    """Medians of each figure, of each round's ratio to OpenSpiel (when it ran) and of each
    round's ratio of the first tree to the second."""
    out: dict[str, object] = {}
    for config, figures in runs.items():
        row: dict[str, object] = {}
        anchor_runs = figures.get("openspiel")
        if anchor_runs:
            row["openspiel"] = statistics.median(anchor_runs)
        for name in trees:
            row[name] = statistics.median(figures[name])
            if anchor_runs:
                ratios = [x / y for x, y in zip(figures[name], anchor_runs, strict=True)]
                row[f"{name}/openspiel"] = round(statistics.median(ratios), 3)
                row[f"{name}/openspiel rounds"] = [round(r, 3) for r in ratios]
        if len(trees) == 2:
            a, b = trees
            pairs = [x / y for x, y in zip(figures[a], figures[b], strict=True)]
            row[f"{a}/{b}"] = round(statistics.median(pairs), 3)
            row[f"{a}/{b} rounds"] = [round(r, 3) for r in pairs]
        out[config] = row
    return out


def _line(config: str, row: dict[str, Any], trees: list[str]) -> str:
    cells = [f"OpenSpiel {row['openspiel']:>9,.0f}"] if "openspiel" in row else []
    for name in trees:
        cell = f"{name} {row[name]:>9,.0f}"
        if "openspiel" in row:
            rounds = " ".join(f"{r:.2f}" for r in row[f"{name}/openspiel rounds"])
            cell += f"  {row[f'{name}/openspiel']:.2f}x ({rounds})"
        cells.append(cell)
    if len(trees) == 2:
        rounds = " ".join(f"{r:.2f}" for r in row["ours/tree rounds"])
        cells.append(f"ours/tree {row['ours/tree']:.2f}x ({rounds})")
    return f"{config:10s} " + "  ".join(cells)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    parser.add_argument("--only", action="append", choices=CONFIGS, help="a config (repeat)")
    parser.add_argument("--tree", type=Path, help="another checkout's engine, interleaved too")
    parser.add_argument("--api", action="store_true", help="engine.py --api figures, no anchor")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.api and not args.tree:
        parser.error("--api compares two checkouts: give --tree")
    trees = {"ours": ROOT}
    if args.tree:
        trees["tree"] = args.tree.resolve()
    configs = list(args.only or CONFIGS)
    runs = measure(configs, trees, args.rounds, args.seconds, args.api)
    result = summary(runs, list(trees))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for config, row in result.items():
        print(_line(config, row, list(trees)))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
