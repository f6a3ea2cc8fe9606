"""/docs (Swagger UI) and /redoc (ReDoc), from files this project installs.

FastAPI's own pages load their scripts, styles and fonts from public CDNs, unpinned and
without integrity, onto the very origin whose localStorage holds the seat tokens, and show
a blank page without internet. Here the bundles come from the `fastapi-offline` package
(locked in uv.lock), served under /docs/assets/, and the pages carry a Content-Security-Policy
that lets them load nothing but this origin's own files: no third-party script runs here.
The pages start their viewer from a script file too (no inline script), so the policy needs
no 'unsafe-inline' for scripts; ReDoc's and Swagger UI's inline styles need it for styles.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response

router = APIRouter(include_in_schema=False)

ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"
_FILES = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "redoc.standalone.js": "text/javascript",
    "favicon.png": "image/png",
}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
# Swagger UI's start: no validator badge (it loaded an image from a public validator).
_SWAGGER_INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
"""


def _page(title: str, head: str, body: str) -> HTMLResponse:
    html = (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{title}</title>\n<link rel="icon" href="/docs/assets/favicon.png">\n{head}'
        f"</head>\n<body>\n{body}</body>\n</html>\n"
    )
    return HTMLResponse(html, headers=_HEADERS)


@router.get("/docs")
async def swagger_ui() -> HTMLResponse:
    return _page(
        "rummy API: Swagger UI",
        '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">\n',
        '<div id="swagger-ui"></div>\n<script src="/docs/assets/swagger-ui-bundle.js"></script>\n'
        '<script src="/docs/assets/swagger-init.js"></script>\n',
    )


@router.get("/redoc")
async def redoc() -> HTMLResponse:
    return _page(
        "rummy API: ReDoc",
        "",
        '<redoc spec-url="/openapi.json"></redoc>\n'
        '<script src="/docs/assets/redoc.standalone.js"></script>\n',
    )


@router.get("/docs/assets/swagger-init.js")
async def swagger_init() -> Response:
    return Response(_SWAGGER_INIT, media_type="text/javascript", headers=_HEADERS)


@router.get("/docs/assets/{name}")
async def asset(name: str) -> FileResponse:
    """One of the installed bundles (only these names: no path reaches another file)."""
    kind = _FILES.get(name)
    if kind is None:
        raise HTTPException(404)
    headers = {**_HEADERS, "Cache-Control": "public, max-age=86400"}
    return FileResponse(ASSETS / name, media_type=kind, headers=headers)
