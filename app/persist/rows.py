"""What the store reads and writes: a room as loaded, a new seat, one accepted entry to
persist, and the finished hands' rows of the log."""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

import rules

if TYPE_CHECKING:
    from app.persist.sealing import StateCipher

# What tells two reads of a room apart without comparing states: (version, seats taken).
# A move bumps the version; a join takes a seat and bumps nothing else.
Mark = tuple[int, int]

_set = object.__setattr__  # how a frozen dataclass sets what it derives


def as_utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str | None
    taken: bool
    bot: str | None
    # The seat's token hash, so a socket or a request is authorized from the cached room
    # without a read. Never in a view; kept out of repr so no log line shows it.
    token_hash: str | None = field(default=None, repr=False)
    # The bot level playing this seat while its owner is away (app/standin.py), and how
    # many of its turns the turn timer played (app/timers.py).
    stand_in: str | None = None
    timeouts: int = 0


@dataclass(frozen=True)
class Snapshot:
    """A room as loaded: its settings, seats, version and current game state."""

    id: str
    variant: str
    players: int
    mode: str
    version: int
    hand_seq: int
    active_at: datetime
    state: rules.GameState
    seats: tuple[SeatRow, ...]
    # Whether the room may be watched (POST /api/rooms `spectators`).
    spectators: bool = True
    # The turn timer's length (None: no timer) and when the turn now played runs out.
    turn_seconds: int | None = None
    turn_deadline: datetime | None = None
    # Views of this snapshot as JSON text, by seat (None: a spectator) and presence, and
    # its seats as views show them: built once per version however many sockets, tabs and
    # requests ask (app/views.py). Every change makes a new Snapshot, and `replace` leaves
    # this out, so it is never stale.
    views: dict[Any, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    # Derived from the fields above once, when the snapshot is made (`__post_init__`; a
    # `replace` makes a new one): the move path reads them several times per move.
    # Whether some seat is free: an online room deals at creation but plays only once every
    # seat is taken.
    is_waiting: bool = field(init=False, repr=False, compare=False)
    # The computer seats, with their bot's level.
    bot_seats: Mapping[int, str] = field(init=False, repr=False, compare=False)
    # The version and how many seats are taken: of two snapshots of one version, the one
    # with more seats taken is the newer (a join).
    mark: Mark = field(init=False, repr=False, compare=False)
    # `rooms.attendance` for these seats (`attendance_json`).
    attendance: str | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        taken = sum(1 for s in self.seats if s.taken)
        _set(self, "is_waiting", taken < len(self.seats))
        _set(self, "bot_seats", {s.seat: s.bot for s in self.seats if s.bot})
        _set(self, "mark", (self.version, taken))
        _set(self, "attendance", attendance_json(self.seats))

    @property
    def stand_ins(self) -> dict[int, str]:
        """Human seats a bot plays for now, with the bot's level."""
        return {s.seat: s.stand_in for s in self.seats if s.stand_in}

    def seat_of(self, token_hash: str) -> int | None:
        """The seat whose token hashes to `token_hash`, None when no seat of this room has it."""
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, token_hash):
                return s.seat
        return None


@dataclass(frozen=True)
class NewSeat:
    name: str | None
    token_hash: str | None
    bot: str | None


@dataclass(frozen=True)
class Commit:
    """One accepted move or vote, ready to persist."""

    seat: int
    kind: str  # "move" | "vote"
    payload: dict[str, Any]
    state: rules.GameState
    # The hand that was being played ended (or was abandoned) with this entry.
    hand_ended: bool = False
    # A new hand was dealt by this entry: its rules.hand_start(state) as JSON.
    new_hand_start: str | None = None
    # The room's seats after this entry when it changes a stand-in or a timeout count
    # (None: the room's seats as they were), and when the turn after it runs out.
    seats: tuple[SeatRow, ...] | None = None
    turn_deadline: datetime | None = None

    @cached_property
    def state_json(self) -> str:
        """The state serialized, once per entry."""
        return self.state.model_dump_json()

    @cached_property
    def payload_json(self) -> str:
        return json.dumps(self.payload)

    def sealed_state(self, cipher: StateCipher, room_id: str) -> str:
        """The state as stored and as the hub event carries it: sealed once per entry,
        whichever of the writer and the publisher asks first (kept in the instance's
        __dict__, as `cached_property` does on this frozen class)."""
        sealed: str | None = self.__dict__.get("_sealed_state")
        if sealed is None:
            sealed = cipher.seal(cipher.state_context(room_id), self.state_json)
            self.__dict__["_sealed_state"] = sealed
        return sealed


@dataclass(frozen=True)
class HandRow:
    """One finished hand: its deal (rules.hand_start as JSON, in the clear) and versions."""

    seq: int
    start: str
    start_version: int
    end_version: int | None


@dataclass(frozen=True)
class LogEntry:
    """One row of the move log: a move or a vote, as JSON."""

    version: int
    seat: int
    kind: str
    move: str


def attendance_json(seats: tuple[SeatRow, ...]) -> str | None:
    """`rooms.attendance` for these seats: None while nobody was ever stood in or timed out.

    >>> ann, bo = SeatRow(0, "Ann", True, None), SeatRow(1, "Bo", True, None, None, "hard", 2)
    >>> attendance_json((ann, bo))
    '{"stand_in": [null, "hard"], "timeouts": [0, 2]}'
    """
    if not any(s.stand_in or s.timeouts for s in seats):
        return None
    return json.dumps(
        {"stand_in": [s.stand_in for s in seats], "timeouts": [s.timeouts for s in seats]}
    )


def with_attendance(seats: tuple[SeatRow, ...], stored: str | None) -> tuple[SeatRow, ...]:
    """The seats with the stand-ins and timeouts of `attendance_json`'s text."""
    if not stored:
        if any(s.stand_in or s.timeouts for s in seats):
            return tuple(replace(s, stand_in=None, timeouts=0) for s in seats)
        return seats
    data = json.loads(stored)
    stand_in, timeouts = data.get("stand_in", []), data.get("timeouts", [])
    return tuple(
        replace(
            s,
            stand_in=stand_in[s.seat] if s.seat < len(stand_in) else None,
            timeouts=int(timeouts[s.seat]) if s.seat < len(timeouts) else 0,
        )
        for s in seats
    )


def new_snapshot(
    room_id: str,
    *,
    variant: str,
    players: int,
    mode: str,
    state: rules.GameState,
    seats: list[NewSeat],
    now: datetime,
    spectators: bool = True,
    turn_seconds: int | None = None,
    turn_deadline: datetime | None = None,
) -> Snapshot:
    """A room as `Store.create` writes it: version 0, its first hand dealt."""
    rows = tuple(
        SeatRow(
            seat=i,
            name=s.name,
            taken=s.token_hash is not None or s.bot is not None,
            bot=s.bot,
            token_hash=s.token_hash,
        )
        for i, s in enumerate(seats)
    )
    return Snapshot(
        id=room_id,
        variant=variant,
        players=players,
        mode=mode,
        version=0,
        hand_seq=0,
        active_at=now,
        state=state,
        seats=rows,
        spectators=spectators,
        turn_seconds=turn_seconds,
        turn_deadline=turn_deadline,
    )


def lowest_free_seat(snap: Snapshot) -> int | None:
    """The seat a join takes (`Store.take_seat`: the lowest free one); None when full."""
    return next((s.seat for s in snap.seats if not s.taken), None)


def seat_taken(
    snap: Snapshot,
    seat: int,
    name: str | None,
    token_hash: str,
    now: datetime,
    deadline: datetime | None,
) -> Snapshot:
    """`snap` after a join took `seat` (`Store.take_seat`): the seat named and holding the
    token, the room active now, and the first turn's timer started if that filled it."""
    seats = tuple(
        replace(s, name=name or f"Player {seat + 1}", taken=True, token_hash=token_hash)
        if s.seat == seat
        else s
        for s in snap.seats
    )
    joined = replace(snap, seats=seats, active_at=now)
    if snap.turn_seconds and not joined.is_waiting:
        joined = replace(joined, turn_deadline=deadline)
    return joined


@dataclass(frozen=True)
class ChatRow:
    """A chat message as stored, its text opened."""

    id: int
    seat: int
    name: str
    text: str
    at: datetime


@dataclass(frozen=True)
class EntryRow:
    """One entry of a challenge: its room, its player's name, its invitation's name."""

    room: str
    name: str
    invite_name: str | None


@dataclass(frozen=True)
class ChallengePlan:
    """A new challenge as `Store.add_challenge` writes it: its row, the challenger's entry
    and its first invitation (only its code's hash)."""

    challenge: str
    room: str
    variant: str
    players: int
    bots: str  # JSON: seat number -> bot level
    now: datetime
    name: str
    invite_hash: str
    invite_name: str
