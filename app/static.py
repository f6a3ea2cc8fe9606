"""The web app's files: read and gzip-compressed once when the app is made, then served from
memory with an ETag, and every page with headers that forbid framing and limit what it may
load.

Why from memory: the whole app is about 300 KB of text, which gzip brings to about a
quarter; compressing it once at start costs some 50 ms, and a request then never touches
the disk nor compresses anything. A path is looked up among the files found at start, so
no request can name a file outside the folder. The module URLs stay as they are (no build
step, ES modules import each other by name), so caches revalidate (`no-cache`) and get a
304 while the ETag holds.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException

# What a page of ours may do: load its own scripts, styles and data, talk to its own server
# (the websocket included), and be framed by nobody (clickjacking).
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
COMPRESSIBLE = {".html", ".js", ".css", ".json", ".svg", ".md", ".txt"}
MIN_GZIP = 512  # smaller files gain too little to be worth the header
_FALLBACK_PAGE = b"<!doctype html><title>rummy</title><p>The web app is not installed here.</p>"


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    etag: str  # of `body`; the gzipped form's is the same with "-gz"
    media_type: str


def _asset(body: bytes, name: str) -> Asset:
    media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type in (
        "application/javascript",
        "text/javascript",
    ):
        media_type += "; charset=utf-8"
    packed = None
    if Path(name).suffix in COMPRESSIBLE and len(body) >= MIN_GZIP:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
    return Asset(body, packed, hashlib.sha256(body).hexdigest()[:20], media_type)


def load(root: Path) -> dict[str, Asset]:
    """Every file under `root` by its path relative to it ("js/main.js")."""
    if not root.is_dir():
        return {}
    return {
        path.relative_to(root).as_posix(): _asset(path.read_bytes(), path.name)
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def respond(request: Request, asset: Asset, page: bool = False) -> Response:
    """`asset` gzipped when the client accepts it, 304 when its ETag still holds."""
    gz = asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", "")
    etag = f'"{asset.etag}-gz"' if gz else f'"{asset.etag}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if page or asset.media_type.startswith("text/html"):
        headers.update(PAGE_HEADERS)
    else:
        headers["X-Content-Type-Options"] = "nosniff"
    seen = request.headers.get("if-none-match", "")
    if etag in (tag.strip() for tag in seen.split(",")) or seen.strip() == "*":
        return Response(status_code=304, headers=headers)
    if gz:
        headers["Content-Encoding"] = "gzip"
    body = asset.gzipped if gz and asset.gzipped is not None else asset.body
    return Response(body, media_type=asset.media_type, headers=headers)


def install(app: FastAPI, web_dir: Path) -> None:
    """index.html at / and /r/{room}; every other file under /web/ (never a mount at /)."""
    assets = load(web_dir)
    index = assets.get("index.html") or _asset(_FALLBACK_PAGE, "index.html")

    async def page(request: Request) -> Response:
        return respond(request, index, page=True)

    async def file(request: Request, path: str) -> Response:
        asset = assets.get(path)
        if asset is None:
            raise HTTPException(404)  # the API's error shape (app/main.py's handler)
        return respond(request, asset)

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/r/{room}", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/c/{challenge}", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/web/{path:path}", file, methods=["GET"], include_in_schema=False)
