"""The one room factory: every room (POST /api/rooms, a rematch, a challenge's entry, a
test) is made by `planned_room`, with its checks (variant, player count, limit, bots), one
id minting (`new_room_id`) and one first-turn deadline rule (app/rooms/entries.py
`first_deadline`). `new_room` plans a lobby's room: its seats (the creator's, local
players', computer seats) and their tokens. Pure: the room service stores what this makes."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import datetime
from typing import NotRequired, TypedDict

import bots
import rules
from app.config import Settings
from app.errors import Forbidden, InvalidRequest, shown
from app.persist.rows import NewSeat, Snapshot, new_snapshot
from app.rooms.entries import first_deadline
from app.rooms.tokens import fixed_match_seed, hash_token, new_token

# The computer seats of a computer room (or a challenge) that no name was asked for.
DEFAULT_BOT = "greedy"
# The names computer seats sit under, one per seat, the same on the table, in the record and
# in the replay, and distinct at one table (their seats are regions a screen reader names).
# Seat i takes the i-th name (modulo), as in the web app's list (web/js/lang/en.js
# `botNames`), which names the computer seats of a room that carries no names.
BOT_SEAT_NAMES = ("Alex", "Beth", "Carl", "Dora", "Eddie", "Fran")


def bot_seat_name(seat: int, taken: Collection[str | None] = ()) -> str:
    """The name of the computer in `seat`: its own from `BOT_SEAT_NAMES`, or the next one
    that no name in `taken` (the other seats') already is.

    >>> bot_seat_name(1), bot_seat_name(2, ["Anna", "Carl"]), bot_seat_name(7)
    ('Beth', 'Dora', 'Beth')
    """
    n = len(BOT_SEAT_NAMES)
    names = [BOT_SEAT_NAMES[(seat + i) % n] for i in range(n)]
    return next((name for name in names if name not in taken), names[0])


class RoomRequest(TypedDict):
    """What a new room is asked for (POST /api/rooms): `new_room`'s keywords."""

    variant: str
    players: int | None
    mode: str
    name: str
    bots: Mapping[str, str]
    seed: int | None
    deal: rules.Deal | None
    limit: NotRequired[int | None]
    spectators: NotRequired[bool]
    turn_seconds: NotRequired[int | None]


def new_room(
    settings: Settings,
    now: datetime,
    *,
    variant: str,
    players: int | None,
    mode: str,
    name: str,
    bots: Mapping[str, str],
    seed: int | None,
    deal: rules.Deal | None,
    limit: int | None = None,
    spectators: bool = True,
    turn_seconds: int | None = None,
) -> tuple[Snapshot, list[str | None]]:
    """A new room and the token of every human seat (None for bots). `limit` is the penalty
    limit of a variant scored by penalties (rummy51). Raises Forbidden, InvalidRequest."""
    if (seed is not None or deal is not None) and not settings.allow_fixed_deals:
        raise Forbidden("fixed deals are turned off on this server")
    players = table_players(variant, players, limit)
    seats, tokens = lobby_seats(mode, players, name, seat_bots(mode, players, bots))
    room = planned_room(
        now,
        variant=variant,
        mode=mode,
        seats=seats,
        match_seed=fixed_match_seed(seed) if seed is not None else new_match_seed(),
        deal=deal,
        limit=limit,
        spectators=spectators,
        turn_seconds=turn_seconds,
    )
    return room, tokens


def planned_room(
    now: datetime,
    *,
    variant: str,
    mode: str,
    seats: list[NewSeat],
    match_seed: bytes,
    deal: rules.Deal | None = None,
    limit: int | None = None,
    spectators: bool = True,
    turn_seconds: int | None = None,
    room_id: str | None = None,
) -> Snapshot:
    """A new room with `seats` as planned (a seat with neither a token nor a bot is free),
    dealt from `match_seed` (or `deal`), its id `room_id` or a new one. A room full from the
    start (local, computer, a rematch, a challenge) starts its first turn's timer now; an
    online room when its last seat is taken (`RoomService.join`). Raises InvalidRequest."""
    table_players(variant, len(seats), limit)
    for seat in seats:
        if seat.bot is not None and not is_known_bot(seat.bot):
            raise InvalidRequest(f"bots: unknown strategy {shown(seat.bot)!r}")
    state = rules.new_game(variant, len(seats), seed=match_seed, deal=deal, limit=limit)
    room = new_snapshot(
        room_id or new_room_id(),
        variant=variant,
        players=len(seats),
        mode=mode,
        state=state,
        seats=seats,
        now=now,
        spectators=spectators,
        turn_seconds=turn_seconds,
    )
    return room if room.is_waiting else replace(room, turn_deadline=first_deadline(room, now))


def new_room_id() -> str:
    """A new room's id: 72 random bits, URL-safe."""
    return secrets.token_urlsafe(9)


def new_match_seed() -> bytes:
    """A random match's seed: the 32 bytes rules.new_game deals every hand from."""
    return secrets.token_bytes(32)


def table_players(variant: str, players: int | None, limit: int | None) -> int:
    """The player count of a table of `variant` (its fewest when None), checked with the
    penalty limit. Raises InvalidRequest."""
    if variant not in rules.VARIANTS:
        raise InvalidRequest(f"unknown variant {shown(variant)!r}; see GET /api/variants")
    ruleset = rules.get_variant(variant)
    low, high = players_range(ruleset)
    players = low if players is None else players
    if not low <= players <= high:
        raise InvalidRequest(f"{variant} takes {low} to {high} players")
    if limit is not None and limit not in ruleset.penalty_limits:
        raise InvalidRequest(f"limit: {variant} takes none of {limit}; see GET /api/variants")
    return players


def lobby_seats(
    mode: str, players: int, name: str, seat_bots: Mapping[int, str]
) -> tuple[list[NewSeat], list[str | None]]:
    """The seats of a new room and the token of each human one (None for the others): the
    creator in seat 0, the computer's seats named, the other humans' seats free in an
    online room and held by the creator's device in a local one."""
    tokens: list[str | None] = []
    seats: list[NewSeat] = []
    for i in range(players):
        bot = seat_bots.get(i)
        human_here = i == 0 or (mode == "local" and bot is None)
        token = new_token() if human_here else None
        tokens.append(token)
        seat_name = name if i == 0 else (f"Player {i + 1}" if human_here else None)
        if bot is not None:
            seat_name = bot_seat_name(i, [s.name for s in seats])
        seats.append(
            NewSeat(name=seat_name, token_hash=hash_token(token) if token else None, bot=bot)
        )
    return seats, tokens


def seat_bots(mode: str, players: int, chosen: Mapping[str, str]) -> dict[int, str]:
    """The computer's seats as asked (`bots` of POST /api/rooms: seat number -> name); in
    a computer room every other seat too, at the default level. Raises InvalidRequest."""
    found: dict[int, str] = {}
    for key, strategy in chosen.items():
        # Compared as text: int() fails on "²" (a digit to str.isdigit) and on 5,000 digits.
        if key not in {str(seat) for seat in range(1, players)}:
            raise InvalidRequest(
                f"bots: seat {shown(key)!r} must be a number from 1 to {players - 1}"
            )
        if not is_known_bot(strategy):
            raise InvalidRequest(f"bots: unknown strategy {shown(strategy)!r}")
        found[int(key)] = strategy
    if mode == "computer":
        for i in range(1, players):
            found.setdefault(i, DEFAULT_BOT)
    return dict(sorted(found.items()))


def is_known_bot(name: str) -> bool:
    return name in bots.NAMES


def players_range(ruleset: rules.RuleSet) -> tuple[int, int]:
    """(fewest, most) players of a rule set."""
    return ruleset.min_players, ruleset.max_players
