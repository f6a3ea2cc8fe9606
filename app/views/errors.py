"""The error body every refusal has (API.md's error shape): a code, a message, and for a
stale version the seat's current view."""

from __future__ import annotations

from pydantic import BaseModel

from app.views.seat import RoomView


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail
    state: RoomView | None = None
