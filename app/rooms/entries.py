"""What an accepted entry carries besides its state, filled in just before its commit: the
hand it ends or deals (the log's hand rows), and the turn timer's deadline (API.md v1.1
`turn_seconds`, `turn_deadline`).

The deadline is data: every commit writes the deadline of the turn it leaves the room in,
with its compare-and-swap, so it is in the database before anyone sees the move and a
restarted server finds it there. The scheduler that plays overdue turns is a turn driver
(app/turns/timers.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import rules
from app.persist.records import Commit, Snapshot

PLAYING = ("draw", "play")


def turn_key(state: rules.GameState) -> tuple[int, int, int, int]:
    """What tells one turn from the next: a turn of several moves keeps it."""
    return state.match_number, state.hand_number, state.turns_completed, state.turn


def with_deadline(snap: Snapshot, entry: Commit, now: datetime) -> Commit:
    """`entry` with the deadline of the turn it leaves the room in: None without a timer,
    between hands, while seats are free, and on a computer seat's turn (bots never keep a
    table waiting); the deadline already running while the same seat's turn goes on."""
    state = entry.state
    deadline: datetime | None = None
    if snap.turn_seconds and state.phase in PLAYING and not snap.is_waiting:
        if state.turn not in snap.bot_seats:
            same_turn = snap.state.phase in PLAYING and turn_key(snap.state) == turn_key(state)
            if same_turn and snap.turn_deadline is not None:
                deadline = snap.turn_deadline
            else:
                deadline = now + timedelta(seconds=snap.turn_seconds)
    return entry if deadline == entry.turn_deadline else replace(entry, turn_deadline=deadline)


def first_deadline(snap: Snapshot, now: datetime) -> datetime | None:
    """The deadline a join writes should it fill the room (its first turn starts then)."""
    return now + timedelta(seconds=snap.turn_seconds) if snap.turn_seconds else None


def mark_hands(snap: Snapshot, entry: Commit) -> Commit:
    """Note whether this entry ends the current hand and whether it deals a new one."""
    before, after = snap.state, entry.state  # phase as every seat view shows it
    was_playing = before.phase in PLAYING
    new_hand = None
    if entry.kind == "vote" and after.phase in PLAYING:
        if not was_playing or rules.hand_start(entry.state) != rules.hand_start(snap.state):
            new_hand = rules.hand_start(entry.state).model_dump_json()
    # A hand ends when it is scored, or when a new match abandons it halfway.
    ended = was_playing and (after.phase not in PLAYING or new_hand is not None)
    if ended == entry.hand_ended and new_hand == entry.new_hand_start:
        return entry  # a move within a hand, nearly every entry: no copy (2.7 us each)
    return replace(entry, hand_ended=ended, new_hand_start=new_hand)
