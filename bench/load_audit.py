"""The load bench's audit of one room through REST, after its seats stopped: every move a
seat saw acknowledged is in the room's log exactly once at the version it made, the log's
versions have no gaps, and every seat's final state holds the whole deck."""

from __future__ import annotations

from collections import Counter
from typing import Any

from load_seats import Room, Seats
from rawhttp import RawHTTP
from roomlog import log_covers, log_gaps, log_moves, same_move


async def audit_room(seats: Seats, room: Room) -> Counter[str]:
    """What the audit of `room` counted (rooms, acked, lost, duplicated, version_gaps, ...);
    each problem also goes to `seats.stats`."""
    result = Counter(rooms=1)
    http = RawHTTP(seats.urls[0])
    try:
        status, log = await http.request("GET", f"/api/rooms/{room.id}/log", token=room.tokens[0])
        if status != 200:
            result["log_http_error"] += 1
            if status >= 500:
                seats.stats.server_errors["http_5xx"] += 1
            seats.stats.problem(f"{room.id}: GET log {status}")
            return result
        entries = log_moves(log)
        versions = [v for v, _, _ in entries if v is not None]
        if versions and versions != sorted(set(versions)):
            result["log_version_order"] += 1
            seats.stats.problem(f"{room.id}: log versions repeat or go back")
        await _final_states(seats, room, http, result)
        _acked_in_log(seats, room, entries, log_covers(log), result)
        if entries:
            gaps = log_gaps(log)
            if gaps:
                result["version_gaps"] += gaps
                seats.stats.problem(f"{room.id}: {gaps} version gaps in the log")
        return result
    finally:
        await http.close()


async def _final_states(seats: Seats, room: Room, http: RawHTTP, result: Counter[str]) -> None:
    """Every seat's state holds the deck; the versions applied, from seat 0's."""
    for seat in range(room.players):
        status, state = await http.request(
            "GET", f"/api/rooms/{room.id}/state", token=room.tokens[seat]
        )
        if status != 200:
            result["state_http_error"] += 1
            if status >= 500:
                seats.stats.server_error("http_5xx", f"{room.id}: GET state {status}")
            continue
        seats.check_state(room, seat, state)
        if seat == 0:
            result["versions"] += state["version"]  # moves and votes applied


def _acked_in_log(
    seats: Seats,
    room: Room,
    entries: list[tuple[int | None, int, dict[str, Any]]],
    covered: int,
    result: Counter[str],
) -> None:
    """Each move sent: once in the log at the version it made if it was acknowledged, and
    never twice in any case (`covered`: the last version the log holds)."""
    by_version: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for version, seat, move in entries:
        if version is not None:
            by_version.setdefault(version, []).append((seat, move))
    for sent in room.sent:
        made = sent.version + 1
        matches = [
            1
            for seat, move in by_version.get(made, ())
            if seat == sent.seat and same_move(move, sent.move)
        ]
        if sent.acked and made > covered:
            # In a hand still being played when the run ended: not in the log yet.
            result["unfinished"] += 1
        elif sent.acked:
            result["acked"] += 1
            if len(matches) == 0:
                result["lost"] += 1
                seats.stats.problem(f"{room.id}: acked move v{made} seat {sent.seat} not in log")
            elif len(matches) > 1:
                result["duplicated"] += 1
                seats.stats.problem(
                    f"{room.id}: acked move v{made} seat {sent.seat} logged {len(matches)}x"
                )
        elif len(matches) > 1:
            result["duplicated"] += 1
