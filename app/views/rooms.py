"""What anyone with a room's id may see of it (no cards), and the answers to creating and
joining a room."""

from __future__ import annotations

from pydantic import BaseModel, Field

import rules
from app.choices import BotName, Mode, RoomStatus
from app.persist.records import Snapshot
from app.views.seat import PLAYING


class SummarySeat(BaseModel):
    seat: int
    name: str | None
    taken: bool
    connected: bool
    bot: BotName | None


class RoomOptions(BaseModel):
    """The options the room was created with (POST /api/rooms)."""

    model_config = rules.SENT_WHOLE

    limit: int | None = Field(
        description="rummy51: the penalty total that ends the match; null for other variants"
    )
    spectators: bool = Field(description="whether anyone with the room's id may watch it")
    turn_seconds: int | None = Field(
        None, description="the turn timer: seconds per turn, null for none"
    )
    away_seconds: float = Field(
        60, description="how long a seat must be away before a stand-in may play it"
    )
    chat: bool = Field(True, description="whether the seats may chat")


class RoomSummary(BaseModel):
    """What anyone with the room id may see: no cards."""

    room: str
    variant: rules.VariantName
    players: int
    mode: Mode
    status: RoomStatus
    version: int
    hand_number: int
    scores: tuple[int, ...]
    seats: tuple[SummarySeat, ...]
    options: RoomOptions
    rematch: str | None = Field(None, description="the room a rematch of this one made")


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


class CreatedRoom(BaseModel):
    model_config = rules.SENT_WHOLE

    room: str
    seat: int
    token: str
    invite_url: str
    seat_url: str
    tokens: list[str | None] | None = Field(
        default=None, description="local mode: every seat's token, by seat (null for bots)"
    )


class JoinedRoom(BaseModel):
    room: str
    seat: int
    token: str
    seat_url: str
