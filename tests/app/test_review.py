"""Hand reviews: from the reviewing seat's views only, computed in the background."""

from __future__ import annotations

import asyncio
import hashlib
from random import Random

from rummytest import Api
from serverkit import error_code, ok

import rules
from app.turns.reviews import _to_json, review_json, steps_of
from app.views import LogHand, LogMove
from bots.client import to_view
from bots.greedy import GreedyStrategy
from bots.strategy import move_cards


def _played_hand(seed: int) -> tuple[rules.GameState, list[LogMove], rules.GameState]:
    """A classic hand of greedy bots: (start, its moves, the end)."""
    start = rules.new_game("classic", 2, seed=hashlib.sha256(f"review:{seed}".encode()).digest())
    state, bot = start, GreedyStrategy()
    moves: list[LogMove] = []
    while state.phase in ("draw", "play"):
        view = rules.seat_view(state, state.turn)
        move = bot.choose(view, list(rules.legal_moves(view)), Random(len(moves)))
        # As the log shows it: a draw names its card where it took one from the pile.
        shown = rules.name_pickups(start, [(m.seat, m.move) for m in moves] + [(state.turn, move)])
        moves.append(LogMove(version=len(moves) + 1, seat=state.turn, move=shown[-1][1]))
        state = rules.apply(state, state.turn, move)
    return start, moves, state


def _log(start: rules.GameState, moves: list[LogMove]) -> LogHand:
    return LogHand(
        hand=0, start=start, start_version=0, end_version=len(moves), moves=moves, votes=[],
        result=None,
    )  # fmt: skip


def _hidden_swap(
    start: rules.GameState, moves: list[LogMove], end: rules.GameState
) -> rules.GameState | None:
    """`start` with a card seat 1 held all hand long swapped for a stock card nobody drew:
    the same moves stay legal and seat 0 sees exactly the same views (None: no such pair)."""
    shown = {c for m in moves for c in move_cards(m.move)}
    kept = [c for c in start.hands[1] if c in end.hands[1] and c not in shown]
    undrawn = list(end.stock)
    if not kept or not undrawn or end.stock_exhaustions:
        return None
    x, y = kept[0], undrawn[-1]
    hand1 = list(start.hands[1])
    hand1[hand1.index(x)] = y
    stock = list(start.stock)
    stock[len(stock) - 1 - stock[::-1].index(y)] = x
    hands = (start.hands[0], tuple(hand1))
    return start.model_copy(update={"hands": hands, "stock": tuple(stock)})


def test_a_review_depends_on_the_seats_views_only() -> None:
    for seed in range(20):
        start, moves, end = _played_hand(seed)
        other = _hidden_swap(start, moves, end)
        if other is not None:
            break
    assert other is not None and other.hands[1] != start.hands[1]
    a, b = _log(start, moves), _log(other, moves)
    assert rules.replay(other, [(m.seat, m.move) for m in moves]).hands[1] != end.hands[1]
    assert steps_of(a, 0) == steps_of(b, 0)
    review = review_json(_to_json(steps_of(a, 0)))
    assert review == review_json(_to_json(steps_of(b, 0)))
    own = [m.version for m in moves if m.seat == 0]
    assert [d["version"] for d in review] == own
    assert all(d["cost"] >= 0 and d["reasons"]["en"] for d in review)


async def test_the_review_endpoint_answers_pending_then_ready(api: Api) -> None:
    created = ok(await api.create(variant="classic", mode="local", seed=8), 201)
    room, tokens = created["room"], created["tokens"]
    bot, rng = GreedyStrategy(), Random(1)
    premature = await api.http.get(f"/api/rooms/{room}/review?hand=0", headers=api.auth(tokens[0]))
    assert error_code(premature, 409) == "wrong_phase"
    view = ok(await api.state(room, tokens[0]))
    while view["phase"] in ("draw", "play"):
        seat_view = to_view(ok(await api.state(room, tokens[view["turn"]])))
        move = bot.choose(seat_view, list(rules.legal_moves(seat_view)), rng)
        view = ok(
            await api.move(room, tokens[view["turn"]], rules.move_to_json(move), view["version"])
        )
    for _ in range(600):
        r = ok(
            await api.http.get(
                f"/api/rooms/{room}/review?hand=0&lang=nl", headers=api.auth(tokens[0])
            )
        )
        if r["status"] == "ready":
            break
        assert r["status"] == "pending" and r["decisions"] == []
        await asyncio.sleep(0.1)
    assert r["status"] == "ready" and r["hand"] == 0
    assert r["decisions"], r
    for d in r["decisions"]:
        assert d["reason"] == d["reasons"]["nl"] and d["cost"] >= 0
        assert (d["better"] is None) == (d["cost"] == 0 and d["better"] is None)


def test_each_cost_is_an_estimate_within_the_points_at_stake() -> None:
    """Each cost comes with its uncertainty, no cost exceeds what the hand was worth, and
    each costly decision has reasons of its own (not one line for all)."""
    from bots.review import stake_of

    costly = []
    for seed in range(6):
        start, moves, end = _played_hand(seed)
        assert end.hand_result is not None
        stake = stake_of(end.hand_result)
        hand = _log(start, moves)
        for seat in (0, 1):
            review = review_json(_to_json(steps_of(hand, seat), stake))
            for d in review:
                assert 0 <= d["cost"] <= stake and 0 <= d["spread"] <= stake, (seed, d, stake)
                # An estimate above the stake says so, at the whole stake and no spread.
                assert not d["capped"] or (d["cost"] == stake and d["spread"] == 0), d
            costly += [d for d in review if d["better"] is not None]
    assert costly and all(d["cost"] > 0 and d["spread"] >= 0 for d in costly)
    assert any(d["capped"] for d in costly) and not all(d["capped"] for d in costly)
    reasons = [d["reasons"]["en"] for d in costly]
    assert len(set(reasons)) == len(reasons), reasons
