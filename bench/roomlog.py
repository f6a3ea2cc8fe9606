"""What a room's states and log say, for the benches' audits: the phases in which a seat
moves, the cards a seat's view accounts for, and the moves and versions of a room's log
(`GET /api/rooms/{id}/log`, finished hands only)."""

from __future__ import annotations

import json
from typing import Any

PLAYING = ("draw", "play")


def conserved(state: dict[str, Any]) -> int:
    """Cards accounted for in one seat's view; must equal the deck size at every version."""
    others = sum(n for i, n in enumerate(state["hand_counts"]) if i != state["seat"])
    cards: int = (
        len(state["hand"])
        + others
        + state["stock_count"]
        + state["discard_count"]
        + sum(len(m["cards"]) for m in state["melds"])
    )
    return cards


def log_moves(log: Any) -> list[tuple[int | None, int, dict[str, Any]]]:
    """(version made, seat, move) for every move in a room's log, whatever hand it is in."""
    hands = log.get("hands", []) if isinstance(log, dict) else log
    out: list[tuple[int | None, int, dict[str, Any]]] = []
    for hand in hands:
        for entry in hand.get("moves", []):
            out.append((entry.get("version"), entry["seat"], entry["move"]))
    return out


def log_gaps(log: Any) -> int:
    """Versions missing or repeated in the log: its moves and votes, over every finished
    hand, must be exactly 1, 2, ..., n (every accepted move or vote takes one version)."""
    hands = log.get("hands", []) if isinstance(log, dict) else log
    versions = sorted(
        e["version"] for hand in hands for e in (*hand.get("moves", ()), *hand.get("votes", ()))
    )
    missing = len(set(range(1, versions[-1] + 1)) - set(versions)) if versions else 0
    return missing + len(versions) - len(set(versions))


def log_covers(log: Any) -> int:
    """The last version the log holds: it shows finished hands only."""
    hands = log.get("hands", []) if isinstance(log, dict) else log
    return max((hand.get("end_version") or 0 for hand in hands), default=0)


def same_move(logged: dict[str, Any], sent: dict[str, Any]) -> bool:
    if logged.get("type") != sent.get("type"):
        return False
    if sent["type"] == "draw":
        return logged.get("source") == sent.get("source")
    return all(json.dumps(logged.get(k)) == json.dumps(v) for k, v in sent.items() if v is not None)
