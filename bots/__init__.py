"""Computer players: strategies that turn a seat's view and its legal moves into a move.

    get_strategy(name) -> Strategy      "random" | "greedy" | "expert", or a browser level
                                        "easy" | "medium" | "hard"; ValueError otherwise
    STRATEGY_NAMES, LEVELS              the accepted names; NAMES: both, every name a
                                        computer seat may be given

`Strategy.choose(view: rules.SeatView, legal: Sequence[rules.Move], rng: random.Random)`
returns one of `legal`. Strategies never see hidden cards. `expert` keeps a bounded memory per
hand keyed by the hand's identity in the view (see `bots.memory`), so one object may serve
many rooms; callers that see every state may also call its `observe(view)`.
Levels: easy = greedy with random slips (`bots.easy`), medium = greedy, hard = expert.

`get_strategy` returns one shared object per strategy (the server asks for it on every bot
move, and expert's memory must survive between those calls); `new_strategy` makes a fresh one.
Made this way the expert is the server's: bounded by a time budget (`SERVER_BUDGET_MS`, changed
with `set_budget`) with a high sample cap. Tournaments make theirs bounded by samples only, so
that a seed reproduces them (`bots.tournament.make_strategy`).
"""

from __future__ import annotations

from bots.strategy import Strategy

STRATEGY_NAMES: tuple[str, ...] = ("random", "greedy", "expert")
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
NAMES: tuple[str, ...] = STRATEGY_NAMES + LEVELS
LEVEL_STRATEGIES: dict[str, str] = {"easy": "easy", "medium": "greedy", "hard": "expert"}


_SHARED: dict[str, Strategy] = {}

# The server's search: as many samples as its time budget allows, up to this cap.
SERVER_BUDGET_MS = 150.0
SERVER_SAMPLES = 64
_budget = {"ms": SERVER_BUDGET_MS}


def set_budget(budget_ms: float) -> None:
    """The time budget of every searching strategy made from now on, and of the shared ones."""
    _budget["ms"] = budget_ms
    for strategy in _SHARED.values():
        if hasattr(strategy, "budget_ms"):
            strategy.budget_ms = budget_ms


def get_strategy(name: str) -> Strategy:
    """The shared strategy object for a strategy name or a level.

    Raises:
        ValueError: the name is neither a strategy nor a level.
    """
    key = LEVEL_STRATEGIES.get(name, name)
    shared = _SHARED.get(key)
    if shared is None:
        shared = _SHARED[key] = new_strategy(key)
    return shared


def new_strategy(name: str) -> Strategy:
    """A fresh strategy object for a strategy name or a level.

    Raises:
        ValueError: the name is neither a strategy nor a level.
    """
    key = LEVEL_STRATEGIES.get(name, name)
    if key == "random":
        from bots.random_bot import RandomStrategy

        return RandomStrategy()
    if key == "greedy":
        from bots.greedy import GreedyStrategy

        return GreedyStrategy()
    if key == "easy":
        from bots.easy import EasyStrategy

        return EasyStrategy()
    if key == "expert":
        from bots.expert import ExpertStrategy

        return ExpertStrategy(budget_ms=_budget["ms"], samples=SERVER_SAMPLES)
    known = ", ".join(STRATEGY_NAMES + LEVELS)
    raise ValueError(f"unknown strategy {name!r}; known: {known}")


__all__ = [
    "LEVELS",
    "NAMES",
    "STRATEGY_NAMES",
    "Strategy",
    "get_strategy",
    "new_strategy",
    "set_budget",
]
