"""Computer seats: pick a bot's move with the strategies of `bots/`.

Should a strategy ever fail, a small fallback plays instead (draw from the stock, lay the
biggest meld offered, discard the card that costs most in hand) so that a table never stalls
on a bot.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Protocol

import bots
import rules

log = logging.getLogger("rummy.computer")


class Strategy(Protocol):
    def choose(
        self, view: rules.SeatView, legal: Sequence[rules.Move], rng: random.Random
    ) -> rules.Move: ...


class _Fallback:
    def choose(
        self, view: rules.SeatView, legal: Sequence[rules.Move], rng: random.Random
    ) -> rules.Move:
        for move in legal:
            if isinstance(move, rules.Draw) and move.source == "stock":
                return move
        melds = [m for m in legal if isinstance(m, rules.Meld)]
        if melds:
            return max(melds, key=lambda m: sum(len(x) for x in m.melds))
        discards = [m for m in legal if isinstance(m, rules.Discard)]
        if discards:
            points = rules.get_variant(view.variant).points_of
            return max(discards, key=lambda m: points(m.card))
        return legal[0]


def set_budget(budget_ms: float) -> None:
    """The time budget of the searching bots in this process (`RUMMY_BOT_BUDGET_MS`)."""
    bots.set_budget(budget_ms)


def get_strategy(name: str) -> Strategy:
    """The bots package's strategy for `name` (one shared object per name keeps its memory)."""
    strategy: Strategy = bots.get_strategy(name)
    return strategy


def choose_move(name: str, view: rules.SeatView, rng: random.Random) -> rules.Move:
    """The move the bot `name` plays from `view`; never raises for a bot's own mistakes."""
    legal = list(rules.legal_moves(view))
    if not legal:
        raise RuntimeError("a bot's turn with no legal move")
    try:
        move = get_strategy(name).choose(view, legal, rng)
    except Exception as exc:  # a broken strategy must not stop the table
        # Only the error's type: its message may name cards, and logs never show cards.
        log.warning("bot strategy %s failed (%s); playing the fallback", name, type(exc).__name__)
        move = _Fallback().choose(view, legal, rng)
    return move


def suggest_move(name: str, view: rules.SeatView, rng: random.Random) -> rules.Move:
    """The move bot `name` would play from `view`, not remembered as played (a hint)."""
    legal = list(rules.legal_moves(view))
    if not legal:
        raise RuntimeError("no legal move to suggest")
    strategy = get_strategy(name)
    suggest = getattr(strategy, "suggest", None)
    try:
        move: rules.Move = (suggest or strategy.choose)(view, legal, rng)
    except Exception as exc:  # a hint must not fail on a bot's bug either
        log.warning("bot strategy %s failed (%s); suggesting a fallback", name, type(exc).__name__)
        move = _Fallback().choose(view, legal, rng)
    return move


def fallback_move(view: rules.SeatView, rng: random.Random) -> rules.Move:
    return _Fallback().choose(view, list(rules.legal_moves(view)), rng)
