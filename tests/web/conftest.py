"""Browser fixtures: Debian's Chromium driven by Playwright's async API against the shared
`live_server` (a real server with fixed deals allowed, on a temporary SQLite database).

Never `playwright install`: we launch /usr/bin/chromium. Without it these tests skip with
the reason, unless RUMMY_TEST_REQUIRE_SERVICES=1, where they fail.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.kit.browsers import CHROMIUM, CHROMIUM_ARGS, DESKTOP


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("RUMMY_TEST_REQUIRE_SERVICES", "") not in ("", "0"):
        pytest.fail(f"RUMMY_TEST_REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Any]:
    """One headless Chromium for the whole session."""
    if not os.path.exists(CHROMIUM):
        _skip_or_fail(
            f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        )
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _skip_or_fail("the playwright Python package is not installed")
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        await b.close()


class Pages:
    """Opens browser contexts and pages, and fails the test on any uncaught page error."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser = browser
        self.base = base_url
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    async def context(
        self, viewport: dict[str, int] | None = None, locale: str = "nl-NL", **options: Any
    ) -> Any:
        """A browser context; `options` go to Playwright's new_context (reduced_motion...)."""
        ctx = await self.browser.new_context(
            base_url=self.base, viewport=viewport or DESKTOP, locale=locale, **options
        )
        await ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.base)
        self.contexts.append(ctx)
        return ctx

    async def page(self, ctx: Any | None = None, path: str | None = "/", **kw: Any) -> Any:
        """A new page that records uncaught errors; opens `path` unless it is None."""
        ctx = ctx or await self.context(**kw)
        page = await ctx.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        if path is not None:
            await page.goto(path)
        return page

    async def close(self) -> None:
        for ctx in self.contexts:
            await ctx.close()


@pytest.fixture
async def pages(browser: Any, live_server: str) -> AsyncIterator[Pages]:
    from playwright.async_api import expect

    expect.set_options(timeout=15_000)
    p = Pages(browser, str(live_server))
    yield p
    await p.close()
    assert not p.errors, f"uncaught errors in the page: {p.errors}"
