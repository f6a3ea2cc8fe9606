"""A new room, checked and dealt: its seats (the creator's, local players', computer seats),
their tokens, and the first turn's deadline. Pure: the room service stores what this makes."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any, NotRequired, TypedDict

import bots
import rules
from app.config import Settings
from app.errors import Forbidden, InvalidRequest
from app.persist.rows import NewSeat, Snapshot, new_snapshot
from app.rooms.tokens import hash_token, new_token, seed_bytes

# The computer seats' strategies and levels a room may name (POST /api/rooms `bots`).
BOT_NAMES = ("random", "greedy", "expert", "easy", "medium", "hard")
DEFAULT_BOT = "greedy"
# The names computer seats sit under, one per seat, the same on the table, in the record and
# in the replay. Named after their level, three bots at one table were three "Greedy bot"s
# (and their seats three same-named regions); the web app renamed them on the table only.
# Seat i takes the i-th name (modulo), the name the web app gave it; a later change unifies
# this list with the web app's (web/js/lang, for rooms made before it).
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
    players = _players(variant, players, limit)
    seat_bots = _seat_bots(mode, players, bots)
    state = rules.new_game(
        variant,
        players,
        seed=seed_bytes(seed) if seed is not None else secrets.token_bytes(32),
        deal=deal,
        limit=limit,
    )
    seats, tokens = _seats(mode, players, name, seat_bots)
    # A room full from the start (local, computer) starts its first turn's timer now; an
    # online room when its last seat is taken (`RoomService.join`).
    full = all(t is not None or i in seat_bots for i, t in enumerate(tokens))
    timed = turn_seconds and full and state.turn not in seat_bots
    room = new_snapshot(
        secrets.token_urlsafe(9),  # 72 bits
        variant=variant,
        players=players,
        mode=mode,
        state=state,
        seats=seats,
        now=now,
        spectators=spectators,
        turn_seconds=turn_seconds,
        turn_deadline=now + timedelta(seconds=turn_seconds) if timed and turn_seconds else None,
    )
    return room, tokens


def _players(variant: str, players: int | None, limit: int | None) -> int:
    if variant not in rules.VARIANTS:
        raise InvalidRequest(f"unknown variant {variant!r}; see GET /api/variants")
    ruleset = rules.get_variant(variant)
    low, high = players_range(ruleset)
    players = low if players is None else players
    if not low <= players <= high:
        raise InvalidRequest(f"{variant} takes {low} to {high} players")
    if limit is not None and limit not in ruleset.penalty_limits:
        raise InvalidRequest(f"limit: {variant} takes none of {limit}; see GET /api/variants")
    return players


def _seats(
    mode: str, players: int, name: str, seat_bots: dict[int, str]
) -> tuple[list[NewSeat], list[str | None]]:
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


def _seat_bots(mode: str, players: int, chosen: Mapping[str, str]) -> dict[int, str]:
    seat_bots: dict[int, str] = {}
    for key, strategy in chosen.items():
        if not key.isdigit() or not 1 <= int(key) < players:
            raise InvalidRequest(f"bots: seat {key!r} must be a number from 1 to {players - 1}")
        if not is_known_bot(strategy):
            raise InvalidRequest(f"bots: unknown strategy {strategy!r}")
        seat_bots[int(key)] = strategy
    if mode == "computer":
        for i in range(1, players):
            seat_bots.setdefault(i, DEFAULT_BOT)
    return seat_bots


def is_known_bot(name: str) -> bool:
    if name in BOT_NAMES:
        return True
    try:
        bots.get_strategy(name)
    except Exception:
        return False
    return True


def players_range(ruleset: Any) -> tuple[int, int]:
    """(fewest, most) players of a rule set."""
    for low_name, high_name in (("min_players", "max_players"), ("players_min", "players_max")):
        if hasattr(ruleset, low_name):
            return int(getattr(ruleset, low_name)), int(getattr(ruleset, high_name))
    players = ruleset.players
    return int(players[0]), int(players[-1])
