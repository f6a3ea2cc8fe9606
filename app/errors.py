"""App errors: each has a stable `code` (public API, one of `rummy_wire.choices.ErrorCode`, each
explained in docs/api.md) and an HTTP status.

Rules errors (rules.IllegalMove) are mapped beside these in main.py's one handler.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from app.metrics import M  # every error answered passes error_payload: counted there
from rummy_wire.choices import ErrorCode


class AppError(Exception):
    status: ClassVar[int] = 400
    code: ClassVar[ErrorCode] = "bad_request"
    # Headers its HTTP answer carries besides the body.
    headers: ClassVar[Mapping[str, str]] = {}
    # Seconds a client should wait before trying again: every 429 and 503 answer carries it
    # as `Retry-After` (docs/api.md v1.3), 1 s unless the refusal knows better.
    retry_after: float | None = None

    def __init__(
        self,
        message: str,
        *,
        details: list[dict[str, Any]] | None = None,
        retry_after: float | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        # A 422's invalid fields (`field_errors`), inside the body's "error".
        self.details = details
        if retry_after is not None:
            self.retry_after = retry_after
        # Extra top-level fields of the error body, e.g. the current view for stale_version.
        self.extra = extra


class Unauthorized(AppError):
    status = 401
    code = "unauthorized"
    # RFC 9110 and 6750: a 401 says which scheme would do.
    headers = {"WWW-Authenticate": 'Bearer realm="rummy"'}


class Forbidden(AppError):
    status = 403
    code = "forbidden"


class RoomNotFound(AppError):
    status = 404
    code = "room_not_found"


class NotFound(AppError):
    status = 404
    code: ClassVar[ErrorCode] = "not_found"


class StaleVersion(AppError):
    status = 409
    code = "stale_version"


class RoomFull(AppError):
    status = 409
    code = "room_full"


class SeatPresent(AppError):
    """A stand-in asked for a seat whose owner is at the table (or left too recently)."""

    status = 409
    code = "seat_present"


class WaitingForPlayers(AppError):
    status = 409
    code = "waiting_for_players"


class RequestTimeout(AppError):
    status = 408
    code = "request_timeout"


class RoomExpired(AppError):
    status = 410
    code = "room_expired"


class PayloadTooLarge(AppError):
    status = 413
    code = "payload_too_large"


class UnsupportedMediaType(AppError):
    """A body that is not `application/json` (nor another `+json` type)."""

    status = 415
    code = "unsupported_media_type"


class InvalidRequest(AppError):
    status = 422
    code: ClassVar[ErrorCode] = "invalid_request"


class MalformedMove(InvalidRequest):
    """A move that is not one of the move shapes (before the rules see it)."""

    code = "invalid_move"


class InvalidText(InvalidRequest):
    """Text the one text policy refuses (rummy_wire/textpolicy.py): chat, or a lone surrogate in
    any JSON body or frame."""

    code = "invalid_text"


class RateLimited(AppError):
    status = 429
    code = "rate_limited"


class Unavailable(AppError):
    status = 503
    code = "unavailable"


# Rules codes that mean "not now" rather than "not legal".
_CONFLICT_CODES = frozenset({"not_your_turn", "wrong_phase"})


def error_payload(exc: Exception) -> tuple[int, dict[str, Any]]:
    """(status, body) of an app or rules error: the one place codes become statuses."""
    from rules import IllegalMove  # rules is a sibling package; imported late on purpose

    if isinstance(exc, AppError):
        M.errors[exc.code].inc()
        error: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if exc.details is not None:
            error["details"] = exc.details
        return exc.status, {"error": error, **exc.extra}
    if isinstance(exc, IllegalMove):
        M.errors[exc.code].inc()
        status = 409 if exc.code in _CONFLICT_CODES else 422
        return status, {"error": {"code": exc.code, "message": exc.message}}
    raise TypeError(f"not an API error: {type(exc).__name__}")


def retry_header(exc: Exception, status: int) -> dict[str, str] | None:
    """The `Retry-After` header of an answer of `status` to `exc` (429 and 503 only)."""
    if status not in (429, 503):
        return None
    wait = getattr(exc, "retry_after", None) or 1
    return {"Retry-After": str(max(1, math.ceil(wait)))}


def error_json(exc: Exception) -> tuple[int, bytes]:
    """(status, JSON body) of `error_payload`, for answers sent below FastAPI (app/guards/)."""
    status, body = error_payload(exc)
    return status, json.dumps(body).encode()


def field_errors(errors: Iterable[Mapping[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """A 422's message and `details` from pydantic's (or FastAPI's) errors: every invalid
    field, each with where it is and why (docs/api.md, "Errors"). The message names the
    first and counts the rest. What the client sent is shown by its first `SHOWN` characters
    at most (an unknown move type, a map's key).

    >>> field_errors([{"loc": ("body", "players"), "msg": "too small"}])
    ('body.players: too small', [{'loc': ['body', 'players'], 'message': 'too small'}])
    """
    details = [
        {"loc": [p if isinstance(p, int) else shown(str(p)) for p in e.get("loc", ())],
         "message": _field_message(e)}
        for e in errors
    ]  # fmt: skip
    if not details:
        return "invalid request", []
    first = details[0]
    message = ".".join(map(str, first["loc"])) + f": {first['message']}"
    if len(details) > 1:
        message += f" (and {len(details) - 1} more: see details)"
    return message, details


# pydantic's message for an unknown tag holds the tag as sent, and `loc` a map's keys as
# sent: a 3 KB move type came back twice. Their first characters say which field it was.
SHOWN = 40


def shown(text: str) -> str:
    """`text`, or its first `SHOWN` characters and an ellipsis.

    >>> shown("x" * 50)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    """
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _field_message(error: Mapping[str, Any]) -> str:
    """pydantic's message of one invalid field, the tag it quotes shortened (`shown`).

    >>> ctx = {"tag": "y" * 99, "discriminator": "'type'", "expected_tags": "'draw'"}
    >>> _field_message({"type": "union_tag_invalid", "ctx": ctx, "msg": "..."})[:20]
    "Input tag 'yyyyyyyyy"
    """
    ctx = error.get("ctx")
    if error.get("type") == "union_tag_invalid" and isinstance(ctx, Mapping):
        return (
            f"Input tag '{shown(str(ctx.get('tag')))}' found using {ctx.get('discriminator')} "
            f"does not match any of the expected tags: {ctx.get('expected_tags')}"
        )
    return str(error.get("msg", "invalid"))
