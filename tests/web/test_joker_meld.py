"""The page offers every meld `legal` lists, and `legal` lists every single meld the hand
can lay (issue 46, item 9): holding 8H, 9H, TH and a joker in rummy51, the run 8H-JK-TH
(the joker as 9H, keeping 9H back) is offered and laid as the server reads it."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.browsers import select
from tests.kit.responses import ok
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HAND = ["8H", "TH", "JK", "9H", "KS", "KD", "KC", "QS", "QD", "QC", "3D", "4S", "6C"]


async def test_the_page_offers_a_run_with_the_joker_in_a_held_cards_place(pages, http, api) -> None:
    created = await computer_room(http, [HAND, []], ["4C"], ["2D"], variant="rummy51")
    page = await pages.page(path=f"/r/{created['room']}#seat={created['token']}")
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await expect(page.locator("#hand .card")).to_have_count(14)
    meld_button = page.get_by_role("button", name="Uitleggen")
    # The opening first (60 points), then the run with the joker inside it.
    for group in (["KS", "KD", "KC"], ["QS", "QD", "QC"]):
        await select(page, group)
        await page.get_by_role("button", name="+ Groep").click()
    await meld_button.click()
    await expect(page.locator("#melds .meld")).to_have_count(2)
    listed = ok(await api.state(created["room"], created["token"]))["legal"]["melds"]
    assert ["8H", "JK", "TH"] in listed, listed
    await select(page, ["8H", "JK", "TH"])
    await expect(meld_button).to_be_enabled()
    await meld_button.click()
    await expect(page.locator("#melds .meld")).to_have_count(3)
    view = ok(await api.state(created["room"], created["token"]))
    run = next(m for m in view["melds"] if "JK" in m["cards"])
    assert run["cards"] == ["8H", "JK", "TH"] and run["stands_for"] == ["8H", "9H", "TH"]
    assert "9H" in view["hand"]
