"""Checks of the server's answers: the status and body of a success, the code of an error in
docs/api.md's shape."""

from __future__ import annotations

from typing import Any

import httpx


def ok(response: httpx.Response, status: int = 200) -> Any:
    """The JSON body, after checking the status."""
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()


def error_code(response: httpx.Response, status: int | None = None) -> str:
    """The `error.code` of an error in docs/api.md's shape, after checking the status when
    one is given."""
    if status is not None:
        assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    error = body["error"]
    # `details` names every invalid field of a 422, and comes with no other status
    # (docs/api.md, "Errors").
    assert set(error) - {"details"} == {"code", "message"}, body
    assert ("details" in error) <= (response.status_code == 422), body
    assert isinstance(error["message"], str) and error["message"], body
    return str(error["code"])
