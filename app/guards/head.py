"""`HEAD` answers like `GET` without the body, on every GET route (API and web pages).

FastAPI's routes match only the methods they list, so a `HEAD` (what link checkers, probes
and caches send) got 405 from every `GET` route. Routing it as `GET` and dropping the body
keeps the status and headers (`content-length` included) exactly those of the `GET`, with
no route listing `HEAD` twice in the OpenAPI.
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """Pure ASGI middleware: a `HEAD` request is served as `GET`, its body left out."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] in ("http.response.body", "http.response.pathsend"):
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


def install(app: Any) -> None:
    """Serve `HEAD` on every `GET` route of `app` (a FastAPI or Starlette app)."""
    app.add_middleware(HeadAsGet)
