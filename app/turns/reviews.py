"""Hand reviews (docs/api.md v1.1 `review`): computed once per (room, hand, seat) in the background.

The first request for a finished hand starts the review and answers `pending`; the work runs
off the event loop in the room's bot worker (`app.turns.botpool`) with a bounded sample count, and
later requests answer `ready` with the decisions and the seat's net result of the hand (the
currency every cost is in: `bots.review.net_result`), and whether it won the hand. Reviews
live in this process's memory only (a bounded LRU): a restart or another process simply
computes them again.

What the reviewer gets is built by `steps_of`: the seat's own view before every move of the
hand and its own moves, never the start state, the other hands or the revealed end.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

import rules
from app.views import LogHand
from bots.review import Step, net_result, review_hand

MAX_REVIEWS = 256


def steps_of(hand: LogHand, seat: int) -> list[Step]:
    """The hand as `seat` lived it: its view before each move, with its own moves."""
    state = hand.start
    steps = []
    for m in hand.moves:
        view = rules.seat_view(state, seat)
        steps.append(Step(m.version, view, rules.as_played(m.move) if m.seat == seat else None))
        state = rules.apply(state, m.seat, m.move)
    return steps


def _to_json(steps: list[Step]) -> str:
    """The worker's input: the steps."""
    return json.dumps(
        {
            "steps": [
                {
                    "version": s.version,
                    "view": s.view.model_dump(mode="json"),
                    "move": None if s.move is None else rules.move_to_json(s.move),
                }
                for s in steps
            ],
        }
    )


def review_json(steps_json: str) -> list[dict[str, Any]]:
    """The review of a hand given as `_to_json` steps (runs in a bot worker)."""
    given = json.loads(steps_json)
    steps = [
        Step(
            s["version"],
            rules.SeatView.model_validate(s["view"]),
            None if s["move"] is None else rules.parse_move(s["move"]),
        )
        for s in given["steps"]
    ]
    return [
        {
            "version": d.version,
            "move": rules.move_to_json(d.move),
            "better": None if d.better is None else rules.move_to_json(d.better),
            "cost": d.cost,
            "spread": d.spread,
            "reasons": d.reasons,
        }
        for d in review_hand(steps)
    ]


def outcome(hand: LogHand, seat: int) -> dict[str, Any]:
    """How the hand ended for `seat`: its net result and whether it won (went out)."""
    result = hand.result
    if result is None:
        return {"net": None, "won": None}
    penalty = rules.get_variant(hand.start.variant).scoring == "penalty"
    return {"net": net_result(result.points, seat, penalty), "won": result.winner == seat}


class Reviews:
    """Finished and running reviews of this process, keyed by (room, hand, seat)."""

    def __init__(self) -> None:
        # Each: {"net", "won", "decisions"} (`outcome` and `review_json`).
        self._done: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, int, int], asyncio.Task[None]] = {}

    def get(self, key: tuple[str, int, int]) -> dict[str, Any] | None:
        return self._done.get(key)

    def start(self, key: tuple[str, int, int], hand: LogHand, run: Any) -> None:
        """Start reviewing `hand` for the seat of `key` unless that is already under way.

        `run(fn, arg)` runs `fn(arg)` off the event loop (`BotPool.run` for the room)."""
        if key in self._done or key in self._running:
            return

        async def work() -> None:
            try:
                steps = await asyncio.to_thread(lambda: _to_json(steps_of(hand, key[2])))
                decisions = await run(review_json, steps)
                self._done[key] = {**outcome(hand, key[2]), "decisions": decisions}
                while len(self._done) > MAX_REVIEWS:
                    self._done.popitem(last=False)
            finally:
                self._running.pop(key, None)

        self._running[key] = asyncio.create_task(work())

    def close(self) -> None:
        for task in self._running.values():
            task.cancel()
