"""What an accepted entry carries besides its state, filled in just before its commit: the
hand it ends or deals (the log's hand rows), and the turn timer's deadline (docs/api.md v1.1
`turn_seconds`, `turn_deadline`).

The deadline is data: every commit writes the deadline of the turn it leaves the room in,
with its compare-and-swap, so it is in the database before anyone sees the move and a
restarted server finds it there. The scheduler that plays overdue turns is a turn driver
(app/turns/timers.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import rules
from app.persist.rows import Commit, Snapshot

PLAYING = ("draw", "play")


def turn_key(state: rules.GameState) -> tuple[int, int, int, int]:
    """What tells one turn from the next: a turn of several moves keeps it."""
    return state.match_number, state.hand_number, state.turns_completed, state.turn


def completed(snap: Snapshot, entry: Commit, now: datetime) -> Commit:
    """`entry` (made on `snap`) with the hand it ends or deals and the deadline of the turn
    it leaves the room in."""
    before, after = snap.state, entry.state  # phase as every seat view shows it
    was_playing = before.phase in PLAYING
    new_hand = None  # only a vote deals
    if entry.kind == "vote" and after.phase in PLAYING:
        if not was_playing or rules.hand_start(after) != rules.hand_start(before):
            new_hand = rules.hand_start(after).model_dump_json()
    # A hand ends when it is scored, or when a new match abandons it halfway.
    ended = was_playing and (after.phase not in PLAYING or new_hand is not None)
    # No deadline without a timer, between hands, while seats are free, or on a computer
    # seat's turn (bots never keep a table waiting); while the same seat's turn goes on,
    # the deadline already running.
    deadline = None
    if snap.turn_seconds and after.phase in PLAYING and not snap.is_waiting:
        if after.turn not in snap.bot_seats:
            same_turn = was_playing and turn_key(before) == turn_key(after)
            deadline = snap.turn_deadline if same_turn else None
            deadline = deadline or now + timedelta(seconds=snap.turn_seconds)
    if (ended, new_hand, deadline) == (entry.hand_ended, entry.new_hand_start, entry.turn_deadline):
        return entry  # a move within a hand, nearly every entry: no copy (2.7 us each)
    return replace(entry, hand_ended=ended, new_hand_start=new_hand, turn_deadline=deadline)


def first_deadline(snap: Snapshot, now: datetime) -> datetime | None:
    """The first turn's deadline, written with the room once every seat is taken: by the
    factory (app/rooms/setup.py) for a room full from the start, else by the join that
    fills it. None without a timer, or when a computer seat plays first (bots never keep
    a table waiting), as `completed` decides for every later turn."""
    if not snap.turn_seconds or snap.state.turn in snap.bot_seats:
        return None
    return now + timedelta(seconds=snap.turn_seconds)
