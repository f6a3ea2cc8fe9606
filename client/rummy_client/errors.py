"""What the client raises: the server's refusals, as docs/api.md names them."""

from __future__ import annotations

from rummy_client.models import RoomView


class ApiError(Exception):
    """A 4xx or 5xx answer: `code` is one of docs/api.md's codes (`ErrorCode`), or
    `http_error` for an answer not in the API's error shape (a proxy's, say); a 409
    `stale_version` carries the current view in `state`."""

    def __init__(self, status: int, code: str, message: str, state: RoomView | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.state = state


class SeatLost(RuntimeError):
    """The server refuses this seat for good (bad token, room gone): do not reconnect."""
