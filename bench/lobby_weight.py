"""What the lobby costs a browser: requests and bytes of a first visit and of a reload.

Each tree given is served by its own `rummy serve` (a fresh SQLite database, the tree's code),
and Debian's Chromium (Playwright) opens the lobby in a fresh profile, waits until the network
is idle, then reloads it. Chrome DevTools Protocol events count every request that went to
the network (a module the cache answered without asking counts as none) and the bytes that
came back for it, headers included (`Network.loadingFinished`'s `encodedDataLength`).
Trees are measured in turn, round after round, so a busy machine weighs on both alike.

    .venv/bin/python bench/lobby_weight.py                      # this tree
    git worktree add /tmp/base a869841
    .venv/bin/python bench/lobby_weight.py /tmp/base . --rounds 3 [--lang en]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servers import free_port

# Debian's Chromium and the flags that run it here (/work/shared/TESTING.md's recipe, which
# tests/kit/browsers.py follows too: bench/ does not import the tests' kit).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass
class Load:
    """One page load, as the network saw it."""

    requests: int = 0
    bytes: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    from_cache: int = 0  # answered by the browser's cache, nothing sent


class Traffic:
    """Counts a page's network requests and their bytes through a CDP session."""

    def __init__(self) -> None:
        self.sent: dict[str, str] = {}
        self.cached: set[str] = set()
        self.status: dict[str, int] = {}
        self.wire: dict[str, int] = {}
        self.size: dict[str, int] = {}

    def attach(self, cdp: Any) -> None:
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._response)
        # The status on the wire: a revalidated copy's 304 (`responseReceived` says 200, the
        # status of the copy it revalidated).
        cdp.on("Network.responseReceivedExtraInfo", self._wire)
        cdp.on("Network.loadingFinished", self._finished)

    def _sent(self, e: dict[str, Any]) -> None:
        if not e["request"]["url"].startswith("data:"):
            self.sent[e["requestId"]] = e["request"]["url"]

    def _response(self, e: dict[str, Any]) -> None:
        response = e["response"]
        self.status[e["requestId"]] = response["status"]
        if response.get("fromDiskCache") or response.get("fromMemoryCache"):
            self.cached.add(e["requestId"])

    def _wire(self, e: dict[str, Any]) -> None:
        self.wire[e["requestId"]] = int(e["statusCode"])

    def _finished(self, e: dict[str, Any]) -> None:
        self.size[e["requestId"]] = int(e.get("encodedDataLength", 0))

    def take(self) -> Load:
        load = Load()
        for rid in self.sent:
            if rid in self.cached:
                load.from_cache += 1
                continue
            load.requests += 1
            load.bytes += self.size.get(rid, 0)
            status = self.wire.get(rid, self.status.get(rid, 0))
            load.statuses[status] = load.statuses.get(status, 0) + 1
        self.__init__()  # type: ignore[misc]
        return load


@asynccontextmanager
async def serving(tree: Path) -> AsyncIterator[str]:
    """`rummy serve` of `tree` on a free port and a fresh database: its base URL."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(tree))
        env["RUMMY_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp}/bench.db"
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
        proc = subprocess.Popen(
            command, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    with urllib.request.urlopen(f"{base}/api/variants", timeout=1):
                        break
                except OSError:
                    await asyncio.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait()


async def visit(browser: Any, base: str, lang: str) -> tuple[Load, Load]:
    """A first visit of the lobby in a fresh profile, then a reload: their loads."""
    locale = "nl-NL" if lang == "nl" else "en-GB"
    context = await browser.new_context(base_url=base, locale=locale)
    try:
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        traffic = Traffic()
        traffic.attach(cdp)
        await cdp.send("Network.enable")
        await page.goto("/", wait_until="networkidle")
        await page.wait_for_selector("#create:not([disabled])")
        first = traffic.take()
        await page.reload(wait_until="networkidle")
        await page.wait_for_selector("#create:not([disabled])")
        return first, traffic.take()
    finally:
        await context.close()


def _line(name: str, loads: list[Load]) -> str:
    requests = statistics.median(x.requests for x in loads)
    size = statistics.median(x.bytes for x in loads)
    cached = statistics.median(x.from_cache for x in loads)
    statuses = ", ".join(f"{n} x {s}" for s, n in sorted(loads[-1].statuses.items()))
    return (
        f"  {name:11} {requests:4.0f} requests, {size:9,.0f} bytes "
        f"({statuses}; {cached:.0f} from the cache without asking)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, default=[Path(".")])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--lang", choices=["nl", "en"], default="nl")
    args = parser.parse_args()
    from playwright.async_api import async_playwright

    results: dict[Path, list[tuple[Load, Load]]] = {tree: [] for tree in args.trees}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(args.rounds):
            for tree in args.trees:
                async with serving(tree.resolve()) as base:
                    results[tree].append(await visit(browser, base, args.lang))
        await browser.close()
    for tree, runs in results.items():
        head = subprocess.run(
            ["git", "-C", str(tree), "log", "-1", "--format=%h"], capture_output=True, text=True
        ).stdout.strip()
        print(f"{tree} ({head}), lobby in {args.lang}, median of {len(runs)}:")
        print(_line("first visit", [first for first, _ in runs]))
        print(_line("reload", [again for _, again in runs]))


if __name__ == "__main__":
    asyncio.run(main())
