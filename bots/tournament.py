"""Matches between strategies, in-process through `rules/` (no server), reproducible by seed.

Every player sees only `rules.seat_view(state, seat)` and picks from
`rules.legal_moves(view)`. Match `i` seats the players rotated by `i` (so with two players
they swap seats, and with them who deals first), and deals from a seed derived from
(`seed`, `i`); the bots' own `random.Random` streams derive from the same pair. Matches run in
worker processes when `jobs > 1`; the result is the same for any number of jobs.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from random import Random
from typing import Any

import rules
from bots import new_strategy
from bots.strategy import Strategy

TOURNAMENT_SAMPLES = 8  # the expert's samples per searched decision in a reproducible run
MAX_HANDS = 200  # a guard against a match that never ends (e.g. random vs random draws)


def labels_for(players: Sequence[str]) -> list[str]:
    """Player labels: the strategy name, with `#2`, `#3` on repeats."""
    seen: dict[str, int] = {}
    out = []
    for name in players:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


@dataclass
class PlayerStats:
    matches: int = 0
    matches_won: float = 0.0  # a shared win (rummy51 tie) counts for each winner
    hands: int = 0
    hands_won: int = 0
    points: int = 0
    decision_ms: list[float] = field(default_factory=list)

    def merge(self, other: PlayerStats) -> None:
        self.matches += other.matches
        self.matches_won += other.matches_won
        self.hands += other.hands
        self.hands_won += other.hands_won
        self.points += other.points
        self.decision_ms.extend(other.decision_ms)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], pct: float) -> float:
    """The `pct`-th percentile (nearest rank) of `values`; 0 for none.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 95)
    5.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def _match_seed(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"rummy-tournament:{seed}:{index}".encode()).digest()


def tuned_strategy(name: str, settings: dict[str, Any]) -> Strategy:
    """A fresh strategy as in a reproducible tournament, the expert with `settings` (its
    keywords) on top: what bench/tune.py and bench/duplicate.py compare."""
    if name in ("expert", "hard"):
        from bots.expert import ExpertStrategy

        return ExpertStrategy(budget_ms=None, **{"samples": TOURNAMENT_SAMPLES, **settings})
    return new_strategy(name)


def parse_settings(pairs: Sequence[str]) -> dict[str, Any]:
    """`key=value` pairs as keywords: ints, floats, true/false and none.

    >>> parse_settings(["hold_until=3", "race=0.9", "search=false", "horizon=none"])
    {'hold_until': 3, 'race': 0.9, 'search': False, 'horizon': None}
    """

    def value(text: str) -> Any:
        low = text.lower()
        if low in ("true", "false"):
            return low == "true"
        if low == "none":
            return None
        try:
            return int(text)
        except ValueError:
            return float(text)

    return {k: value(v) for k, v in (p.split("=", 1) for p in pairs)}


def make_strategy(name: str, budget_ms: float | None = None) -> Strategy:
    """A fresh strategy per match. Without `budget_ms` the expert samples a fixed count so
    seeds reproduce; with it, it is the server's expert (that time budget, the server's
    sample cap), for measuring decision times as players meet them."""
    if name in ("expert", "hard"):
        if budget_ms is not None:
            from bots import set_budget

            set_budget(budget_ms)
            return new_strategy(name)
    return tuned_strategy(name, {})


def play_match(
    variant: str,
    players: Sequence[str],
    seed: int,
    index: int,
    factory: Callable[[str], Strategy] = make_strategy,
) -> list[PlayerStats]:
    """One match; stats indexed like `players` (not like seats)."""
    n = len(players)
    shift = index % n
    # seat s is played by player (s + shift) % n
    owner = [(s + shift) % n for s in range(n)]
    bots = [factory(players[owner[s]]) for s in range(n)]
    rngs = [Random(f"{seed}:{index}:{s}") for s in range(n)]
    stats = [PlayerStats(matches=1) for _ in range(n)]
    state = rules.new_game(variant, n, seed=_match_seed(seed, index))
    voters = frozenset(range(n))
    hands = 0
    while True:
        public = rules.seat_view(state, 0)
        if public.phase in ("hand_over", "match_over"):
            # The hand that ends the match counts like any other: it is the one that takes
            # a total to the limit.
            hands += 1
            result = public.hand_result
            for s in range(n):
                stats[owner[s]].hands += 1
                if result is not None:
                    stats[owner[s]].points += result.points[s]
            if result is not None and result.winner is not None and result.reason == "out":
                stats[owner[result.winner]].hands_won += 1
            if public.phase == "match_over":
                for w in public.match_winner or ():
                    stats[owner[w]].matches_won += 1
                break
            if hands >= MAX_HANDS:
                break
            for s in voters:
                state = rules.vote(state, s, "next_hand", voters)
            continue
        seat = public.turn
        state, took_ms = play_turn(state, seat, bots, rngs[seat])
        stats[owner[seat]].decision_ms.append(took_ms)
    return stats


def play_turn(
    state: rules.GameState, seat: int, bots: Sequence[Strategy], rng: Random
) -> tuple[rules.GameState, float]:
    """`seat`'s bot makes one move from its view (every other bot that watches sees the
    table first); returns the state after it and the decision's time in ms."""
    for s, bot in enumerate(bots):
        observe = getattr(bot, "observe", None)
        if observe is not None and s != seat:
            observe(rules.seat_view(state, s))
    view = rules.seat_view(state, seat)
    legal = list(rules.legal_moves(view))
    started = time.perf_counter()
    move = bots[seat].choose(view, legal, rng)
    took_ms = (time.perf_counter() - started) * 1000
    return rules.apply(state, seat, move), took_ms


def _run_chunk(
    args: tuple[str, tuple[str, ...], int, list[int], float | None, dict[str, Any]],
) -> list[PlayerStats]:
    variant, players, seed, indices, budget_ms, settings = args

    def factory(name: str) -> Strategy:
        return tuned_strategy(name, settings) if settings else make_strategy(name, budget_ms)

    total = [PlayerStats() for _ in players]
    for i in indices:
        for t, s in zip(total, play_match(variant, players, seed, i, factory), strict=True):
            t.merge(s)
    return total


def run(
    variant: str,
    players: Sequence[str],
    matches: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    budget_ms: float | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """Play `matches` matches and summarise them per player label.

    With `budget_ms` the expert thinks against the clock as on the server: its decision times
    are the server's, but the results no longer reproduce exactly. `settings` are keywords
    for the expert (`tuned_strategy`), what bench/tune.py tries; they leave out the budget.
    """
    players = tuple(players)
    settings = settings or {}
    total = [PlayerStats() for _ in players]
    chunks = [list(range(i, min(matches, i + 5))) for i in range(0, matches, 5)]
    args = [(variant, players, seed, c, budget_ms, settings) for c in chunks]
    done = 0
    with ExitStack() as stack:
        mapper = stack.enter_context(ProcessPoolExecutor(jobs)).map if jobs > 1 else map
        for part, chunk in zip(mapper(_run_chunk, args), chunks, strict=True):
            for t, s in zip(total, part, strict=True):
                t.merge(s)
            done += len(chunk)
            if progress:
                progress(done)
    return summarise(players, total, matches)


def summarise(
    players: Sequence[str], total: Sequence[PlayerStats], matches: int
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for label, st in zip(labels_for(players), total, strict=True):
        lo, hi = wilson(st.matches_won, matches)
        out[label] = {
            "matches": matches,
            "matches_won": st.matches_won,
            "win_rate": st.matches_won / matches if matches else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "hands": st.hands,
            "hands_won": st.hands_won,
            "mean_points_per_hand": st.points / st.hands if st.hands else 0.0,
            "median_decision_ms": statistics.median(st.decision_ms) if st.decision_ms else 0.0,
            "p95_decision_ms": percentile(st.decision_ms, 95),
            "decisions": len(st.decision_ms),
        }
    return out


def format_table(variant: str, summary: dict[str, dict[str, Any]]) -> str:
    scoring = "penalty points" if variant == "rummy51" else "points scored"
    lines = [
        f"{'player':<10} {'matches won':>12} {'win rate':>9} {'95% CI':>17} {'hands won':>17} "
        f"{'mean ' + scoring + '/hand':>27} {'median decision':>16} {'p95 decision':>13}"
    ]
    for label, s in summary.items():
        won = s["matches_won"]
        won_txt = f"{won:g}/{s['matches']}"
        ci = f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]"
        hands = s["hands"]
        share = s["hands_won"] / hands if hands else 0.0
        hands_txt = f"{s['hands_won']}/{hands} {share:.3f}"
        lines.append(
            f"{label:<10} {won_txt:>12} {s['win_rate']:>9.3f} {ci:>17} {hands_txt:>17} "
            f"{s['mean_points_per_hand']:>27.2f} {s['median_decision_ms']:>13.2f} ms"
            f" {s['p95_decision_ms']:>10.2f} ms"
        )
    return "\n".join(lines)
