"""A match record checked as a whole (docs/api.md v1.3, docs/record.md "How a record is
checked"), beyond each hand and the chain between hands (app/records/format.py
`record_problems`): the options fit the variant, the names fit its players, the match ends
when its limit is reached and not before, and the server's signature holds.

Checking each hand against the one before misses what only the whole match shows. The
chain finds 100 points added to a seat's starting and final scores in every hand, all
scores shifted, the first hand dropped, or every hand numbered 7; the options check finds
`limit` 999 on classic; and any change at all to a signed record, names swapped among
them, fails its signature, which `--key` or `--server` checks.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

import rules
from app.records.signing import ALG, from_b64url
from rummy_wire.records import MatchRecord

TURN_SECONDS = (15, 600)  # POST /api/rooms `turn_seconds`


def options_problems(record: MatchRecord) -> list[str]:
    """What of the record's variant, options and names no room of this server could have."""
    if record.variant not in rules.VARIANTS:
        return [f"unknown variant {record.variant!r}"]
    ruleset = rules.get_variant(record.variant)
    problems = []
    players = len(record.players)
    if not ruleset.min_players <= players <= ruleset.max_players:
        problems.append(
            f"{players} players' names, but {record.variant} takes "
            f"{ruleset.min_players} to {ruleset.max_players} players"
        )
    limits = ruleset.penalty_limits or ((ruleset.penalty_limit,) if ruleset.penalty_limit else ())
    limit = record.options.limit
    if (limit is None) != (not limits) or (limit is not None and limit not in limits):
        allowed = " or ".join(map(str, limits)) if limits else "none (null)"
        problems.append(f"options.limit {limit} does not fit {record.variant}: it takes {allowed}")
    turn = record.options.turn_seconds
    if turn is not None and not TURN_SECONDS[0] <= turn <= TURN_SECONDS[1]:
        problems.append(f"options.turn_seconds {turn} is outside 15..600")
    return problems


def end_problems(
    record: MatchRecord, ends: Sequence[rules.GameState | None]
) -> list[tuple[int | None, str]]:
    """Whether the match ends where its limit is reached: `ends[i]` is hand i replayed to
    its end (None where it could not be). (index of the hand or None for the match, problem)"""
    problems: list[tuple[int | None, str]] = []
    for i, end in enumerate(ends[:-1]):
        if end is not None and end.match_winner:
            problems.append((i + 1, f"the match was over after hand {i}, yet this hand follows"))
    last = ends[-1] if ends else None
    if ends and last is None:
        return problems  # the last hand's own failure says why
    over = list(last.match_winner) if last is not None and last.match_winner else None
    if record.match_winner != over:
        stated = "still in play" if record.match_winner is None else f"won by {record.match_winner}"
        actual = "still in play" if over is None else f"won by {over}"
        problems.append(
            (None, f"the record says the match is {stated}, but its hands say {actual}")
        )
    return problems


def read_key(text: str) -> bytes:
    """A public key given as `--key`: 32 bytes, URL-safe base64. Raises ValueError."""
    raw = from_b64url(text)
    if len(raw) != 32:
        raise ValueError(f"a server key is 32 bytes of URL-safe base64, not {len(raw)} bytes")
    return raw


def fetch_key(server: str) -> bytes:
    """The public key a server publishes at GET /api/server-key. Raises ValueError."""
    url = server.rstrip("/") + "/api/server-key"
    try:
        answer = httpx.get(url, timeout=30)
        answer.raise_for_status()
        data = answer.json()
    except (httpx.HTTPError, ValueError) as exc:
        raise ValueError(f"cannot read the server's key at {url}: {exc}") from None
    if not isinstance(data, dict) or data.get("alg") != ALG or not isinstance(data.get("key"), str):
        raise ValueError(f"{url} does not answer an {ALG} key")
    return read_key(data["key"])
