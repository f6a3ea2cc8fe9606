"""The seat view the API sends (the wire's `RoomView`: rules' view plus the room's fields,
docs/api.md "A seat's view"), the spectator's, and the seats' infos; each view's JSON text
made once per seat and version."""

from __future__ import annotations

from datetime import datetime
from typing import TypeVar, cast

from pydantic_core import to_json

import rules
from app.hub.protocol import Presence
from app.persist.rows import Snapshot
from rules.boundary.carried import form_of, trusted
from rummy_wire.choices import BotLevel
from rummy_wire.views import RoomView, SeatInfo, WatchView

PLAYING = ("draw", "play")
StandInLevel = BotLevel
_StandIn = StandInLevel | None  # made once: `X | None` at run time costs on the hot path


# The first part of the key under which a snapshot keeps its seat infos.
_SEAT_INFOS = "seats"

# Views one snapshot keeps (app/persist/rows.py `Snapshot.views`): a seat's and a
# spectator's for the last few presences.
VIEWS_PER_SNAPSHOT = 32

V = TypeVar("V", bound=RoomView)


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
                "stand_in": cast(_StandIn, s.stand_in),  # app/turns/standin.py: only levels
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

    The text is `build_view(...).model_dump_json()`'s, made from the views' data: the
    room's views share every field but the few only their seat sees
    (`rules.private_fields`), so the spectator's view is turned into JSON data once per
    snapshot, and each seat's view is that data with its own fields put in, serialized."""
    seen = _presence_key(presence)
    key = (seat, *seen)
    text = snap.views.get(key)
    if text is None:
        fields = _shared_fields(snap, presence, seen)
        if seat is not None:
            fields = {**fields, **rules.private_fields(snap.state, seat)}
            if snap.is_waiting:
                fields["legal"] = None  # as `build_view`: nobody moves yet
        text = to_json(fields).decode()
        _keep(snap, key, text)
    return cast(str, text)


def _shared_fields(
    snap: Snapshot, presence: Presence, seen: tuple[object, ...]
) -> dict[str, object]:
    """The spectator's view as JSON data, in the model's field order (made once per
    snapshot and presence)."""
    key = ("shared", *seen)
    fields = snap.views.get(key)
    if fields is None:
        fields = build_spectator_view(snap, presence).model_dump(mode="json")
        _keep(snap, key, fields)
    return cast(dict[str, object], fields)


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


def build_spectator_view(snap: Snapshot, presence: Presence) -> WatchView:
    """The room as someone watching sees it: `seat` null, no hand, no `legal`."""
    view = dict(rules.spectator_view(snap.state).__dict__)
    if snap.is_waiting:
        view["phase"] = "waiting"
    return _room_view(WatchView, snap, presence, view, None)
