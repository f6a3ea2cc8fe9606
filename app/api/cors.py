"""Cross-origin calls from pages on other sites (docs/api.md, "CORS"): off unless
`RUMMY_CORS_ORIGINS` names the origins allowed, with Starlette's own middleware.

No credentials: the API has no cookies, a seat token travels in `Authorization`, which a
page on an allowed origin sends as a header the preflight allows. The headers a client
needs to pace itself and to follow a move without its view are exposed to scripts."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

ALLOWED_HEADERS = ("Authorization", "Content-Type", "Prefer")
EXPOSED_HEADERS = (
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    "Rummy-Version",
    "Preference-Applied",
    "WWW-Authenticate",
)
# How long a browser may keep a preflight's answer.
MAX_AGE_SECONDS = 600


def origins(setting: str) -> list[str]:
    """The origins of `RUMMY_CORS_ORIGINS`: comma-separated, spaces and a trailing slash
    ignored (an origin has no path).

    >>> origins(" https://a.example/ , http://b.example:8080")
    ['https://a.example', 'http://b.example:8080']
    >>> origins("")
    []
    """
    return [o.strip().rstrip("/") for o in setting.split(",") if o.strip()]


def install(app: FastAPI, setting: str) -> None:
    """Answer preflights and mark answers for the allowed origins; nothing when none."""
    allowed = origins(setting)
    if not allowed:
        return  # a preflight is then an OPTIONS like any other: 405
    app.add_middleware(
        CORSMiddleware,
        allow_origins=allowed,
        allow_credentials=False,
        allow_methods=["GET", "HEAD", "POST"],
        allow_headers=list(ALLOWED_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        max_age=MAX_AGE_SECONDS,
    )
