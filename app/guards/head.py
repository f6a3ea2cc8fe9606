"""`HEAD` answers like `GET` without the body, on every GET route (API and web pages).

FastAPI's routes match only the methods they list, so a `HEAD` (what link checkers, probes
and caches send) got 405 from every `GET` route. Routing it as `GET` and dropping the body
keeps the status and headers (`content-length` included) exactly those of the `GET`, with
no route listing `HEAD` twice in the OpenAPI.
"""

from __future__ import annotations

from starlette.types import Message, Scope, Send


def as_get(scope: Scope, send: Send) -> tuple[Scope, Send]:
    """A `HEAD` request's scope as a `GET`'s, and a `send` that leaves the body out (the
    guards, the app's one middleware, serve every `HEAD` through it)."""

    async def send_headers_only(message: Message) -> None:
        if message["type"] in ("http.response.body", "http.response.pathsend"):
            if message.get("more_body", False):
                return
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await send(message)

    return {**scope, "method": "GET"}, send_headers_only
