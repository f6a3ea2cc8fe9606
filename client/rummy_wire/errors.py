"""The error body every refusal has (docs/api.md, "Errors"): a code from one closed set, a
message, for a 422 every invalid field, and for a stale version the seat's current view."""

from __future__ import annotations

from pydantic import BaseModel, Field

from rummy_wire.choices import ErrorCode
from rummy_wire.views import RoomView


class FieldError(BaseModel):
    """One invalid field of a request or a frame."""

    loc: list[str | int] = Field(
        description='where the field is: "body" (or "query", "path", "header"), then keys '
        "and list indexes"
    )
    message: str


class ErrorDetail(BaseModel):
    code: ErrorCode
    message: str = Field(description="for people; never matched on")
    details: list[FieldError] | None = Field(
        None, description="a 422's invalid fields, every one of them; absent on other errors"
    )


class ErrorBody(BaseModel):
    error: ErrorDetail
    state: RoomView | None = Field(
        None, description="409 `stale_version`: the seat's current view, to resync from"
    )
