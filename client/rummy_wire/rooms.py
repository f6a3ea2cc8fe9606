"""A room as anyone with its id may see it (no cards), its options, and the answers to
creating and joining one (docs/api.md, "Routes")."""

from __future__ import annotations

from pydantic import BaseModel, Field

from rummy_wire.base import SENT_WHOLE
from rummy_wire.choices import BotName, Mode, RoomStatus
from rummy_wire.variants import VariantName


class SummarySeat(BaseModel):
    seat: int
    name: str | None
    taken: bool
    connected: bool
    bot: BotName | None


class RoomOptions(BaseModel):
    """The options the room was created with (POST /api/rooms)."""

    model_config = SENT_WHOLE

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
    variant: VariantName
    players: int
    mode: Mode
    status: RoomStatus
    version: int
    hand_number: int
    scores: tuple[int, ...]
    seats: tuple[SummarySeat, ...]
    options: RoomOptions
    rematch: str | None = Field(None, description="the room a rematch of this one made")


class CreatedRoom(BaseModel):
    model_config = SENT_WHOLE

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
