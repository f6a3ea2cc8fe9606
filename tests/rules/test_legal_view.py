"""The view's `legal` object against `apply`, over thousands of positions from seeded random
playouts of every variant and player count.

Both ways: every entry of `legal` is accepted by `apply`, and every draw, discard,
single-card lay-off (at either end, or with no end) and joker swap that `apply` accepts is
in `legal`. The seat not to act always gets `legal: null`.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules import playout
from rules.boundary.moves import meld_id
from rules.boundary.state import state_from_game
from rules.cards import code_to_int, ints
from tests.kit import scenarios

CASES = scenarios.EVERY_TABLE
POSITIONS = 700  # per case: about 5,000 in all
END = {None: playout.END_ANY, "low": playout.END_LOW, "high": playout.END_HIGH}


def _accepts(g: playout.Game, move: playout.FastMove) -> playout.Game | None:
    trial = g.copy()
    try:
        trial.apply(g.turn, move)
    except rules.IllegalMove:
        return None
    return trial


def _listed(legal: rules.Legal) -> list[playout.FastMove]:
    moves: list[playout.FastMove] = [
        (playout.DRAW, playout.SRC_STOCK if src == "stock" else playout.SRC_DISCARD)
        for src in legal.draw
    ]
    moves += [(playout.DISCARD, code_to_int(c)) for c in legal.discard]
    moves += [(playout.MELD, (ints(m),)) for m in legal.melds]
    moves += [
        (playout.LAYOFF, meld_id(x.meld), (code_to_int(x.card),), END[x.end]) for x in legal.layoffs
    ]
    moves += [(playout.SWAP, meld_id(x.meld), code_to_int(x.card)) for x in legal.swaps]
    return moves


Singles = tuple[set[str], set[str], set[tuple[str, str, str | None]], set[tuple[str, str]]]


def _accepted_singles(g: playout.Game) -> Singles:
    """What apply accepts now: draw sources, discards, single-card lay-offs, swaps."""
    draws = {
        name
        for src, name in ((playout.SRC_STOCK, "stock"), (playout.SRC_DISCARD, "discard"))
        if _accepts(g, (playout.DRAW, src))
    }
    if g.phase == playout.DRAW_PHASE:
        return draws, set(), set(), set()
    hand = set(g.hands[g.turn])
    discards = {playout.int_to_code(c) for c in hand if _accepts(g, (playout.DISCARD, c))}
    layoffs: set[tuple[str, str, str | None]] = set()
    swaps: set[tuple[str, str]] = set()
    for m in g.melds:
        for c in hand:
            for end in (playout.END_ANY, playout.END_LOW, playout.END_HIGH):
                after = _accepts(g, (playout.LAYOFF, m.id, (c,), end))
                if after is None:
                    continue
                side = None
                if m.is_run:
                    new = next(x for x in after.melds if x.id == m.id)
                    side = "low" if new.low < m.low else "high"
                layoffs.add((playout.int_to_code(c), f"m{m.id}", side))
            if _accepts(g, (playout.SWAP, m.id, c)):
                swaps.add((playout.int_to_code(c), f"m{m.id}"))
    return draws, discards, layoffs, swaps


def _pick(moves: list[playout.FastMove], rng: random.Random) -> playout.FastMove:
    """Mostly plays when there are some, so that tables fill up with melds to lay off on."""
    plays = [m for m in moves if m[0] in (playout.MELD, playout.LAYOFF, playout.SWAP)]
    if plays and rng.random() < 0.7:
        return rng.choice(plays)
    return rng.choice(moves)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_legal_and_apply_agree_on_every_position(variant: str, players: int) -> None:
    rng = random.Random(f"legal-view-{variant}-{players}")
    checked = with_melds = 0
    seed = 0
    while checked < POSITIONS:
        g = playout.new_fast_game(variant, players, seed.to_bytes(4, "big"))
        seed += 1
        while not playout.is_over(g) and checked < POSITIONS:
            state = state_from_game(g)
            for other in range(players):
                if other != g.turn:
                    assert rules.seat_view(state, other).legal is None
            legal = rules.seat_view(state, g.turn).legal
            assert legal is not None
            for move in _listed(legal):
                assert _accepts(g, move) is not None, (move, legal)
            draws, discards, layoffs, swaps = _accepted_singles(g)
            assert set(legal.draw) == draws
            assert set(legal.discard) == discards
            assert {(x.card, x.meld, x.end) for x in legal.layoffs} == layoffs
            assert {(x.card, x.meld) for x in legal.swaps} == swaps
            assert legal.must_play == ("JK",) * g.jokers_taken
            checked += 1
            with_melds += bool(g.melds)
            g.apply(g.turn, _pick(playout.generate(g, g.turn), rng))
        if playout.is_over(g):
            final = state_from_game(g)
            assert all(rules.seat_view(final, s).legal is None for s in range(players))
    assert with_melds > POSITIONS // 3  # the lay-off checks had tables to work on


@pytest.mark.parametrize("variant", ["classic", "basic"])
def test_an_ace_on_a_run_up_to_the_king_is_listed_low_where_aces_are_low(variant: str) -> None:
    """Ace low only (RULES.md): onto 2-K an ace goes below the 2, and `legal` says so. It
    said "high", which `apply` refuses: a client following `legal` was refused forever."""
    run = tuple(f"{r}C" for r in "23456789TJQK")
    mine = ("AC", "2H", "4H", "3S")
    start = rules.new_game(variant, 2, seed=b"ace-low")
    rest = [c for c in start.stock + start.discard + start.hands[0] + start.hands[1]
            if c not in run + mine]  # fmt: skip
    state = scenarios.with_fields(
        start,
        hands=(mine, tuple(rest[:10])),
        discard=(rest[10],),
        stock=tuple(rest[11:]),
        melds=({"id": "m1", "cards": run, "kind": "run", "stands_for": run},),
        phase="play",
        turn=0,
    )
    legal = rules.seat_view(state, 0).legal
    assert legal is not None
    assert [(x.card, x.meld, x.end) for x in legal.layoffs] == [("AC", "m1", "low")]
    after = rules.apply(state, 0, scenarios.layoff("m1", "AC", end="low"))
    assert after.melds[0].cards == ("AC", *run)


def test_a_run_seen_in_a_classic_room_still_takes_a_high_ace_in_rummy51() -> None:
    """One engine meld serves every room with the same cards (rules.boundary.moves), and it
    remembered which naturals fit from the first room that asked: after a classic room's
    J-Q-K of diamonds (ace low only), a rummy51 room's left the AD out of `legal` (found by
    the test above in a CI worker that had played classic first)."""
    run = ("JD", "QD", "KD")

    def table(variant: str, players: int, mine: tuple[str, ...]) -> rules.GameState:
        start = rules.new_game(variant, players, seed=b"ace-high")
        cards = [*start.stock, *start.discard, *(c for h in start.hands for c in h)]
        rest = [c for c in dict.fromkeys(cards) if c not in run + mine]
        size = len(start.hands[1])
        return scenarios.with_fields(
            start,
            hands=(mine, *(tuple(rest[i * size : (i + 1) * size]) for i in range(players - 1))),
            discard=(rest[-1],),
            stock=tuple(rest[size * (players - 1) : -1]),
            melds=({"id": "m1", "cards": run, "kind": "run", "stands_for": run},),
            opened=(True,) * players,
            phase="play",
            turn=0,
        )

    classic = rules.seat_view(table("classic", 2, ("AD", "2H", "4H", "3S")), 0).legal
    assert classic is not None and not [x for x in classic.layoffs if x.card == "AD"]
    rummy51 = rules.seat_view(table("rummy51", 2, ("AD", "2H", "4H", "3S")), 0).legal
    assert rummy51 is not None
    assert ("AD", "m1", "high") in [(x.card, x.meld, x.end) for x in rummy51.layoffs]
