"""The web app's files over real HTTP: scripts and styles gzipped with an ETag that a
returning browser revalidates (304), and every page served with a CSP and headers that
forbid another site to frame it (clickjacking)."""

from __future__ import annotations

import gzip

import httpx
from rummytest import LiveServer

GZ = {"Accept-Encoding": "gzip, deflate, br"}


async def test_scripts_and_styles_come_compressed_with_an_etag(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        for path in ("/web/js/main.js", "/web/js/render-table.js", "/web/css/app.css"):
            # A raw stream: httpx would otherwise inflate the body and hide the encoding.
            async with http.stream("GET", path, headers=GZ) as r:
                raw = b"".join([chunk async for chunk in r.aiter_raw()])
            assert r.status_code == 200, path
            assert r.headers["content-encoding"] == "gzip", path
            assert r.headers["vary"] == "Accept-Encoding", path
            plain = await http.get(path, headers={"Accept-Encoding": "identity"})
            assert "content-encoding" not in plain.headers, path
            assert gzip.decompress(raw) == plain.content, path
            assert len(raw) < len(plain.content) / 2, path
            assert r.headers["etag"] != plain.headers["etag"], path  # two representations
            again = await http.get(path, headers={**GZ, "If-None-Match": r.headers["etag"]})
            assert again.status_code == 304 and again.content == b"", path
            assert again.headers["etag"] == r.headers["etag"], path
        assert (
            (await http.get("/web/js/main.js"))
            .headers["content-type"]
            .startswith("text/javascript")
        )


async def test_every_page_forbids_framing_and_sets_a_csp(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        for path in ("/", "/r/someroom", "/web/index.html", "/web/verify.html"):
            r = await http.get(path, headers=GZ)
            assert r.status_code == 200, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert r.headers["x-frame-options"] == "DENY", path
            csp = r.headers["content-security-policy"]
            for rule in ("frame-ancestors 'none'", "default-src 'self'", "script-src 'self'"):
                assert rule in csp, (path, csp)
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
            assert r.headers["x-content-type-options"] == "nosniff", path


async def test_no_file_outside_the_web_folder(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        for path in ("/web/../app/main.py", "/web/%2e%2e/app/main.py", "/web/nosuch.js"):
            r = await http.get(path)
            assert r.status_code == 404, path
            assert r.json()["error"]["code"] == "not_found", path
