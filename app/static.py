"""The web app's files: read, hashed and gzip-compressed once when the app is made, then
served from memory; every page with headers that forbid framing and limit what it may load;
and the app's cacheable JSON (the rule sets, the API's own documents) compressed and tagged.

Why from memory: the whole app is about 300 KB of text, which gzip brings to about a
quarter; compressing it once at start costs some 50 ms, and a request then never touches
the disk nor compresses anything. A path is looked up among the files found at start, so
no request can name a file outside the folder.

Why hashed URLs: each file is also served at a name holding its content's hash
(`js/store.3f9a0c12d4e5.js`), which never changes its content, so a browser keeps it a year
without asking again (`Cache-Control: immutable`): a reload asks for the page and its data
only. There is no build step: the modules still import each other by name
(`import ... from "./store.js"`); the server writes an import map into each page at start that
sends every module's plain URL to its hashed one, and rewrites the page's own `src` and
`href`. The map is an inline script, allowed by its hash in the page's CSP, and nothing else
inline is. The plain URLs still answer (revalidated: `no-cache` with an ETag, a 304 while it
holds), for anything that asks by name.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# What a page of ours may do: load its own scripts, styles and data, talk to its own server
# (the websocket included), and be framed by nobody (clickjacking). `script_src` adds the
# hash of the page's import map, its one inline script.
CSP_PARTS = (
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
CSP = "; ".join(CSP_PARTS)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
COMPRESSIBLE = {".html", ".js", ".css", ".json", ".svg", ".md", ".txt"}
MIN_GZIP = 512  # smaller files gain too little to be worth the header
HASH_CHARS = 12  # of the content's SHA-256 in a hashed name: 48 bits, no clash in one app
REVALIDATE = "no-cache"
IMMUTABLE = "public, max-age=31536000, immutable"
# The routes whose JSON is the same for every caller until the server changes (`CacheJson`).
CACHEABLE_JSON = ("/api/variants", "/api/server-key", "/openapi.json", "/asyncapi.json")
_FALLBACK_PAGE = b"<!doctype html><title>rummy</title><p>The web app is not installed here.</p>"
# A page's own references to the app's files: `src="/web/js/main.js"`, `href="/web/css/..."`.
_REFERENCE = re.compile(r'\b(src|href)="/web/([^"?#]+)"')
# A module's static imports of its neighbours: `from "./store.js"`, `import "./x.js"`.
_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;"]*?["\'](\.{1,2}/[^"\']+\.js)["\']', re.M)


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


def hashed_name(path: str, asset: Asset) -> str:
    """`path` with its content's hash before the extension.

    >>> hashed_name("js/store.js", _asset(b"x", "store.js"))
    'js/store.2d711642b726.js'
    """
    stem, dot, ext = path.rpartition(".")
    tag = asset.etag[:HASH_CHARS]
    return f"{stem}.{tag}{dot}{ext}" if dot else f"{path}.{tag}"


@dataclass(frozen=True)
class Page:
    asset: Asset
    csp: str


class WebApp:
    """The files of `web/`, each at its plain and its hashed path, and the pages rewritten
    to load the hashed ones."""

    def __init__(self, assets: dict[str, Asset]) -> None:
        self.assets = assets
        self.hashed = {hashed_name(p, a): p for p, a in assets.items() if not p.endswith(".html")}
        self.url = {p: f"/web/{h}" for h, p in self.hashed.items()}
        # Every module's plain URL to its hashed one: `./store.js` imported from any module
        # resolves to /web/js/store.js, which the map sends on (dynamic imports included).
        modules = {f"/web/{p}": u for p, u in self.url.items() if p.endswith(".js")}
        self.import_map = json.dumps({"imports": modules}, separators=(",", ":"), sort_keys=True)
        digest = hashlib.sha256(self.import_map.encode()).digest()
        script_src = f"script-src 'self' 'sha256-{base64.b64encode(digest).decode()}'"
        self.csp = "; ".join(script_src if p == "script-src 'self'" else p for p in CSP_PARTS)
        self.pages = {p: self._page(a) for p, a in assets.items() if p.endswith(".html")}

    def _page(self, asset: Asset) -> Page:
        """The page loading hashed URLs: its `src`/`href`, the import map before its first
        module, and a preload of that module's static imports (fetched at once, not one
        level of imports after another)."""
        html = asset.body.decode()
        entries = [p for _, p in _REFERENCE.findall(html) if p.endswith(".js")]
        html = _REFERENCE.sub(lambda m: f'{m[1]}="{self.url.get(m[2], "/web/" + m[2])}"', html)
        if entries and '<script type="module"' in html:
            preload = "".join(
                f'<link rel="modulepreload" href="{self.url[p]}">\n  '
                for p in self._graph(entries)
                if p in self.url and p not in entries
            )
            head = f'<script type="importmap">{self.import_map}</script>\n  {preload}'
            html = html.replace('<script type="module"', head + '<script type="module"', 1)
            return Page(_asset(html.encode(), "page.html"), self.csp)
        return Page(_asset(html.encode(), "page.html"), CSP)

    def _graph(self, entries: list[str]) -> list[str]:
        """The modules `entries` import, directly or not, in the order first met."""
        seen: list[str] = []
        todo = list(entries)
        while todo:
            path = todo.pop(0)
            if path in seen or path not in self.assets:
                continue
            seen.append(path)
            here = path.rpartition("/")[0]
            for spec in _IMPORT.findall(self.assets[path].body.decode(errors="replace")):
                todo.append(_join(here, spec))
        return seen


def _join(folder: str, spec: str) -> str:
    """A relative import's path from `folder`: ("js", "./lang/en.js") -> "js/lang/en.js"."""
    parts = folder.split("/") if folder else []
    for part in spec.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def respond(
    request: Request, asset: Asset, *, csp: str | None = None, cache: str = REVALIDATE
) -> Response:
    """`asset` gzipped when the client accepts it, 304 when its ETag still holds; a page
    (`csp` given, or HTML) with the page headers."""
    gz = asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", "")
    etag = f'"{asset.etag}-gz"' if gz else f'"{asset.etag}"'
    headers = {"ETag": etag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
    if csp is not None or asset.media_type.startswith("text/html"):
        headers.update({**PAGE_HEADERS, "Content-Security-Policy": csp or CSP})
    else:
        headers["X-Content-Type-Options"] = "nosniff"
    seen = request.headers.get("if-none-match", "")
    if etag in (tag.strip() for tag in seen.split(",")) or seen.strip() == "*":
        return Response(status_code=304, headers=headers)
    if gz:
        headers["Content-Encoding"] = "gzip"
    body = asset.gzipped if gz and asset.gzipped is not None else asset.body
    return Response(body, media_type=asset.media_type, headers=headers)


class CacheJson:
    """Pure ASGI: the answers of `CACHEABLE_JSON` compressed and tagged, gzip when accepted,
    a strong ETag of the content, 304 when the caller's copy still holds (`no-cache`: it asks
    each time, for one small answer). Each route's last body is kept with its gzip, so an
    unchanged answer is compared, not compressed again. Any other request, and every
    websocket, passes straight through (one lookup of its path); inside the guards, which
    have made a HEAD a GET already."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._last: dict[str, Asset] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] != "GET" or path not in CACHEABLE_JSON:
            await self.app(scope, receive, send)
            return
        start: dict[str, object] = {}
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, keep)
        body = b"".join(chunks)
        if start.get("status") != 200:
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        if path not in self._last or self._last[path].body != body:
            self._last[path] = _asset(body, "answer.json")
        await respond(Request(scope), self._last[path])(scope, receive, send)


def install(app: FastAPI, web_dir: Path) -> None:
    """index.html at /, /r/{room} and /c/{challenge}; every other file under /web/ (never a
    mount at /), at its plain path and its hashed one; the cacheable JSON compressed and
    tagged (installed before the guards, so inside them)."""
    web = WebApp(load(web_dir))
    index = web.pages.get("index.html") or Page(_asset(_FALLBACK_PAGE, "index.html"), CSP)

    async def page(request: Request) -> Response:
        return respond(request, index.asset, csp=index.csp)

    async def file(request: Request, path: str) -> Response:
        if path in web.pages:
            found = web.pages[path]
            return respond(request, found.asset, csp=found.csp)
        if path in web.hashed:
            return respond(request, web.assets[web.hashed[path]], cache=IMMUTABLE)
        asset = web.assets.get(path)
        if asset is None:
            raise HTTPException(404)  # the API's error shape (app/main.py's handler)
        return respond(request, asset)

    app.add_middleware(CacheJson)
    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/r/{room}", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/c/{challenge}", page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/web/{path:path}", file, methods=["GET"], include_in_schema=False)
