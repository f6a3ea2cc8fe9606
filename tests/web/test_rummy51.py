"""rummy51's opening meter and refusal, and the table on a 375 px phone."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.browsers import PHONE, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

OPENER = ["2H", "3H", "4H", "5S", "JK", "7S", "9C", "KD", "AD", "8C", "QH", "TS", "6D"]


async def rummy51_room(http) -> dict:
    return await computer_room(http, [OPENER, []], ["4C"], ["9D"], variant="rummy51")


async def test_rummy51_opening_below_51_is_refused(pages, http) -> None:
    created = await rummy51_room(http)
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    await page.get_by_role("button", name="Tip").click()
    await expect(page.locator("#hint")).to_contain_text("Suggestie:")
    meter = page.locator("#opening-meter")
    await expect(meter).to_have_attribute("data-value", "0")
    for code in ("2H", "3H", "4H"):
        await page.locator(f'#hand .card[data-card="{code}"]').click()
    await expect(meter).to_have_text("Opening: 9 / 51")
    await page.get_by_role("button", name="+ Groep").click()
    for code in ("5S", "JK", "7S"):
        await page.locator(f'#hand .card[data-card="{code}"]').click()
    # The joker stands for the 6 of spades: 9 + (5 + 6 + 7).
    await expect(meter).to_contain_text("Opening: 27 / 51")
    await page.get_by_role("button", name="Uitleggen").click()
    toast = page.locator("#toast")
    await expect(toast).to_have_attribute("data-code", "opening_below_51")
    await expect(toast).to_contain_text("minstens 51 punten")
    await expect(page.locator("#melds .meld")).to_have_count(0)
    await expect(page.locator("#hand .card")).to_have_count(14)


async def test_phone_width_has_no_horizontal_scroll_and_cards_are_tappable(pages, http) -> None:
    created = await rummy51_room(http)
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}", viewport=PHONE)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    cards = page.locator("#hand .card")
    await expect(cards).to_have_count(14)
    await page.locator('#hand .card[data-card="2H"]').click()
    # The tap re-renders the hand: measure the cards once that has happened.
    tapped = page.locator('#hand .card[data-card="2H"]')
    await expect(tapped).to_have_attribute("aria-pressed", "true")
    width = await page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] == 375, width
    # Every card measured in one turn of the page's script: the hand can be drawn again
    # between a locator's steps (a presence frame), which detached the card being measured.
    found = await page.evaluate(
        """() => [...document.querySelectorAll("#hand .card")].map((el) => {
               el.scrollIntoView({ block: "nearest", inline: "nearest" });
               const r = el.getBoundingClientRect();
               const at = document.elementFromPoint(r.x + 10, r.y + r.height / 2);
               return { x: r.x, width: r.width, height: r.height, hit: el.contains(at) };
           })"""
    )
    assert len(found) == 14, found
    for i, box in enumerate(found):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, (i, box)
        assert box["width"] >= 40 and box["height"] >= 44, (i, box)
        # The hand overlaps to stay in one row: the strip with the card's rank and suit,
        # on its left, is what a finger taps.
        assert box["hit"], f"card {i} is covered"
    await page.evaluate("() => window.scrollTo(0, 0)")
    await screenshot(page, "table-phone-rummy51")
