"""The expert's memory of a hand holds only what the seat's views showed it."""

from __future__ import annotations

import hashlib
from random import Random

import rules
from bots.greedy import GreedyStrategy
from bots.memory import HandMemory, MemoryBook, hand_key
from rules import playout


def _play(seed: int, watch_every_state: bool) -> tuple[HandMemory, list[str], list[str]]:
    """A classic hand of greedy bots; seat 0 remembers. Returns memory, seat 1's picks and
    the top discards seat 1 passed over (the truth, from the full log)."""
    state = rules.new_game("classic", 2, seed=hashlib.sha256(str(seed).encode()).digest())
    memory = HandMemory(2)
    bot = GreedyStrategy()
    picks: list[str] = []
    declined: list[str] = []
    rng = Random(seed)
    for _ in range(2000):
        view0 = rules.seat_view(state, 0)
        if view0.phase not in ("draw", "play"):
            break
        seat = view0.turn
        if watch_every_state or seat == 0:
            memory.observe(view0)
        view = rules.seat_view(state, seat)
        move = bot.choose(view, list(rules.legal_moves(view)), rng)
        if seat == 1 and move.type == "draw" and view.stock_count > 0:
            (picks if move.source == "discard" else declined).append(str(view.discard_top))
        if seat == 0:
            memory.note_own(view, move.model_dump(mode="json"))
        state = rules.apply(state, seat, move)
    return memory, picks, declined


def test_memory_from_every_state_knows_picks_and_declines() -> None:
    for seed in range(6):
        memory, picks, declined = _play(seed, watch_every_state=True)
        assert set(playout.ints(declined)) <= memory.declined[1] | {None}
        remembered = set(playout.int_to_code(c) for c in memory.picked[1])
        assert remembered <= set(picks)


def test_memory_from_own_turns_infers_the_opponent_draw() -> None:
    found = 0
    for seed in range(6):
        memory, picks, declined = _play(seed, watch_every_state=False)
        assert set(playout.int_to_code(c) for c in memory.picked[1]) <= set(picks)
        assert {playout.int_to_code(c) for c in memory.declined[1]} <= set(declined)
        found += len(memory.declined[1])
    assert found > 0


def test_memory_book_keys_hands_apart() -> None:
    a = rules.seat_view(rules.new_game("classic", 2, seed=b"a" * 32), 0)
    b = rules.seat_view(rules.new_game("classic", 2, seed=b"b" * 32), 0)
    book = MemoryBook(size=1)
    assert hand_key(a) != hand_key(b)
    first = book.get(a)
    assert book.get(a) is first
    book.get(b)
    assert book.get(a) is not first  # the bounded book dropped the oldest hand
