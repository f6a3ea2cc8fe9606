"""A view's JSON text is made without its model (app/views/seat.py `view_text`: the room's views
share all but their seat's own fields), and must be byte for byte what the model dumps.

Over seeded random playouts of every variant and player count: every seat's view and the
spectator's, with names that need escaping, seats still free (a waiting room), presence
and away marks, and a turn deadline or none.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

import rules
from app.persist.rows import SeatRow, Snapshot
from app.views import build_spectator_view, build_view, view_text

CASES = [("classic", 2), ("basic", 3), ("basic", 4), ("rummy51", 2), ("rummy51", 4)]
NAMES = (None, "Ann", 'Zoë "☃" <b>\\', "名前")


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_view_text_is_what_the_model_dumps(variant: str, players: int) -> None:
    rng = random.Random(f"view-text-{variant}-{players}")
    now = datetime(2026, 12, 1, 17, 0, 0, 123456, tzinfo=UTC)
    checked = 0
    for _ in range(6):
        state = rules.new_game(variant, players, seed=rng.randbytes(32))
        for version in range(120):
            seats = tuple(
                SeatRow(s, rng.choice(NAMES), rng.random() < 0.9, rng.choice((None, "hard")))
                for s in range(players)
            )
            connected = set(rng.sample(range(players), rng.randint(0, players)))
            away = {s: now - timedelta(seconds=s + 1) for s in range(players) if s not in connected}
            presence = (connected, away)
            snap = Snapshot("r1", variant, players, "online", version, 0, now, state, seats,
                            turn_deadline=rng.choice((None, now)))  # fmt: skip
            for seat in (None, *range(players)):
                model = (
                    build_spectator_view(snap, presence)
                    if seat is None
                    else build_view(snap, seat, presence)
                )
                assert view_text(snap, seat, presence) == model.model_dump_json()
                checked += 1
            if state.phase not in ("draw", "play"):
                break
            moves = list(rules.legal_moves(rules.seat_view(state, state.turn)))
            plays = [m for m in moves if m.type in ("meld", "layoff", "swap")]
            state = rules.apply(state, state.turn, rng.choice(plays or moves))
    assert checked > 500
