"""The error answers a route can give, for its `responses=` (docs/api.md's error table, and
the 408/413/429 of app/guards/), so that the OpenAPI document lists every one of them."""

from __future__ import annotations

from typing import Any

from fastapi import Response

from app.views import ErrorBody

_TEXT = {
    401: "Missing or unknown seat token (`unauthorized`)",
    403: "A token of another room (`forbidden`)",
    404: "No such room (`room_not_found`)",
    408: "The body did not arrive in time (`request_timeout`)",
    409: "Stale `version`, not your turn or room full (`stale_version`, ...)",
    410: "The room expired (`room_expired`)",
    413: "Request body too large (`payload_too_large`)",
    415: "The body is not `application/json` (`unsupported_media_type`)",
    429: "Too many requests from this client (`rate_limited`)",
}
_RETRY_AFTER = {
    "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}},
}
# The IETF httpapi RateLimit header fields (draft 9) on the routes that spend a rate.
RATE_HEADERS = {
    "RateLimit-Policy": {
        "description": 'the rate this route spends: `"<name>";q=<quota>;w=<window seconds>`',
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": 'what is left of it: `"<name>";r=<remaining>;t=<seconds to reset>`',
        "schema": {"type": "string"},
    },
}
_CHALLENGE = {
    "WWW-Authenticate": {
        "description": 'the scheme to authenticate with: `Bearer realm="rummy"`',
        "schema": {"type": "string"},
    },
}


def errors(*statuses: int, **texts: str) -> dict[int | str, dict[str, Any]]:
    """`responses=` for these statuses; `texts` overrides a description (`e403="..."`)."""
    answers: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        answer: dict[str, Any] = {
            "model": ErrorBody,
            "description": texts.get(f"e{status}", _TEXT[status]),
        }
        if status == 429:
            answer["headers"] = {**_RETRY_AFTER, **RATE_HEADERS}
        elif status == 401:
            answer["headers"] = _CHALLENGE
        answers[status] = answer
    return answers


# A route a seat's token opens, and anyone without one too where the room lets spectators
# watch: beside the bearer requirement FastAPI lists, OpenAPI's empty one says the token
# may be left out.
TOKEN_OR_SPECTATOR: dict[str, Any] = {"security": [{}]}


def limited(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route that spends a rate (app/guards/ratelimit.py): its answers
    say what is left (`RateLimit`), and it may answer 429."""
    return {**{s: {"headers": RATE_HEADERS} for s in statuses}, **errors(429)}


# A body the guards read (any POST); a room's URL (any method: 429 once failed token checks
# from the client ran out); a seat's own routes (its token).
BODY = (408, 413, 415)
ROOM = (404, 410, 429)
SEAT = (401, 403, *ROOM)


def view_response(text: str) -> Response:
    """A view already serialized once for every socket and request of its version
    (app/views/seat.py `view_text`): sent as it is, not validated and serialized again."""
    return Response(content=text, media_type="application/json")
