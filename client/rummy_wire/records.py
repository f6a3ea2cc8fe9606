"""Match records and replays (docs/api.md, "Match records and replays"; the format in
docs/record.md): a finished match, self-contained, in the versioned format
`rummy-record/1`; a log sent back to be replayed; and a hand replayed step by step."""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, Field

from rummy_wire.base import CardCode, Frozen
from rummy_wire.game import Deal, HandResult, LastMove
from rummy_wire.log import LogHand
from rummy_wire.moves import ShownMove
from rummy_wire.rooms import RoomOptions
from rummy_wire.variants import VariantName
from rummy_wire.views import SpectatorView

RECORD_FORMAT: Final = "rummy-record/1"
HEX_64 = r"^[0-9a-f]{64}$"


class RecordMove(BaseModel):
    seat: int = Field(ge=0, le=7, strict=True)
    move: ShownMove = Field(
        description="a draw from the discard pile names the card it took; a stock draw none"
    )


class RecordHand(BaseModel):
    """One finished hand: replay `moves` from `deal` with `rules` to rebuild `result`."""

    number: int = Field(
        ge=0,
        le=100_000,
        description="the hand's place in its match: 0, 1, 2, ... (docs/api.md v1.3)",
    )
    seed: str = Field(pattern=HEX_64, description="the hand's seed (hex), revealed after it")
    commitment: str = Field(
        pattern=HEX_64, description="SHA-256 shown during the hand (docs/record.md)"
    )
    dealer: int = Field(ge=0, le=7, strict=True, description="the seat on its left plays first")
    start_scores: tuple[int, ...] = Field(max_length=8, description="the scores before the hand")
    deal: Deal = Field(description="hands, discard (top last), stock (top first)")
    moves: list[RecordMove] = Field(max_length=3_000, description="in the order played")
    result: HandResult


class RecordSignature(BaseModel):
    alg: Literal["ed25519"]
    key_id: str = Field(max_length=64, description="the signing key's id (GET /api/server-key)")
    sig: str = Field(max_length=128, description="URL-safe base64 of the 64-byte signature")


class MatchRecord(BaseModel):
    """A match's finished hands, self-contained (`rummy-record/1`, docs/record.md)."""

    format: Literal["rummy-record/1"] = RECORD_FORMAT
    variant: VariantName
    options: RoomOptions
    players: list[Annotated[str, Field(max_length=64)]] = Field(
        min_length=2, max_length=8, description="the seats' names, by seat"
    )
    hands: list[RecordHand] = Field(max_length=100, description="oldest first")
    scores: tuple[int, ...] = Field(
        max_length=8, description="after the last hand listed: the match's result so far"
    )
    match_winner: list[int] | None = Field(
        None,
        max_length=8,
        description="the seats that won the match, once its limit is reached; null while "
        "it is still played (or was left for a new one)",
    )
    signature: RecordSignature | None = Field(
        None, description="the server's Ed25519 signature of the rest (docs/api.md, v1.3)"
    )


class LogBody(BaseModel):
    """A room's log (GET .../log) sent back to be replayed: its `hands` are what counts."""

    room: str | None = Field(None, max_length=32)
    hands: list[LogHand] = Field(max_length=16, description="a long log goes hand by hand")


class ReplayStep(Frozen):
    """The table after one move of a finished hand (step 0: as dealt)."""

    version: int | None = Field(
        None, description="the room's version of the move (GET .../log); null for the deal"
    )
    move: LastMove | None = Field(description="who played what; null for the deal")
    view: SpectatorView = Field(description="the table as everyone saw it after the move")
    hands: tuple[tuple[CardCode, ...], ...] = Field(
        description="every seat's cards after the move (the hand is over: nothing is hidden)"
    )


class Replay(BaseModel):
    """A finished hand, step by step: the deal, then the table after every move."""

    hand: int = Field(description="the log's hand number (0: the room's first hand)")
    hands: list[int] = Field(description="every finished hand's number, to pick another")
    players: list[str] | None = Field(
        None, description="the seats' names, when the replay came from a record"
    )
    steps: list[ReplayStep]
