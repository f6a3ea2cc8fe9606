"""Complete fixed deals for the browser tests, built from the cards a test cares about."""

from __future__ import annotations

from typing import Any

import rules
from tests.rummytest import pack


def deal(
    variant: str,
    hands: list[list[str]],
    discard: list[str],
    stock_top: list[str] | None = None,
) -> dict[str, Any]:
    """Every card of the pack exactly once: the given hands (filled up from the rest of the
    pack when short), the discard pile (top last) and the stock (top first)."""
    size = rules.get_variant(variant).hand_size[len(hands)]
    left = pack(variant)
    wanted = [c for h in hands for c in h] + discard + (stock_top or [])
    for card in wanted:
        left.remove(card)
    full = []
    for hand in hands:
        hand = list(hand)
        while len(hand) < size:
            hand.append(left.pop(0))
        full.append(hand)
    return {"hands": full, "discard": discard, "stock": (stock_top or []) + left}


def value(cards: list[str]) -> int:
    """classic: ace 1, J/Q/K 10, others their number."""
    points = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
    return sum(points.get(c[0], 0) or int(c[0]) for c in cards)


async def computer_room(http: Any, *deal_args: Any, **deal_kw: Any) -> dict[str, Any]:
    """A room against easy bots for "Anna" in seat 0: on a fixed deal when `hands` are given
    (built by `deal`), else on a random one (the arguments of `new_room` after `mode`)."""
    return await new_room(http, "computer", *deal_args, **deal_kw)


async def new_room(
    http: Any,
    mode: str,
    hands: list[list[str]] | None = None,
    discard: list[str] | None = None,
    stock_top: list[str] | None = None,
    variant: str = "classic",
    players: int = 2,
) -> dict[str, Any]:
    """A room of `mode` for "Anna" in seat 0 ("computer": easy bots in the other seats;
    "local": players on the same device, every token in `tokens`), on a fixed deal when
    `hands` are given (built by `deal`), else on a random one."""
    body: dict[str, Any] = {"variant": variant, "players": players, "mode": mode, "name": "Anna"}
    if mode == "computer":
        body["bots"] = {str(i): "easy" for i in range(1, players)}
    if hands is not None:
        body["deal"] = deal(variant, hands, discard=discard or [], stock_top=stock_top)
    r = await http.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())
