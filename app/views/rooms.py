"""What anyone with a room's id may see of it (no cards), and the answers to creating and
joining a room."""

from __future__ import annotations

import rules
from app.persist.rows import Snapshot
from app.views.seat import PLAYING
from rummy_wire.choices import RoomStatus
from rummy_wire.rooms import RoomOptions, RoomSummary, SummarySeat


def room_options(snap: Snapshot, away_seconds: float = 60) -> RoomOptions:
    # A state without a limit of its own plays to the variant's (rummy51: 101).
    return RoomOptions(
        limit=snap.state.limit or rules.get_variant(snap.variant).penalty_limit,
        spectators=snap.spectators,
        turn_seconds=snap.turn_seconds,
        away_seconds=away_seconds,
    )


def build_summary(snap: Snapshot, connected: set[int], away_seconds: float = 60) -> RoomSummary:
    public = snap.state  # phase, hand number and scores: what every seat view shows
    status: RoomStatus
    if snap.is_waiting:
        status = "waiting"
    elif public.phase in PLAYING:
        status = "playing"
    else:
        status = "match_over" if public.phase == "match_over" else "hand_over"
    return RoomSummary(
        room=snap.id,
        variant=snap.variant,
        players=snap.players,
        mode=snap.mode,
        status=status,
        version=snap.version,
        hand_number=public.hand_number,
        scores=public.scores,
        seats=tuple(
            SummarySeat(
                seat=s.seat, name=s.name, taken=s.taken, connected=s.seat in connected, bot=s.bot
            )
            for s in snap.seats
        ),
        options=room_options(snap, away_seconds),
    )
