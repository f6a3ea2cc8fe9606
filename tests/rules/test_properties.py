"""Property tests over seeded random playouts of every variant and player count.

Through the public (pydantic) API: cards are conserved, table melds are valid, `apply`
never changes its input, every hand ends with a result that adds up, no view shows a card
the seat may not see, replay rebuilds the state, every listed move is accepted and a sample
of unlisted ones is rejected. A bigger run on the fast engine is marked `slow`.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import playout
from rules.cards import code_to_int, ints
from rules.melds import read_meld
from rules.reducer import deck_of
from rules.variants import get_variant
from tests.kit.scenarios import all_cards

CASES = [("classic", 2), ("basic", 2), ("basic", 3), ("basic", 4),
         ("rummy51", 2), ("rummy51", 3), ("rummy51", 4)]  # fmt: skip
CODE = re.compile(r'"([A2-9TJQK][CDHS]|JK)"')
NAMED = re.compile(r"\(([A2-9TJQK][CDHS]|JK)\)")


def _check_melds(state: rules.GameState) -> None:
    rs = get_variant(state.variant)
    for m in state.melds:
        read = read_meld(ints(m.cards), rs.ace_high, rs.set_suits_distinct)
        assert ("run" if read.is_run else "set") == m.kind
        assert read.stands == ints(m.stands_for), m


def _check_views(state: rules.GameState) -> None:
    secrets = (state.seed, state.hand_seed)
    for seat in range(state.players):
        view = rules.seat_view(state, seat)
        text = view.model_dump_json()
        assert not any(s in text for s in secrets)
        assert view.hand == state.hands[seat]
        assert view.hand_counts == tuple(len(h) for h in state.hands)
        if state.hand_result is None:
            assert view.hand_result is None
            public: set[str | None] = set(view.hand)
            public |= {c for m in view.melds for c in m.cards + m.stands_for}
            public |= {view.discard_top, view.drawn_from_discard, "JK"}
            if view.last_move is not None:
                public |= set(CODE.findall(str(view.last_move.model_dump_json())))
            assert set(CODE.findall(text)) <= public
        else:
            assert view.hand_result is not None and view.hand_result.hands == state.hands


def _check_result(state: rules.GameState) -> None:
    r = state.hand_result
    assert r is not None and state.phase in ("hand_over", "match_over")
    rs = get_variant(state.variant)

    def value(hand: tuple[str, ...]) -> int:
        return sum(rs.card_values["JK" if c == "JK" else c[0]] for c in hand)

    if r.reason != "out":
        assert r.winner is None and r.points == (0,) * state.players
        return
    assert r.winner is not None and r.hands[r.winner] == ()
    others = [i for i in range(state.players) if i != r.winner]
    if rs.scoring == "penalty":
        extra = rs.going_rummy_penalty if r.rummy else 0
        assert all(r.points[i] == value(r.hands[i]) + extra for i in others)
        assert r.points[r.winner] == 0
    else:
        total = sum(value(r.hands[i]) for i in others) * (2 if r.rummy else 1)
        assert r.points[r.winner] == total and all(r.points[i] == 0 for i in others)


def _key(move: rules.Move) -> tuple[object, ...]:
    d = rules.move_to_json(move)
    d.pop("end", None)
    if d["type"] == "meld":
        return ("meld", tuple(sorted(tuple(sorted(m)) for m in d["melds"])))
    if "cards" in d:
        d["cards"] = tuple(d["cards"])
    return tuple(sorted(d.items()))


def _random_other_moves(
    rng: random.Random, view: rules.SeatView, pack: list[str]
) -> list[rules.Move]:
    """Moves of the shapes `legal_moves` lists completely: discards, single natural melds
    of three or four cards, single natural lay-offs."""
    out: list[rules.Move] = [rules.Discard(card=rng.choice(pack)), rules.Draw(source="stock")]
    naturals = [c for c in view.hand if c != "JK"]
    if len(naturals) >= 3:
        for _ in range(3):
            k = rng.choice((3, 3, 4)) if len(naturals) >= 4 else 3
            out.append(rules.Meld(melds=(tuple(rng.sample(naturals, k)),)))
    if view.melds and naturals:
        for _ in range(2):
            m = rng.choice(view.melds)
            out.append(rules.LayOff(meld=m.id, cards=(rng.choice(naturals),)))
    return out


def _play_hand(variant: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = rules.new_game(variant, players, seed=seed.to_bytes(8, "big"))
    start = rules.hand_start(state)
    pack = Counter(deck_of(variant))
    codes = sorted(pack)
    log: list[tuple[int, rules.Move]] = []
    steps = 0
    while state.phase in ("draw", "play"):
        seat = state.turn
        for other in range(players):
            if other != seat:
                assert list(rules.legal_moves(rules.seat_view(state, other))) == []
        view = rules.seat_view(state, seat)
        legal = list(rules.legal_moves(view))
        assert legal, f"seat {seat} has no legal move in {state.phase}"
        assert len({json.dumps(rules.move_to_json(m), sort_keys=True) for m in legal}) == len(
            legal
        ), "legal_moves lists a move twice"
        dump = state.model_dump()
        for move in rng.sample(legal, min(4, len(legal))):
            rules.apply(state, seat, move)  # must not raise
        listed = {_key(m) for m in legal}
        public = set(view.hand) | {c for m in view.melds for c in m.cards} | {view.discard_top}
        for move in _random_other_moves(rng, view, codes):
            if _key(move) not in listed:
                with pytest.raises(rules.IllegalMove) as info:
                    rules.apply(state, seat, move)
                named = set(NAMED.findall(info.value.message))
                assert named <= public | set(CODE.findall(json.dumps(rules.move_to_json(move))))
        move = rng.choice(legal)
        new = rules.apply(state, seat, move)
        assert state.model_dump() == dump  # apply never mutates its input
        log.append((seat, move))
        state = new
        steps += 1
        assert all_cards(state) == pack
        _check_melds(state)
        if steps % 7 == 0 or state.phase not in ("draw", "play"):
            _check_views(state)
        if state.last_move is not None and state.last_move.move.get("source") == "stock":
            assert set(state.last_move.move) == {"type", "source"}
    _check_result(state)
    assert rules.replay(start, log) == state
    assert rules.GameState.model_validate_json(state.model_dump_json()) == state


@pytest.mark.parametrize(("variant", "players"), CASES)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_playouts_keep_every_invariant(variant: str, players: int, seed: int) -> None:
    _play_hand(variant, players, seed)


def _fast_hand(variant: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    g = playout.new_fast_game(variant, players, seed=seed.to_bytes(8, "big"))
    pack = Counter(code_to_int(c) for c in deck_of(variant))
    while not playout.is_over(g):
        seat = g.turn
        moves = playout.generate(g, seat)
        assert moves
        for m in moves:
            g.copy().apply(seat, m)
        g.apply(seat, rng.choice(moves))
        seen = Counter(c for h in g.hands for c in h)
        seen.update(g.stock)
        seen.update(g.discard)
        for meld in g.melds:
            seen.update(meld.cards)
            read_meld(meld.cards, g.r.ace_high, g.r.distinct)
        assert seen == pack
    assert g.hand_result is not None


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), CASES)
def test_many_fast_playouts_accept_every_generated_move(variant: str, players: int) -> None:
    for seed in range(20):
        _fast_hand(variant, players, seed)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_some_fast_playouts_accept_every_generated_move(variant: str, players: int) -> None:
    for seed in range(1000, 1004):
        _fast_hand(variant, players, seed)


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("rummy51", 3)])
def test_fast_and_pydantic_forms_agree_move_by_move(variant: str, players: int) -> None:
    rng = random.Random(5)
    s = rules.new_game(variant, players, seed=b"agree")
    g = playout.game_from_state(s)
    while s.phase in ("draw", "play"):
        legal = list(rules.legal_moves(rules.seat_view(s, s.turn)))
        assert [playout.to_api_move(m) for m in playout.generate(g, g.turn)] == legal
        move = rng.choice(legal)
        before = g.copy()
        s = rules.apply(s, s.turn, move)
        g.apply(g.turn, playout.to_fast_move(move))
        assert playout.state_from_game(g) == s
        assert playout.state_from_game(before) != s  # the copy was not changed along
