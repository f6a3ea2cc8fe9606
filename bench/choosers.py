"""The load benches' bots: a wire `state` in, the seat's next move (wire JSON) out. `Chooser`
asks a strategy of bots/ (greedy by default) over `rules.legal_moves`; `LegalChooser` reads
the view's own `legal`, so that the clients' CPU goes to their sockets."""

from __future__ import annotations

import random
from typing import Any


class Chooser:
    """Turns a wire `state` into the bot's next move (wire JSON), with the greedy strategy."""

    def __init__(self, name: str, seed: int) -> None:
        import rules
        from bots import get_strategy

        self._rules = rules
        self._strategy = get_strategy(name)
        self._rng = random.Random(seed)
        self._fields = set(rules.SeatView.model_fields)

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        rules = self._rules
        view = rules.SeatView.model_validate({k: v for k, v in state.items() if k in self._fields})
        legal = list(rules.legal_moves(view))
        move = self._strategy.choose(view, legal, self._rng)
        wire: dict[str, Any] = rules.move_to_json(move)
        return wire


class LegalChooser:
    """A cheap policy read straight off the view's `legal` (docs/api.md v1.1), so that the clients'
    CPU goes to their sockets rather than to a strategy and the server is what saturates:
    draw from the stock, lay the first meld or lay-off open, else discard the highest card.
    Where that finds nothing (a joker that must be played, say) the greedy `Chooser` decides."""

    def __init__(self, fallback: Chooser, seed: int) -> None:
        import rules

        self._fallback = fallback
        self._rng = random.Random(seed)
        self._rules = rules

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        legal = state.get("legal")
        if not legal or legal.get("must_play") or legal.get("swaps"):
            return self._fallback.choose(state)
        if state["phase"] == "draw":
            sources = legal["draw"]
            return {"type": "draw", "source": "stock" if "stock" in sources else sources[0]}
        if legal["melds"]:
            return {"type": "meld", "melds": [legal["melds"][0]]}
        if legal["layoffs"]:
            first = legal["layoffs"][0]
            return {
                "type": "layoff",
                "meld": first["meld"],
                "cards": [first["card"]],
                "end": first["end"],
            }
        cards = legal["discard"]
        if not cards:
            return self._fallback.choose(state)
        variant = self._rules.get_variant(state["variant"])
        points = {c: variant.points_of(c) for c in cards}
        top = max(points.values())
        return {"type": "discard", "card": self._rng.choice([c for c in cards if points[c] == top])}
