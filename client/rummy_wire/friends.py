"""Friends at the table (docs/api.md, "Friends: chat, rematch, challenges"): chat messages,
and challenges, the same deals for friends, each against the computer."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from rummy_wire.choices import BotName
from rummy_wire.names import Name
from rummy_wire.variants import VariantName

# Chat.


class ChatMessage(BaseModel):
    """One message of a room's chat, as every socket of the room and `GET .../chat` show
    it; `id` grows by one per room."""

    id: int = Field(description="grows by one per room")
    seat: int
    name: str
    text: str
    at: datetime


class ChatPosted(BaseModel):
    message: ChatMessage


class ChatHistory(BaseModel):
    messages: list[ChatMessage] = Field(description="oldest first")


class ChatRequest(BaseModel):
    text: str = Field(
        description="1 to 200 characters after trimming, under the text policy (docs/api.md): "
        "no control or format character, no lone surrogate, no stacked marks, not invisible"
    )


# Challenges.


class ChallengeRequest(BaseModel):
    variant: VariantName = "classic"
    players: int | None = Field(
        None, ge=2, le=8, strict=True, description="default: the variant's fewest"
    )
    bots: dict[str, BotName] = Field(
        default_factory=dict,
        max_length=8,
        # The keys are seats 1 to 7 (the server checks which the table has).
        json_schema_extra={"propertyNames": {"pattern": "^[1-7]$"}},
        description='seat number -> bot level, e.g. {"1": "hard"}; unnamed seats the default',
    )
    name: Name = "Player 1"
    invite_name: Name = Field(
        "Friend", description="the name of the first invitation (in `challenge_url`)"
    )


class PlayRequest(BaseModel):
    name: Name = "Player 1"
    invite: str | None = Field(
        None,
        max_length=128,
        description="the invitation (`?invite=` of its link), good for one entry",
    )


class InviteRequest(BaseModel):
    name: Name = Field("Friend", description="who the invitation is for, shown with its entry")


class ChallengeSeat(BaseModel):
    challenge: str
    room: str
    seat: int
    token: str
    invite_url: str
    seat_url: str
    challenge_url: str = Field(
        description="the challenge's page; the creator's holds its first invitation"
    )
    owner: str | None = Field(
        None,
        description="the creator only: the secret that makes more invitations "
        "(POST .../invites, Authorization: Bearer <owner>); keep it",
    )
    invite: str | None = Field(None, description="the creator only: the first invitation")


class Invite(BaseModel):
    invite: str = Field(description="the code, good for one entry")
    name: str
    url: str = Field(description="the challenge's page with this invitation")


class EntryHand(BaseModel):
    hand: int = Field(description="the hand's number in the log: 0 for the first")
    points: list[int]
    winner: int | None


class Entry(BaseModel):
    name: str
    invite_name: str | None = Field(
        description="the name the owner gave the invitation it came from; null for the "
        "challenger's own entry"
    )
    room: str
    finished: bool = Field(description="its match is over")
    hands: list[EntryHand] = Field(description="only hands that are over")
    match_winner: int | None


class ChallengeResult(BaseModel):
    challenge: str
    variant: VariantName
    players: int
    bots: dict[str, BotName] = Field(
        description="seat number -> bot level, the same in every entry"
    )
    entries: list[Entry]
