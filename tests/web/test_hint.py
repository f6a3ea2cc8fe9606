"""The Tip button shows the server's hint (GET /hint), reason and all, in the page's language."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser


async def test_the_tip_button_shows_the_servers_reason(pages, http) -> None:
    # Nothing in the hand goes with the 4 of clubs: the hard bot draws from the stock.
    hand = ["7H", "8H", "9H", "KS", "KD", "KC", "TH", "6H", "KH", "JD"]
    created = await computer_room(http, [hand, []], ["4C"], ["2D"])
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await page.get_by_role("button", name="Tip", exact=True).click()
    # Words only the server's reason has; the page's own finder would just say to draw.
    await expect(page.locator("#hint")).to_contain_text(
        "trek van de trekstapel: klaveren 4 op de aflegstapel helpt je minder"
    )
