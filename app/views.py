"""Response models: the seat view the API sends (rules' SeatView plus the room's fields),
the public room summary, room creation and the hand log."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, TypeVar, cast

from pydantic import BaseModel, Field
from pydantic_core import to_json

import rules
from app.persist.records import Snapshot
from rules.fastform import form_of, trusted

PLAYING = ("draw", "play")
StandInLevel = Literal["easy", "medium", "hard"]
_StandIn = StandInLevel | None  # made once: `X | None` at run time costs on the hot path


class SeatInfo(BaseModel):
    name: str | None
    connected: bool
    bot: str | None = Field(description="strategy or level of a computer seat, else null")
    away_since: datetime | None = Field(
        None, description="a human seat without a socket: when its last one closed"
    )
    stand_in: StandInLevel | None = Field(
        None, description="the level of the bot playing this seat while its owner is away"
    )
    timeouts: int = Field(0, description="turns the turn timer played for this seat")


class RoomView(rules.SeatView):
    """One seat's view of the room (API.md `state`)."""

    room: str
    version: int
    seats: tuple[SeatInfo, ...]
    turn_deadline: datetime | None = Field(
        None, description="when the turn now played runs out (rooms with a turn timer)"
    )


# The first part of the key under which a snapshot keeps its seat infos.
_SEAT_INFOS = "seats"

# Views one snapshot keeps (app/persist/records.py `Snapshot.views`): a seat's and a
# spectator's for the last few presences.
VIEWS_PER_SNAPSHOT = 32

V = TypeVar("V", bound=RoomView)

# What the hub knows of a room's seats: who has a socket, and since when the others left.
Presence = tuple[set[int], dict[int, datetime]]


def seat_infos(snap: Snapshot, presence: Presence) -> tuple[SeatInfo, ...]:
    """The seats as every view of `snap` shows them (made once per snapshot and presence:
    each seat's view holds them)."""
    key = (_SEAT_INFOS, *_presence_key(presence))
    found = snap.views.get(key)
    if found is not None:
        return cast(tuple[SeatInfo, ...], found)
    connected, away = presence
    infos = tuple(
        trusted(
            SeatInfo,
            {
                "name": s.name,
                "connected": s.seat in connected,
                "bot": s.bot,
                "away_since": None if s.bot or s.seat in connected else away.get(s.seat),
                "stand_in": cast(_StandIn, s.stand_in),  # app/standin.py: only levels
                "timeouts": s.timeouts,
            },
        )
        for s in snap.seats
    )
    _keep(snap, key, infos)
    return infos


def carry_seat_infos(before: Snapshot, after: Snapshot) -> None:
    """Lend `after` the seat infos `before` made, when its seats are `before`'s very seats:
    they depend on nothing else but the presence, and a move seldom changes a seat."""
    if after.seats is before.seats:
        for key, infos in before.views.items():
            if key[0] == _SEAT_INFOS:
                after.views.setdefault(key, infos)


def _presence_key(presence: Presence) -> tuple[frozenset[int], tuple[tuple[int, datetime], ...]]:
    connected, away = presence
    return frozenset(connected), tuple(sorted(away.items()))


def _keep(snap: Snapshot, key: tuple[object, ...], value: object) -> None:
    if len(snap.views) >= VIEWS_PER_SNAPSHOT:
        snap.views.clear()  # presence that keeps changing must not grow it without end
    snap.views[key] = value


def view_text(snap: Snapshot, seat: int | None, presence: Presence) -> str:
    """`seat`'s view (None: a spectator's) as JSON text, made once per snapshot and presence:
    every socket and request of the room asks for it after every move.

    The text is `build_view(...).model_dump_json()`'s, made without the model: the room's
    views share every field but the few only their seat sees (`rules.private_fields`), so
    the spectator's view is dumped once per snapshot and each seat's text is that one with
    its own fields' values put in."""
    seen = _presence_key(presence)
    key = (seat, *seen)
    text = snap.views.get(key)
    if text is None:
        parts = _shared_parts(snap, presence, seen)
        if seat is None:
            text = _join(parts, _BLANK_VALUES)
        else:
            private = rules.private_fields(snap.state, seat)
            if snap.is_waiting:
                private["legal"] = None  # as `build_view`: nobody moves yet
            text = _join(parts, [to_json(private[name]).decode() for name, _ in _BLANKS])
        _keep(snap, key, text)
    return cast(str, text)


# The fields only a seat's own view fills (`rules.private_fields`), in the models' order, as
# the spectator's view dumps them. No text a user chose comes before `legal` in a view (the
# names are in `seats`, after it), so the first match of each, in order, is the field.
_BLANKS = (("seat", "null"), ("hand", "[]"), ("must_play", "[]"), ("legal", "null"))
_BLANK_VALUES = [blank for _, blank in _BLANKS]


def _shared_parts(snap: Snapshot, presence: Presence, seen: tuple[object, ...]) -> list[str]:
    """The spectator's view text cut around the private fields' values: what comes before
    the first one's value, between each two, and after the last."""
    key = ("shared", *seen)
    parts = snap.views.get(key)
    if parts is None:
        text = build_spectator_view(snap, presence).model_dump_json()
        parts = []
        at = 0
        for name, blank in _BLANKS:
            start = text.index(f',"{name}":{blank}', at) + len(name) + 4
            parts.append(text[at:start])
            at = start + len(blank)
        parts.append(text[at:])
        _keep(snap, key, parts)
    return cast(list[str], parts)


def _join(parts: list[str], values: list[str]) -> str:
    out = [parts[0]]
    for value, part in zip(values, parts[1:], strict=True):
        out += (value, part)
    return "".join(out)


def build_view(snap: Snapshot, seat: int, presence: Presence) -> RoomView:
    # Built from already-validated parts without validating them again: every socket of a
    # room gets a view after every move, so this is on the hot path.
    seat_view = rules.seat_view(snap.state, seat)
    view = dict(seat_view.__dict__)  # its fields, as validated
    if snap.is_waiting:
        # Dealt at creation, but nobody moves until every seat is taken.
        view["phase"] = "waiting"
        view["legal"] = None
    form = form_of(seat_view)
    return _room_view(RoomView, snap, presence, view, form.value if form else None)


def _room_view(
    cls: type[V], snap: Snapshot, presence: Presence, view: dict[str, object], fast: object
) -> V:
    # `trusted`, not `model_construct`: the latter walks every field in Python, and cost
    # most of a view's making (every socket of a room gets one after every move).
    view.update(
        room=snap.id,
        version=snap.version,
        seats=seat_infos(snap, presence),
        turn_deadline=snap.turn_deadline,
    )
    return trusted(cls, view, fast)


class WatchView(RoomView):
    """The room as a spectator sees it (API.md v1.1): no seat, no hand, no `legal`."""

    seat: None = None  # type: ignore[assignment]


def build_spectator_view(snap: Snapshot, presence: Presence) -> WatchView:
    """The room as someone watching sees it: `seat` null, no hand, no `legal`."""
    view = dict(rules.spectator_view(snap.state).__dict__)
    if snap.is_waiting:
        view["phase"] = "waiting"
    return _room_view(WatchView, snap, presence, view, None)


class SummarySeat(BaseModel):
    seat: int
    name: str | None
    taken: bool
    connected: bool
    bot: str | None


class RoomOptions(BaseModel):
    """The options the room was created with (POST /api/rooms)."""

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
    variant: str
    players: int
    mode: Literal["online", "local", "computer"]
    status: Literal["waiting", "playing", "hand_over", "match_over"]
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
    status: Literal["waiting", "playing", "hand_over", "match_over"]
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


class LogMove(BaseModel):
    version: int
    seat: int
    move: rules.Move


class LogVote(BaseModel):
    version: int
    seat: int
    vote: rules.VoteKind


class LogStandIn(BaseModel):
    """A stand-in started (`stand_in`: the bot's level) or ended (null) for `seat`."""

    version: int
    seat: int
    stand_in: str | None


class LogHand(BaseModel):
    """One finished hand: replay `moves` from `start` with rules.replay to rebuild it."""

    hand: int = Field(description="0 for the room's first hand, then 1, 2, ...")
    start: rules.GameState = Field(description="rules.hand_start(state): the deal, seed included")
    start_version: int
    end_version: int
    moves: list[LogMove]
    votes: list[LogVote]
    stand_ins: list[LogStandIn] = Field(
        default_factory=list,
        description="stand-ins started and ended during the hand: versions without a move",
    )
    result: rules.HandResult | None = Field(
        description="null when the hand was abandoned by a new_match vote"
    )


class RoomLog(BaseModel):
    room: str
    hands: list[LogHand]


class RecentMoves(BaseModel):
    """The moves of the hand in play after a version (GET /recent?since=): what every seat
    saw happen, for a player coming back to see what they missed."""

    room: str
    hand_number: int
    since: int
    moves: list[LogMove] = Field(description="in version order; a stock draw names no card")


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail
    state: RoomView | None = None
