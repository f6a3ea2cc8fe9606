"""/docs and /redoc from files the project installs (app/api/docs.py): on a869841 both pages
loaded their scripts and fonts from public CDNs (unpinned, no integrity) onto the origin
whose localStorage holds seat tokens, and were blank without internet. Now, in Chromium
with every request off the origin refused, each renders the API from the origin alone,
under a Content-Security-Policy that it never trips."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.kit.browsers import CHROMIUM, CHROMIUM_ARGS
from tests.kit.servers import LiveServer


def test_the_pages_load_only_this_origins_files(live_server: LiveServer) -> None:
    for path in ("/docs", "/redoc"):
        page = httpx.get(live_server + path)
        assert page.status_code == 200
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp
        assert "http" not in page.text.replace(str(live_server), "")  # no other origin named
        assert "<script>" not in page.text  # no inline script: the policy allows none
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
        got = httpx.get(f"{live_server}/docs/assets/{asset}")
        assert got.status_code == 200 and len(got.content) > 100_000
    assert httpx.get(f"{live_server}/docs/assets/..%2Fcore.py").status_code == 404
    assert httpx.get(f"{live_server}/docs/oauth2-redirect").status_code in (200, 404)


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's Chromium is not installed")
@pytest.mark.parametrize(("path", "shown"), [("/docs", ".opblock"), ("/redoc", "h1")])
async def test_the_pages_render_offline_under_their_policy(
    live_server: LiveServer, path: str, shown: str
) -> None:
    from playwright.async_api import async_playwright

    offsite: list[str] = []
    complaints: list[str] = []

    async def only_here(route: object) -> None:
        url = route.request.url  # type: ignore[attr-defined]
        if url.startswith(str(live_server)) or url.startswith(("data:", "blob:")):
            await route.continue_()  # type: ignore[attr-defined]
        else:
            offsite.append(url)
            await route.abort()  # type: ignore[attr-defined]

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page()
            await page.route("**/*", only_here)
            page.on("pageerror", lambda exc: complaints.append(f"error: {exc}"))
            page.on(
                "console",
                lambda msg: (
                    complaints.append(msg.text)
                    if msg.type == "error" or "Content Security Policy" in msg.text
                    else None
                ),
            )
            await page.goto(live_server + path)
            await page.locator(shown).first.wait_for(timeout=60_000)
            text = await page.locator("body").inner_text()
            assert "/api/rooms" in text or "rooms" in text.lower()
        finally:
            await browser.close()
    # ReDoc's sidebar links its vendor's logo from a CDN: the policy blocks that image (and
    # ReDoc hides it). Anything else the policy had to block, or any error, fails.
    blocked_logo = [c for c in complaints if c.startswith("Loading the image 'https://cdn.redoc")]
    assert offsite == [] and complaints == blocked_logo, (offsite, complaints)
