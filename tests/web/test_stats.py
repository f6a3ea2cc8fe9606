"""Statistics in this browser: hands and matches played and won per variant and mode and
the best hand, shown in the lobby, counted once per hand, with a reset."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.kit.browsers import meld, screenshot
from tests.kit.rooms import computer_room

pytestmark = pytest.mark.browser

HUMAN = ["AH", "2H", "3H", "4H", "9C", "9D", "9S", "QC", "QD", "QH"]
BOT = ["2S", "5S", "8S", "JS", "3D", "6D", "KD", "4C", "7C", "TC"]  # 65 points


async def test_a_won_hand_is_counted_once_in_the_lobby_and_reset(pages, http) -> None:
    game = await computer_room(http, [HUMAN, BOT], discard=["5C"], stock_top=["8C", "6C"])
    table = f"/r/{game['room']}#seat={game['token']}"
    page = await pages.page(path="/")
    await expect(page.locator("#stats")).to_contain_text("Nog geen handen gespeeld")
    await page.goto(table)
    await page.locator('[data-action="draw"][data-source="stock"]').click()
    await meld(page, ["AH", "2H", "3H", "4H"], ["9C", "9D", "9S"], ["QC", "QD", "QH"])
    await expect(page.locator("#hand .card")).to_have_count(1)
    await page.locator("#hand .card").first.click()
    await page.get_by_role("button", name="Afleggen").click()
    await expect(page.locator(".hand-end")).to_be_visible()

    # The same hand end seen again (a reload) is not a second hand.
    await page.reload()
    await expect(page.locator(".hand-end")).to_be_visible()
    await page.goto("/")
    row = page.locator('#stats tr[data-variant="classic"][data-mode="computer"]')
    await expect(row.locator(".hands")).to_have_text("1 van 1")
    await expect(row.locator(".matches")).to_have_text("0 van 0")
    await expect(row.locator(".best")).to_have_text("65 punten")
    await expect(row.locator("th")).to_have_text("Klassiek Rummy · Tegen de computer")
    await screenshot(page, "lobby-with-stats-1280")
    await page.get_by_role("button", name="Statistieken wissen").click()
    await expect(page.locator("#stats")).to_contain_text("Nog geen handen gespeeld")
    await page.reload()
    await expect(page.locator("#stats")).to_contain_text("Nog geen handen gespeeld")
