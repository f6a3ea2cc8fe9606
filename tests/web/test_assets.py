"""A reload of the lobby asks the server for the page and its data only: every module and
the stylesheet come from the browser's cache without a question (content-hashed URLs kept a
year, named by the page's import map), where they had made 36 revalidations (304s)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

pytestmark = pytest.mark.browser


async def test_a_reload_asks_for_the_page_and_its_data_only(pages) -> None:
    page = await pages.page(path=None)
    asked: list[str] = []
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Network.enable")

    def sent(event: dict[str, Any]) -> None:
        if not event["request"]["url"].startswith("data:"):
            asked.append(event["request"]["url"].removeprefix(pages.base))

    cdp.on("Network.requestWillBeSent", sent)
    await page.goto("/", wait_until="networkidle")
    await expect(page.locator("#create")).to_be_enabled()
    assert any(url.startswith("/web/js/store.") for url in asked), asked
    first = len(asked)
    cached: list[str] = []
    cdp.on("Network.requestServedFromCache", lambda event: cached.append(event["requestId"]))
    asked.clear()
    await page.reload(wait_until="networkidle")
    await expect(page.locator("#create")).to_be_enabled()
    # The modules are still requested of the cache (so Chrome says it "sent" them), and each
    # of those was answered from it: on the wire, only the page and the rule sets.
    on_wire = [url for url in asked if not url.startswith("/web/")]
    assert on_wire == ["/", "/api/variants"], asked
    assert len(cached) == len(asked) - 2 and len(asked) == first, (asked, cached)
