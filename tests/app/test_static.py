"""The web app's files over real HTTP: scripts and styles gzipped with an ETag that a
returning browser revalidates (304), each also at a content-hashed URL kept a year
(immutable) that the page's import map and links name, every page served with a CSP and
headers that forbid another site to frame it (clickjacking), and the cacheable JSON (the
rule sets, the API's documents) compressed and tagged."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re

import httpx

from tests.kit.servers import LiveServer

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


async def test_the_page_names_hashed_urls_kept_a_year(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        page = await http.get("/")
        html = page.text
        css = re.search(r'href="(/web/css/app\.[0-9a-f]{12}\.css)"', html)
        entry = re.search(r'<script type="module" src="(/web/js/main\.[0-9a-f]{12}\.js)"', html)
        found = re.search(r'<script type="importmap">(.*?)</script>', html)
        assert css and entry and found, html[:600]
        # The map's one inline script is allowed by its hash, and nothing else inline is.
        digest = base64.b64encode(hashlib.sha256(found[1].encode()).digest()).decode()
        assert f"'sha256-{digest}'" in page.headers["content-security-policy"]
        imports = json.loads(found[1])["imports"]
        assert imports["/web/js/main.js"] == entry[1]
        assert re.fullmatch(r"/web/js/lang/nl\.[0-9a-f]{12}\.js", imports["/web/js/lang/nl.js"])
        for plain, hashed in [*imports.items(), ("/web/css/app.css", css[1])]:
            r = await http.get(hashed)
            assert r.status_code == 200, hashed
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable", hashed
            assert r.content == (await http.get(plain)).content, hashed
        # The page itself is asked for again on every visit; a hash that is not the
        # content's (an old page's, a guess) names nothing.
        assert page.headers["cache-control"] == "no-cache"
        wrong = re.sub(r"\.[0-9a-f]{12}\.", ".000000000000.", entry[1])
        assert (await http.get(wrong)).status_code == 404


async def test_cacheable_json_comes_compressed_and_tagged(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server, timeout=30) as http:
        for path in ("/api/variants", "/openapi.json", "/asyncapi.json"):
            async with http.stream("GET", path, headers=GZ) as r:
                raw = b"".join([chunk async for chunk in r.aiter_raw()])
            plain = await http.get(path, headers={"Accept-Encoding": "identity"})
            assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", path
            assert gzip.decompress(raw) == plain.content and len(raw) < len(plain.content) / 2
            assert plain.json() and r.headers["content-type"] == "application/json", path
            assert r.headers["cache-control"] == "no-cache" and r.headers["vary"], path
            again = await http.get(path, headers={**GZ, "If-None-Match": r.headers["etag"]})
            assert again.status_code == 304 and again.content == b"", path
            head = await http.head(path, headers=GZ)
            assert head.status_code == 200 and head.headers["etag"] == r.headers["etag"], path
        # Anything else is the API's own answer, untouched.
        other = await http.get("/api/rooms/nosuchroom00", headers=GZ)
        assert other.status_code == 404 and "etag" not in other.headers
